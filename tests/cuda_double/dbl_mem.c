/* SPDX-License-Identifier: MIT */
/* CUDA double: device memory (memfd mappings), pinned host memory, copies, dma-buf. */
#define _GNU_SOURCE
#include "dbl.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define DBL_GRAN      (2UL << 20) /* the driver's allocation granularity and alignment */
#define DBL_PAGE      4096UL
#define DBL_MAX_ALLOC 512
#define DBL_JUNK      0xdb /* fresh device memory is not zero on a GPU either */

static struct dbl_alloc dev_tab[DBL_MAX_ALLOC];
static struct host_range {
	uintptr_t base;
	size_t len;
	int pinned_by_us; /* cuMemAllocHost (else cuMemHostRegister) */
} host_tab[DBL_MAX_ALLOC];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

const struct dbl_alloc *dbl_find(uintptr_t p, size_t len)
{
	const struct dbl_alloc *a = NULL;
	int i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_ALLOC; i++)
		if (dev_tab[i].base && p >= dev_tab[i].base &&
		    p - dev_tab[i].base <= dev_tab[i].len &&
		    len <= dev_tab[i].len - (p - dev_tab[i].base)) {
			a = &dev_tab[i];
			break;
		}
	pthread_mutex_unlock(&mu);
	return a;
}

/* A MAP_SHARED mapping of fd, len bytes, aligned to DBL_GRAN; MAP_FAILED on error. */
static void *map_aligned(int fd, size_t len)
{
	uint8_t *r = mmap(NULL, len + DBL_GRAN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;
	size_t head;

	if (r == MAP_FAILED)
		return MAP_FAILED;
	a = ((uintptr_t)r + DBL_GRAN - 1) & ~(DBL_GRAN - 1);
	head = a - (uintptr_t)r;
	if (mmap((void *)a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
	    MAP_FAILED) {
		munmap(r, len + DBL_GRAN);
		return MAP_FAILED;
	}
	if (head)
		munmap(r, head);
	if (DBL_GRAN - head)
		munmap((void *)(a + len), DBL_GRAN - head);
	return (void *)a;
}

static CUresult mem_alloc(CUdeviceptr *dptr, size_t len)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);
	size_t alen;
	void *p;
	int fd, i;

	if (r)
		return r;
	if (!dptr || !len)
		return CUDA_ERROR_INVALID_VALUE;
	/* more than any GPU has: out of memory, as the driver says (c_errors) */
	if (len > (1ULL << 40) || dbl_fault_alloc())
		return CUDA_ERROR_OUT_OF_MEMORY;
	alen = (len + DBL_GRAN - 1) & ~(DBL_GRAN - 1);
	fd = memfd_create("gdr-cuda-double", MFD_CLOEXEC);
	if (fd < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (ftruncate(fd, (off_t)alen) || (p = map_aligned(fd, alen)) == MAP_FAILED) {
		close(fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memset(p, DBL_JUNK, len);
	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_ALLOC && dev_tab[i].base; i++)
		;
	if (i < DBL_MAX_ALLOC)
		dev_tab[i] = (struct dbl_alloc){(uintptr_t)p, alen, fd, c->dev};
	pthread_mutex_unlock(&mu);
	if (i == DBL_MAX_ALLOC) {
		munmap(p, alen);
		close(fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*dptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

static CUresult mem_free(CUdeviceptr dptr)
{
	struct dbl_alloc a = {0};
	int i;

	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_ALLOC; i++)
		if (dev_tab[i].base && dev_tab[i].base == (uintptr_t)dptr) {
			a = dev_tab[i];
			dev_tab[i].base = 0;
			break;
		}
	pthread_mutex_unlock(&mu);
	if (!a.base)
		return CUDA_ERROR_INVALID_VALUE;
	munmap((void *)a.base, a.len);
	close(a.fd);
	/* Freed, but a lost context still says so, as the driver's sticky errors do. */
	return dbl_lost ? DBL_LOST_ERR : CUDA_SUCCESS;
}

static int host_add(uintptr_t base, size_t len, int ours)
{
	int i, free_i = -1;

	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_ALLOC; i++) {
		struct host_range *h = &host_tab[i];

		if (!h->base) {
			if (free_i < 0)
				free_i = i;
			continue;
		}
		if (base < h->base + h->len && h->base < base + len) {
			pthread_mutex_unlock(&mu);
			return -1;
		}
	}
	if (free_i >= 0)
		host_tab[free_i] = (struct host_range){base, len, ours};
	pthread_mutex_unlock(&mu);
	return free_i >= 0 ? 0 : -2;
}

/* Removes the range starting at base made the given way; its length, or 0. */
static size_t host_del(uintptr_t base, int ours)
{
	size_t len = 0;
	int i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_ALLOC; i++)
		if (host_tab[i].base == base && host_tab[i].pinned_by_us == ours) {
			len = host_tab[i].len;
			host_tab[i].base = 0;
			break;
		}
	pthread_mutex_unlock(&mu);
	return len;
}

static CUresult mem_alloc_host(void **pp, size_t len)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);
	size_t alen;
	void *p;

	if (r)
		return r;
	if (!pp || !len)
		return CUDA_ERROR_INVALID_VALUE;
	if (dbl_fault_alloc())
		return CUDA_ERROR_OUT_OF_MEMORY;
	alen = (len + DBL_PAGE - 1) & ~(DBL_PAGE - 1);
	p = mmap(NULL, alen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (host_add((uintptr_t)p, alen, 1)) {
		munmap(p, alen);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*pp = p;
	return CUDA_SUCCESS;
}

/* Pinned, portable and mapped at once, whatever the flags: what a UVA driver gives. */
static CUresult mem_host_alloc(void **pp, size_t len, unsigned int flags)
{
	if (flags & ~(unsigned int)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
				    CU_MEMHOSTALLOC_WRITECOMBINED))
		return CUDA_ERROR_INVALID_VALUE;
	return mem_alloc_host(pp, len);
}

int dbl_host_pinned(uintptr_t p, size_t len)
{
	int i, found = 0;

	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_ALLOC && !found; i++)
		found = host_tab[i].base && p >= host_tab[i].base &&
			p - host_tab[i].base <= host_tab[i].len &&
			len <= host_tab[i].len - (p - host_tab[i].base);
	pthread_mutex_unlock(&mu);
	return found;
}

/* Unified addressing: the device sees pinned host memory at its host address. */
static CUresult mem_host_get_device_pointer(CUdeviceptr *d, void *p, unsigned int flags)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);

	if (r)
		return r;
	if (!d || flags || !dbl_host_pinned((uintptr_t)p, 1))
		return CUDA_ERROR_INVALID_VALUE;
	*d = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

static CUresult mem_free_host(void *p)
{
	size_t len;

	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	len = host_del((uintptr_t)p, 1);
	if (!len)
		return CUDA_ERROR_INVALID_VALUE;
	munmap(p, len);
	return CUDA_SUCCESS;
}

static CUresult mem_host_register(void *p, size_t len, unsigned flags)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);

	(void)flags;
	if (r)
		return r;
	if (!p || !len)
		return CUDA_ERROR_INVALID_VALUE;
	switch (host_add((uintptr_t)p, len, 0)) {
	case 0:
		return CUDA_SUCCESS;
	case -1:
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	default:
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
}

static CUresult mem_host_unregister(void *p)
{
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	return host_del((uintptr_t)p, 0) ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

/* Common checks of a copy touching device range [d, d+len). */
static CUresult copy_enter(CUdeviceptr d, size_t len)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);

	if (r)
		return r;
	if (len && !dbl_find((uintptr_t)d, len))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* A synchronous copy: done when the call returns (SYNC_MEMOPS semantics). */
static CUresult copy_now(void *dst, const void *src, size_t len, CUdeviceptr dev)
{
	CUresult r = copy_enter(dev, len);

	if (!r)
		r = dbl_fault_copy();
	if (!r && len)
		memmove(dst, src, len);
	return r;
}

static CUresult memcpy_htod(CUdeviceptr dst, const void *src, size_t len)
{
	return copy_now((void *)(uintptr_t)dst, src, len, dst);
}

static CUresult memcpy_dtoh(void *dst, CUdeviceptr src, size_t len)
{
	return copy_now(dst, (const void *)(uintptr_t)src, len, src);
}

static CUresult copy_async(void *dst, const void *src, size_t len, CUdeviceptr dev, CUstream s)
{
	struct dbl_op op = {.kind = DBL_OP_COPY, .dst = dst, .src = src, .len = len};
	CUresult r = copy_enter(dev, len);

	if (r)
		return r;
	/* An injected fault shows where the driver reports one: at the stream. */
	op.fail = dbl_fault_copy();
	return dbl_stream_submit(s, &op);
}

static CUresult memcpy_htod_async(CUdeviceptr dst, const void *src, size_t len, CUstream s)
{
	return copy_async((void *)(uintptr_t)dst, src, len, dst, s);
}

static CUresult memcpy_dtoh_async(void *dst, CUdeviceptr src, size_t len, CUstream s)
{
	return copy_async(dst, (const void *)(uintptr_t)src, len, src, s);
}

static CUresult memset_d8(CUdeviceptr dst, unsigned char v, size_t len)
{
	CUresult r = copy_enter(dst, len);

	if (!r)
		r = dbl_fault_copy();
	if (!r)
		memset((void *)(uintptr_t)dst, v, len);
	return r;
}

static CUresult memset_d8_async(CUdeviceptr dst, unsigned char v, size_t len, CUstream s)
{
	struct dbl_op op = {
	    .kind = DBL_OP_SET, .dst = (void *)(uintptr_t)dst, .len = len, .val = v};
	CUresult r = copy_enter(dst, len);

	if (r)
		return r;
	op.fail = dbl_fault_copy();
	return dbl_stream_submit(s, &op);
}

static CUresult get_handle_for_range(void *handle, CUdeviceptr dptr, size_t len,
				     CUmemRangeHandleType type, unsigned long long flags)
{
	const struct dbl_alloc *a;
	CUresult r = copy_enter(dptr, len);
	int fd;

	if (r)
		return r;
	/* flags: 0, or 1 (the PCIe mapping type) where this "driver" offers it */
	if (!handle || !len || type != CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD || flags > 1)
		return CUDA_ERROR_INVALID_VALUE;
	/* a platform without the PCIe mapping: "not supported", as on an x86 H100 (c_dmabuf) */
	if (flags == 1 && !dbl_conf.pcie_mapping)
		return CUDA_ERROR_NOT_SUPPORTED;
	/* As the driver: the range must be aligned to the host page size. */
	if ((dptr | len) & (DBL_PAGE - 1))
		return CUDA_ERROR_INVALID_VALUE;
	a = dbl_find((uintptr_t)dptr, len);
	/* The memfd stands in for the dma-buf (no udmabuf on the test kernel). */
	fd = fcntl(a->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*(int *)handle = fd;
	return CUDA_SUCCESS;
}

static CUresult pointer_set_attribute(const void *v, CUpointer_attribute attr, CUdeviceptr p)
{
	CUresult r = copy_enter(p, 1);

	if (r)
		return r;
	if (!v || attr != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

static CUresult pointer_get_attribute(void *v, CUpointer_attribute attr, CUdeviceptr p)
{
	const struct dbl_alloc *a = dbl_find((uintptr_t)p, 1);

	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!v || !a)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned int *)v = CU_MEMORYTYPE_DEVICE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)v = a->dev;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
		*(unsigned int *)v = 1;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
}

const struct dbl_fn dbl_mem_fns[] = {
    {"cuMemAlloc", (void *)mem_alloc, 3020},
    {"cuMemFree", (void *)mem_free, 3020},
    {"cuMemAllocHost", (void *)mem_alloc_host, 3020},
    {"cuMemFreeHost", (void *)mem_free_host, 2000},
    {"cuMemHostAlloc", (void *)mem_host_alloc, 2020},
    {"cuMemHostGetDevicePointer", (void *)mem_host_get_device_pointer, 3020},
    {"cuMemHostRegister", (void *)mem_host_register, 6050},
    {"cuMemHostUnregister", (void *)mem_host_unregister, 4000},
    {"cuMemcpyHtoD", (void *)memcpy_htod, 3020},
    {"cuMemcpyDtoH", (void *)memcpy_dtoh, 3020},
    {"cuMemcpyHtoDAsync", (void *)memcpy_htod_async, 3020},
    {"cuMemcpyDtoHAsync", (void *)memcpy_dtoh_async, 3020},
    {"cuMemsetD8", (void *)memset_d8, 3020},
    {"cuMemsetD8Async", (void *)memset_d8_async, 3020},
    {"cuMemGetHandleForAddressRange", (void *)get_handle_for_range, 11070},
    {"cuPointerSetAttribute", (void *)pointer_set_attribute, 6000},
    {"cuPointerGetAttribute", (void *)pointer_get_attribute, 4000},
    {NULL, NULL, 0},
};
