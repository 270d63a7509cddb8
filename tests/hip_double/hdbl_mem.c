/* SPDX-License-Identifier: MIT */
/* HIP double: device memory on memfd mappings, host memory, copies, the dma-buf export. */
#define _GNU_SOURCE
#include "hdbl.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct hdbl_alloc *allocs;

const struct hdbl_alloc *hdbl_find(uintptr_t p, size_t len)
{
	const struct hdbl_alloc *a;

	pthread_mutex_lock(&lock);
	for (a = allocs; a; a = a->next)
		if (p >= a->base && p - a->base <= a->len && len <= a->len - (p - a->base))
			break;
	pthread_mutex_unlock(&lock);
	return a;
}

HDBL_EXPORT int hipMalloc(void **p, size_t len)
{
	struct hdbl_alloc *a;
	void *m;
	int fd, r;

	r = hdbl_enter();
	if (r)
		return r;
	if (!p)
		return HDBL_INVALID_VALUE;
	/* as HIP documents: 0 bytes allocate nothing, *p is NULL, success (h_rules) */
	if (!len) {
		*p = NULL;
		return HDBL_SUCCESS;
	}
	/* more than any GPU has: out of memory, as the runtime says (h_rules) */
	if (len > (1ULL << 40))
		return HDBL_OUT_OF_MEMORY;
	r = hdbl_fault_alloc();
	if (r)
		return r;
	fd = memfd_create("hip-double-vram", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)len)) {
		if (fd >= 0)
			close(fd);
		return HDBL_OUT_OF_MEMORY;
	}
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	a = calloc(1, sizeof(*a));
	if (m == MAP_FAILED || !a) {
		if (m != MAP_FAILED)
			munmap(m, len);
		free(a);
		close(fd);
		return HDBL_OUT_OF_MEMORY;
	}
	a->base = (uintptr_t)m;
	a->len = len;
	a->fd = fd;
	a->dev = hdbl_device();
	pthread_mutex_lock(&lock);
	a->next = allocs;
	allocs = a;
	pthread_mutex_unlock(&lock);
	*p = m;
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipFree(void *p)
{
	struct hdbl_alloc **pp, *a = NULL;

	if (!p)
		return HDBL_SUCCESS;
	pthread_mutex_lock(&lock);
	for (pp = &allocs; *pp; pp = &(*pp)->next)
		if ((*pp)->base == (uintptr_t)p) {
			a = *pp;
			*pp = a->next;
			break;
		}
	pthread_mutex_unlock(&lock);
	if (!a)
		return HDBL_INVALID_VALUE;
	munmap((void *)a->base, a->len);
	close(a->fd);
	free(a);
	return HDBL_SUCCESS;
}

#define HOST_HDR 4096

HDBL_EXPORT int hipHostMalloc(void **p, size_t len, unsigned flags)
{
	void *m;
	int r = hdbl_enter();

	(void)flags;
	if (r)
		return r;
	if (!p || !len)
		return HDBL_INVALID_VALUE;
	if (hdbl_fault_alloc())
		return HDBL_OUT_OF_MEMORY;
	/* one page in front holds the mapping's length, for hipHostFree */
	m = mmap(NULL, len + HOST_HDR, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		*p = NULL;
		return HDBL_OUT_OF_MEMORY;
	}
	*(size_t *)m = len + HOST_HDR;
	*p = (char *)m + HOST_HDR;
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipHostFree(void *p)
{
	char *m = (char *)p - HOST_HDR;

	if (!p)
		return HDBL_SUCCESS;
	return munmap(m, *(size_t *)m) ? HDBL_INVALID_VALUE : HDBL_SUCCESS;
}

/* hipMemcpyKind: 0 host-host, 1 host-device, 2 device-host, 3 device-device, 4 default. */
int hdbl_check_copy(void *dst, const void *src, size_t len, int kind)
{
	int ddev = hdbl_find((uintptr_t)dst, len) != NULL;
	int sdev = hdbl_find((uintptr_t)src, len) != NULL;
	int r = hdbl_enter();

	if (r)
		return r;
	if (!dst || !src || kind < 0 || kind > 4)
		return HDBL_INVALID_VALUE;
	if ((kind == 1 && !ddev) || (kind == 2 && !sdev) || (kind == 3 && (!ddev || !sdev)))
		return HDBL_ILLEGAL_ADDRESS; /* a host pointer where the kind wants device memory */
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipMemcpy(void *dst, const void *src, size_t len, int kind)
{
	int r = hdbl_check_copy(dst, src, len, kind);

	if (!r)
		r = hdbl_fault_copy();
	if (r)
		return r;
	memcpy(dst, src, len);
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipMemset(void *p, int value, size_t len)
{
	int r = hdbl_enter();

	if (r)
		return r;
	if (!hdbl_find((uintptr_t)p, len))
		return HDBL_INVALID_VALUE;
	memset(p, value, len);
	return HDBL_SUCCESS;
}

#ifdef HDBL_HSA_EXPORT
#define HSA_STATUS_ERROR_INVALID_ARGUMENT 0x1001
/* ROCm >= 5.6's export: a dup of the allocation's memfd and the offset of ptr in it. */
HDBL_EXPORT int hsa_amd_portable_export_dmabuf(const void *ptr, size_t size, int *fd,
					       uint64_t *offset)
{
	const struct hdbl_alloc *a = hdbl_find((uintptr_t)ptr, size);

	if (!a || !fd || !offset || !size || hdbl_conf.fail_export)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*fd = dup(a->fd);
	if (*fd < 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*offset = (uintptr_t)ptr - a->base;
	return 0;
}

HDBL_EXPORT int hsa_amd_portable_close_dmabuf(int fd)
{
	return close(fd) ? HSA_STATUS_ERROR_INVALID_ARGUMENT : 0;
}
#endif
