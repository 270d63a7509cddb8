/* SPDX-License-Identifier: MIT */
/*
 * Reference for gdr_stage_bw: the plainest copy loop, cuMemcpy{HtoD,DtoH}Async
 * back to back on one stream from pinned host memory, timed with
 * CLOCK_MONOTONIC around queue-all + synchronize; bidir: both directions at
 * once, each on its own stream (GB/s of both together).
 * Usage: ref_memcpy h2d|d2h|bidir BYTES ITERS [REPS]  -> prints best GB/s of REPS.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda_api.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

#define TRY(call)                                                                                  \
	do {                                                                                       \
		CUresult r_ = (call);                                                              \
		if (r_ != CUDA_SUCCESS) {                                                          \
			fprintf(stderr, "ref_memcpy: %s: %s\n", #call, gdr_cuda_strerror(r_));     \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

int main(int argc, char **argv)
{
	const struct gdr_cuda_api *cu;
	char why[256];
	CUdevice dev;
	CUcontext ctx;
	CUstream st, st2;
	CUdeviceptr d, d2;
	void *h, *h2;
	size_t len;
	long iters, reps = 3, i, r;
	int h2d, bidir;
	double best = 0;

	if (argc < 4 || (strcmp(argv[1], "h2d") && strcmp(argv[1], "d2h") &&
			 strcmp(argv[1], "bidir"))) {
		fprintf(stderr, "usage: ref_memcpy h2d|d2h|bidir BYTES ITERS [REPS]\n");
		return 2;
	}
	h2d = !strcmp(argv[1], "h2d");
	bidir = !strcmp(argv[1], "bidir");
	len = strtoull(argv[2], NULL, 0);
	iters = strtol(argv[3], NULL, 0);
	if (argc > 4)
		reps = strtol(argv[4], NULL, 0);
	if (!len || iters < 1 || reps < 1) {
		fprintf(stderr, "ref_memcpy: BYTES, ITERS and REPS must be positive\n");
		return 2;
	}
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		fprintf(stderr, "ref_memcpy: %s\n", why);
		return 1;
	}
	TRY(cu->cuDeviceGet(&dev, 0));
	TRY(cu->cuDevicePrimaryCtxRetain(&ctx, dev));
	TRY(cu->cuCtxSetCurrent(ctx));
	TRY(cu->cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	TRY(cu->cuStreamCreate(&st2, CU_STREAM_NON_BLOCKING));
	TRY(cu->cuMemAlloc(&d, len));
	TRY(cu->cuMemAlloc(&d2, len));
	TRY(cu->cuMemAllocHost(&h, len));
	TRY(cu->cuMemAllocHost(&h2, len));
	memset(h, 1, len);
	for (r = -1; r < reps; r++) { /* r = -1: warm-up */
		double t0 = now_s(), t;

		for (i = 0; i < iters; i++) {
			if (h2d || bidir)
				TRY(cu->cuMemcpyHtoDAsync(d, h, len, st));
			if (!h2d)
				TRY(cu->cuMemcpyDtoHAsync(h2, d2, len, bidir ? st2 : st));
		}
		TRY(cu->cuStreamSynchronize(st));
		TRY(cu->cuStreamSynchronize(st2));
		t = now_s() - t0;
		if (r >= 0 && (double)len * iters * (bidir ? 2 : 1) / t / 1e9 > best)
			best = (double)len * iters * (bidir ? 2 : 1) / t / 1e9;
	}
	printf("%zu %s %.3f\n", len, argv[1], best);
	cu->cuMemFreeHost(h);
	cu->cuMemFreeHost(h2);
	cu->cuMemFree(d);
	cu->cuMemFree(d2);
	cu->cuStreamDestroy(st);
	cu->cuStreamDestroy(st2);
	cu->cuDevicePrimaryCtxRelease(dev);
	return 0;
}
