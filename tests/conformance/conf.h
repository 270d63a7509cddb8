/* SPDX-License-Identifier: MIT */
/*
 * The CUDA conformance cases (tests/conformance/c_*.c): each checks one driver
 * rule gdrperf relies on, on whatever libcuda.so.1 GDR_LIBCUDA names (the real
 * driver on the GPU machine, the driver double in `make check`), through the
 * project's own loader (src/memory/cuda_api.c). A case prints what it observed
 * as stable lines `RULE <name> key=value ...` (classes and result names, never
 * raw timings: those go on `# info` lines), exits 0, or 77 with a reason when
 * no driver or GPU is present. tests/conformance/compare.sh holds the RULE
 * lines to the case's .expect (what the real driver says).
 */
#ifndef GDR_TESTS_CONF_H
#define GDR_TESTS_CONF_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>
#include "cuda_api.h"
#include "log.h"

/* The enum's own name of r (cuda.h), whatever the library under test calls it. */
static inline const char *conf_name(CUresult r)
{
	static __thread char other[32];

	switch (r) {
#define N(x)                                                                                       \
	case x:                                                                                    \
		return #x
		N(CUDA_SUCCESS);
		N(CUDA_ERROR_INVALID_VALUE);
		N(CUDA_ERROR_OUT_OF_MEMORY);
		N(CUDA_ERROR_NOT_INITIALIZED);
		N(CUDA_ERROR_DEINITIALIZED);
		N(CUDA_ERROR_NO_DEVICE);
		N(CUDA_ERROR_INVALID_DEVICE);
		N(CUDA_ERROR_INVALID_IMAGE);
		N(CUDA_ERROR_INVALID_CONTEXT);
		N(CUDA_ERROR_INVALID_PTX);
		N(CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
		N(CUDA_ERROR_INVALID_HANDLE);
		N(CUDA_ERROR_NOT_FOUND);
		N(CUDA_ERROR_NOT_READY);
		N(CUDA_ERROR_NOT_SUPPORTED);
		N(CUDA_ERROR_OPERATING_SYSTEM);
		N(CUDA_ERROR_UNKNOWN);
#undef N
	default:
		snprintf(other, sizeof(other), "CUresult_%d", (int)r);
		return other;
	}
}

/* Load the driver (cuInit included) or skip: exit 77 with the reason. */
static inline const struct gdr_cuda_api *conf_load(const char *prog)
{
	const struct gdr_cuda_api *cu;
	char why[256];

	gdr_set_prog(prog);
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		printf("skip: %s\n", why);
		exit(77);
	}
	return cu;
}

/*
 * An entry point gdrperf's loader does not carry (a case's own probe, e.g.
 * cuEventQuery), from the library the loader opened, through its
 * cuGetProcAddress as the loader does; NULL when absent. Call after conf_load.
 */
static inline void *conf_sym(const char *name, int ver)
{
	typedef CUresult (*proc_fn)(const char *, void **, int, cuuint64_t,
				    CUdriverProcAddressQueryResult *);
	const char *path = getenv("GDR_LIBCUDA");
	void *h = dlopen(path && *path ? path : "libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
	proc_fn proc = h ? (proc_fn)dlsym(h, "cuGetProcAddress_v2") : NULL;
	CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	void *fn = NULL;

	if (!proc || proc(name, &fn, ver, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &st) || st)
		fn = NULL;
	if (h)
		dlclose(h);
	return fn;
}

/* Device 0's primary context, current in the calling thread; exit 1 when it cannot be had. */
static inline CUcontext conf_context(const struct gdr_cuda_api *cu)
{
	CUcontext ctx = NULL;
	CUdevice dev;
	CUresult r = cu->cuDeviceGet(&dev, 0);

	if (!r)
		r = cu->cuDevicePrimaryCtxRetain(&ctx, dev);
	if (!r)
		r = cu->cuCtxSetCurrent(ctx);
	if (r) {
		printf("error: no context on device 0: %s\n", conf_name(r));
		exit(1);
	}
	return ctx;
}

#endif
