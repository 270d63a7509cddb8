/* SPDX-License-Identifier: MIT */
/*
 * What gdrperf relies on in the CUDA driver, checked on whatever libcuda.so.1
 * GDR_LIBCUDA names: the real driver on a GPU host, the driver double in
 * `make check` (t_cuda_driver_double.sh). Bus ids, attributes, allocation
 * alignment, dma-buf export and its alignment rule, synchronous copies,
 * asynchronous copies that really are asynchronous, stream order, events.
 * Skips (77) where no driver or GPU is present. With GDR_DOUBLE_FAIL set (the
 * double only) it checks instead that the injected fault is reported.
 */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuda_api.h"
#include "cuda_skip.h"
#include "cuda_topo.h"
#include "log.h"
#include "mem.h"

#include "../unit/check.h"
#include "pattern.h"

#define MiB	    (1UL << 20)
#define DOUBLE_NAME "gdrperf CUDA double (test tool, not a GPU)"

static const struct gdr_cuda_api *cu;

static void devices(int count, int is_double)
{
	char bus[32], first[32] = "", norm[32];
	int i, v;

	for (i = 0; i < count; i++) {
		CUdevice d, back = -1;

		CHECK(cu->cuDeviceGet(&d, i) == CUDA_SUCCESS);
		CHECK(cu->cuDeviceGetPCIBusId(bus, sizeof(bus), d) == CUDA_SUCCESS);
		CHECK(gdr_pci_normalize(bus, norm, sizeof(norm)) == 0, "bus id '%s'", bus);
		CHECK(cu->cuDeviceGetByPCIBusId(&back, norm) == CUDA_SUCCESS && back == d,
		      "lower-case %s", norm);
		CHECK(strcmp(first, norm), "two devices at %s", norm);
		if (!i)
			snprintf(first, sizeof(first), "%s", norm);
		CHECK(cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED,
					       d) == CUDA_SUCCESS);
		printf("  device %d at %s: GPUDirect RDMA %d", i, bus, v);
		CHECK(!is_double || v == 1);
		CHECK(cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, d) ==
		      CUDA_SUCCESS);
		CHECK(!is_double || v == 1);
		printf(", dma-buf %d", v);
		if (cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, d) ==
		    CUDA_SUCCESS)
			printf(", NUMA node %d", v);
		if (cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING,
					     d) == CUDA_SUCCESS)
			printf(", RDMA write ordering %d", v);
		printf("\n");
	}
	CHECK(cu->cuDeviceGetByPCIBusId(&v, "00ff:fe:1f.7") != CUDA_SUCCESS);
	CHECK(cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0) != CUDA_SUCCESS);
}

static void alignment_and_dmabuf(int is_double)
{
	CUdeviceptr a = 0, b = 0;
	int fd = -1;
	CUresult r;

	CHECK(cu->cuMemAlloc(&a, MiB + 1) == CUDA_SUCCESS);
	CHECK(cu->cuMemAlloc(&b, 2 * MiB) == CUDA_SUCCESS);
	printf("  cuMemAlloc: 1 MiB+1 at offset %llu in a 2 MiB page, 2 MiB at offset %llu\n",
	       (unsigned long long)(a % (2 * MiB)), (unsigned long long)(b % (2 * MiB)));
	CHECK(a % 512 == 0 && b % 512 == 0);
	CHECK(!is_double || (a % (2 * MiB) == 0 && b % (2 * MiB) == 0));
	CHECK(cu->cuMemGetHandleForAddressRange(
		  &fd, b, 2 * MiB, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0) == CUDA_SUCCESS &&
	      fd >= 0);
	if (fd >= 0)
		close(fd);
	/* The rule gdrperf must follow: a page-aligned range (round down, pass an offset). */
	fd = -1;
	r = cu->cuMemGetHandleForAddressRange(&fd, b + 1, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD,
					      0);
	printf("  dma-buf export of an unaligned range: %s\n", gdr_cuda_strerror(r));
	CHECK(r != CUDA_SUCCESS);
	if (fd >= 0)
		close(fd);
	CHECK(cu->cuMemFree(a) == CUDA_SUCCESS && cu->cuMemFree(b) == CUDA_SUCCESS);
}

/* Synchronous copies are done on return; async work is not done at once; order holds. */
static void copies(void)
{
	const size_t len = 64 * MiB, chunk = 4 * MiB;
	uint8_t *h = NULL, *g = NULL;
	CUdeviceptr d = 0;
	CUstream s = NULL;
	CUevent e0 = NULL, e1 = NULL;
	float ms = -1;
	CUresult q;
	size_t off, bad = len;

	CHECK(cu->cuMemAlloc(&d, len) == CUDA_SUCCESS);
	CHECK(cu->cuMemAllocHost((void **)&h, len) == CUDA_SUCCESS);
	CHECK(cu->cuMemAllocHost((void **)&g, len) == CUDA_SUCCESS);
	CHECK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
	CHECK(cu->cuEventCreate(&e0, 0) == CUDA_SUCCESS && cu->cuEventCreate(&e1, 0) == 0);
	if (failures)
		return;
	pattern_fill(h, len, 0, 5);
	CHECK(cu->cuMemcpyHtoD(d, h, len) == CUDA_SUCCESS);
	CHECK(cu->cuMemcpyDtoH(g, d + len - 4096, 4096) == CUDA_SUCCESS);
	CHECK(!memcmp(g, h + len - 4096, 4096), "a synchronous copy was not done on return");

	/* chunks go up and come back on one stream: each read must see its write */
	pattern_fill(h, len, 0, 6);
	memset(g, 0, len);
	CHECK(cu->cuEventRecord(e0, s) == CUDA_SUCCESS);
	for (off = 0; off < len; off += chunk) {
		CHECK(cu->cuMemcpyHtoDAsync(d + off, h + off, chunk, s) == CUDA_SUCCESS);
		CHECK(cu->cuMemcpyDtoHAsync(g + off, d + off, chunk, s) == CUDA_SUCCESS);
	}
	CHECK(cu->cuEventRecord(e1, s) == CUDA_SUCCESS);
	q = cu->cuStreamQuery(s);
	printf("  64 MiB queued: cuStreamQuery says %s\n", gdr_cuda_strerror(q));
	CHECK(q == CUDA_ERROR_NOT_READY, "queued work reported done at once");
	CHECK(cu->cuEventSynchronize(e1) == CUDA_SUCCESS);
	CHECK(cu->cuStreamSynchronize(s) == CUDA_SUCCESS);
	CHECK(cu->cuStreamQuery(s) == CUDA_SUCCESS);
	for (off = 0; off < len; off++)
		if (g[off] != h[off]) {
			bad = off;
			break;
		}
	CHECK(bad == len, "stream order broken: first wrong byte at %zu of %zu", bad, len);
	CHECK(cu->cuEventElapsedTime(&ms, e0, e1) == CUDA_SUCCESS && ms > 0);
	printf("  stream order kept over %zu chunks; events: %.3f ms\n", 2 * len / chunk, ms);
	cu->cuEventDestroy(e0);
	cu->cuEventDestroy(e1);
	CHECK(cu->cuStreamDestroy(s) == CUDA_SUCCESS);
	cu->cuMemFreeHost(h);
	cu->cuMemFreeHost(g);
	CHECK(cu->cuMemFree(d) == CUDA_SUCCESS);
}

/* GDR_DOUBLE_FAIL set: the injected fault is what the calls report. */
static int faults(const char *spec)
{
	CUdeviceptr d = 0, d2 = 0;
	CUstream s = NULL;
	uint8_t h[4096] = {0};
	CUresult r;
	int i;

	printf("  GDR_DOUBLE_FAIL=%s\n", spec);
	if (!strcmp(spec, "alloc:1")) {
		CHECK(cu->cuMemAlloc(&d, 4096) == CUDA_SUCCESS);
		CHECK(cu->cuMemAlloc(&d2, 4096) == CUDA_ERROR_OUT_OF_MEMORY);
		return failures;
	}
	CHECK(cu->cuMemAlloc(&d, 4096) == CUDA_SUCCESS);
	CHECK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
	for (i = 0; i < 2; i++)
		CHECK(cu->cuMemcpyHtoD(d, h, sizeof(h)) == CUDA_SUCCESS);
	/*
	 * The third copy fails. A failed copy is reported at the stream, as the driver
	 * reports asynchronous faults; a lost context may show at once.
	 */
	r = cu->cuMemcpyHtoDAsync(d, h, sizeof(h), s);
	CHECK(r == CUDA_SUCCESS || !strcmp(spec, "ctxlost:2"));
	if (r == CUDA_SUCCESS)
		r = cu->cuStreamSynchronize(s);
	printf("  after the fault: %s\n", gdr_cuda_strerror(r));
	if (!strcmp(spec, "copy:2")) {
		CHECK(r == CUDA_ERROR_ECC_UNCORRECTABLE);
		CHECK(cu->cuMemcpyDtoH(h, d, sizeof(h)) == CUDA_SUCCESS); /* one copy only */
	} else {
		CHECK(r == CUDA_ERROR_CONTEXT_IS_DESTROYED);
		CHECK(cu->cuMemcpyDtoH(h, d, sizeof(h)) == CUDA_ERROR_CONTEXT_IS_DESTROYED);
		CHECK(cu->cuMemAlloc(&d2, 4096) == CUDA_ERROR_CONTEXT_IS_DESTROYED);
	}
	cu->cuStreamDestroy(s);
	cu->cuMemFree(d);
	return failures;
}

/*
 * The GPUDirect RDMA write flush: where GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS
 * has the HOST bit, cuFlushGPUDirectRDMAWrites must succeed; where it has
 * not, gdrperf never calls it (here it is called to show what it returns).
 */
static void flush_writes(CUdevice dev)
{
	int opts = -1;
	CUresult r;

	CHECK(cu->cuDeviceGetAttribute(&opts, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS,
				       dev) == CUDA_SUCCESS);
	if (!cu->cuFlushGPUDirectRDMAWrites) {
		printf("  flush options %d: the driver has no cuFlushGPUDirectRDMAWrites\n", opts);
		return;
	}
	r = cu->cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
					   CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER);
	printf("  flush options %d: cuFlushGPUDirectRDMAWrites %s\n", opts,
	       r == CUDA_SUCCESS ? "succeeds" : gdr_cuda_strerror(r));
	CHECK(!(opts & CU_FLUSH_GPU_DIRECT_RDMA_WRITES_OPTION_HOST) || r == CUDA_SUCCESS);
}

int main(void)
{
	char name[128] = "";
	const char *fail = getenv("GDR_DOUBLE_FAIL");
	CUcontext ctx;
	CUdevice dev;
	int count = 0, is_double;

	gdr_set_prog("t_cuda_driver");
	cu = cuda_or_skip();
	CHECK(cu->cuDeviceGetCount(&count) == CUDA_SUCCESS && count >= 1);
	CHECK(cu->cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
	CHECK(cu->cuDeviceGetName(name, sizeof(name), dev) == CUDA_SUCCESS);
	is_double = !strcmp(name, DOUBLE_NAME);
	printf("driver CUDA %d.%d, %d device(s), device 0: %s\n", cu->driver_version / 1000,
	       cu->driver_version % 1000 / 10, count, name);
	CHECK(cu->cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
	CHECK(cu->cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
	if (failures)
		return 1;
	if (is_double && fail && !strncmp(fail, "flush", 5)) {
		flush_writes(dev); /* must fail, and say it was injected */
		return failures ? 1 : 0;
	}
	if (is_double && fail && *fail)
		return faults(fail) ? 1 : 0;
	devices(count, is_double);
	flush_writes(dev);
	alignment_and_dmabuf(is_double);
	copies();
	cu->cuDevicePrimaryCtxRelease(dev);
	return CHECK_DONE("on %s", name);
}
