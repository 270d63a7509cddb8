/* SPDX-License-Identifier: MIT */
/* Run-time loading of the CUDA driver API (see cuda_api.h). */
#include "config.h"
#include "cuda_api.h"

#ifdef HAVE_CUDA

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "dlib.h"

#if CUDA_VERSION >= 13000
_Static_assert(GDR_DMABUF_MAPPING_PCIE == CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE,
	       "cuda.h's PCIe mapping flag differs");
#endif

/* cuGetProcAddress as exported by CUDA 12.0+ drivers (five arguments). */
typedef CUresult (*proc_v2_fn)(const char *sym, void **pfn, int ver, cuuint64_t flags, int *status);
/* The CUDA 11 form (four arguments), exported as plain "cuGetProcAddress". */
typedef CUresult (*proc_v1_fn)(const char *sym, void **pfn, int ver, cuuint64_t flags);
typedef CUresult (*version_fn)(int *version);

#define GDR_PROC_LEGACY_STREAM 1ULL /* CU_GET_PROC_ADDRESS_LEGACY_STREAM */

/*
 * Each entry: the plain name, where the pointer lives, and the CUDA version
 * whose ABI the member's type matches (the driver picks the newest variant
 * not newer than that).
 */
struct sym {
	const char *name;
	size_t off;
	int ver;
	int optional;
};

#define S(n, v)                                                                                    \
	{                                                                                          \
#n, offsetof(struct gdr_cuda_api, n), v, 0                                         \
	}
#define OPT(n, v)                                                                                  \
	{                                                                                          \
#n, offsetof(struct gdr_cuda_api, n), v, 1                                         \
	}

static const struct sym syms[] = {
    S(cuInit, 2000),
    S(cuDriverGetVersion, 2020),
    S(cuDeviceGetCount, 2000),
    S(cuDeviceGet, 2000),
    S(cuDeviceGetName, 2000),
    S(cuDeviceGetAttribute, 2000),
    S(cuDeviceGetPCIBusId, 4010),
    S(cuDeviceGetByPCIBusId, 4010),
    S(cuDevicePrimaryCtxRetain, 7000),
    S(cuDevicePrimaryCtxRelease, 11000),
    S(cuCtxSetCurrent, 4000),
    S(cuMemAlloc, 3020),
    S(cuMemFree, 3020),
    S(cuMemAllocHost, 3020),
    S(cuMemFreeHost, 2000),
    S(cuMemHostRegister, 6050),
    S(cuMemHostUnregister, 4000),
    S(cuMemcpyHtoD, 3020),
    S(cuMemcpyDtoH, 3020),
    S(cuMemcpyHtoDAsync, 3020),
    S(cuMemcpyDtoHAsync, 3020),
    S(cuMemsetD8, 3020),
    S(cuStreamCreate, 2000),
    S(cuStreamDestroy, 4000),
    S(cuStreamSynchronize, 2000),
    S(cuStreamQuery, 2000),
    S(cuEventCreate, 2000),
    S(cuEventRecord, 2000),
    S(cuEventSynchronize, 2000),
    /* v1 and v2 (12.8) share a signature; CUDA 13 keeps only v2 in its header. */
    S(cuEventElapsedTime, 12080),
    S(cuEventDestroy, 4000),
    OPT(cuMemGetHandleForAddressRange, 11070),
    OPT(cuFlushGPUDirectRDMAWrites, 11030),
    OPT(cuDeviceCanAccessPeer, 4000),
    OPT(cuDeviceGetP2PAttribute, 8000),
    S(cuPointerSetAttribute, 6000),
    S(cuGetErrorString, 6000),
    S(cuGetErrorName, 6000),
    OPT(cuCtxGetDevice, 2000),
    OPT(cuModuleLoadData, 2000),
    OPT(cuModuleGetFunction, 2000),
    OPT(cuModuleUnload, 2000),
    OPT(cuLaunchKernel, 4000),
    OPT(cuMemHostAlloc, 2020),
    OPT(cuMemHostGetDevicePointer, 3020),
};

static struct gdr_cuda_api api;
static struct gdr_dlib lib = GDR_DLIB_INIT;

static void *resolve(void *h, proc_v2_fn p2, proc_v1_fn p1, const char *name, int ver)
{
	void *fn = NULL;
	int status = 0;
	CUresult r;

	if (p2)
		r = p2(name, &fn, ver, GDR_PROC_LEGACY_STREAM, &status);
	else
		r = p1(name, &fn, ver, GDR_PROC_LEGACY_STREAM);
	if (r != CUDA_SUCCESS || status != 0)
		return NULL;
	return fn;
}

/*
 * cuMemcpyBatchAsync changed its signature: CUDA 12.8 has failIdx, CUDA 13
 * (_v2) has not. Ask for the driver's own form by the version whose ABI each
 * member has, never a form the member's type does not match.
 */
static void load_batch(void *h, proc_v2_fn p2, proc_v1_fn p1, int drv)
{
#if CUDA_VERSION >= 12080
	void *fn = NULL;

	if (drv >= 13000) {
		fn = resolve(h, p2, p1, "cuMemcpyBatchAsync", 13000);
		memcpy(&api.cuMemcpyBatchAsync, &fn, sizeof(fn));
	} else if (drv >= 12080) {
		fn = resolve(h, p2, p1, "cuMemcpyBatchAsync", 12080);
		memcpy(&api.cuMemcpyBatchAsync_12080, &fn, sizeof(fn));
	}
#else
	(void)h, (void)p2, (void)p1, (void)drv;
#endif
}

int gdr_cuda_batch_ok(const struct gdr_cuda_api *cu, char *why, size_t n)
{
#if CUDA_VERSION >= 12080
	if (cu->cuMemcpyBatchAsync || cu->cuMemcpyBatchAsync_12080)
		return 0;
	snprintf(why, n,
		 "the NVIDIA driver (CUDA %d.%d) has no cuMemcpyBatchAsync (needs CUDA 12.8)",
		 cu->driver_version / 1000, cu->driver_version % 1000 / 10);
#else
	snprintf(why, n,
		 "built with CUDA %d.%d headers, before cuMemcpyBatchAsync (CUDA 12.8); driver "
		 "CUDA %d.%d",
		 CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10, cu->driver_version / 1000,
		 cu->driver_version % 1000 / 10);
#endif
	return -1;
}

#if CUDA_VERSION >= 12080
CUresult gdr_cuda_memcpy_batch(const struct gdr_cuda_api *cu, CUdeviceptr *dsts, CUdeviceptr *srcs,
			       size_t *sizes, size_t count, CUmemcpyAttributes *attrs,
			       size_t *attrs_idx, size_t nattrs, size_t *fail_idx, CUstream s)
{
	*fail_idx = SIZE_MAX;
	if (cu->cuMemcpyBatchAsync)
		return cu->cuMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrs_idx, nattrs,
					      s);
	if (cu->cuMemcpyBatchAsync_12080)
		return cu->cuMemcpyBatchAsync_12080(dsts, srcs, sizes, count, attrs, attrs_idx,
						    nattrs, fail_idx, s);
	return CUDA_ERROR_NOT_SUPPORTED;
}
#endif

static void do_load(void)
{
	proc_v2_fn p2;
	proc_v1_fn p1 = NULL;
	version_fn getver;
	int drv = 0;
	CUresult r;
	size_t i;
	void *h;

	h = gdr_dlib_open(&lib, "GDR_LIBCUDA", "libcuda.so.1", "no NVIDIA driver on this host");
	if (!h)
		return;
	p2 = (proc_v2_fn)dlsym(h, "cuGetProcAddress_v2");
	if (!p2)
		p1 = (proc_v1_fn)dlsym(h, "cuGetProcAddress");
	getver = (version_fn)dlsym(h, "cuDriverGetVersion");
	if ((!p2 && !p1) || !getver || getver(&drv) != CUDA_SUCCESS) {
		snprintf(
		    lib.why, sizeof(lib.why),
		    "%s has no cuGetProcAddress: NVIDIA driver too old (need CUDA 11.3 or newer)",
		    lib.path);
		return;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		int ver = syms[i].ver < drv ? syms[i].ver : drv;
		void *fn = resolve(h, p2, p1, syms[i].name, ver);

		if (!fn && !syms[i].optional) {
			snprintf(lib.why, sizeof(lib.why),
				 "%s lacks %s (driver CUDA %d.%d): update the NVIDIA driver",
				 lib.path, syms[i].name, drv / 1000, drv % 1000 / 10);
			return;
		}
		memcpy((char *)&api + syms[i].off, &fn, sizeof(fn));
	}
	load_batch(h, p2, p1, drv);
	api.driver_version = drv;
	r = api.cuInit(0);
	if (r != CUDA_SUCCESS) {
		const char *name = NULL;

		api.cuGetErrorName(r, &name);
		snprintf(lib.why, sizeof(lib.why), "cuInit failed: %s%s",
			 name ? name : "unknown error",
			 r == CUDA_ERROR_NO_DEVICE ? " (no usable GPU on this host)" : "");
		return;
	}
	/* The library stays loaded for the life of the process. */
	lib.rc = 0;
}

const char *gdr_cuda_loaded(void)
{
	return lib.loaded ? lib.path : NULL;
}

int gdr_cuda_load(const struct gdr_cuda_api **out, char *why, size_t n)
{
	if (gdr_dlib_once(&lib, do_load, why, n))
		return -1;
	*out = &api;
	return 0;
}

const char *gdr_cuda_strerror(CUresult err)
{
	static __thread char buf[160];
	const char *name = NULL, *str = NULL;

	if (lib.rc == 0) {
		api.cuGetErrorName(err, &name);
		api.cuGetErrorString(err, &str);
	}
	if (name && str)
		snprintf(buf, sizeof(buf), "%s (%s)", name, str);
	else
		snprintf(buf, sizeof(buf), "CUDA error %d", (int)err);
	return buf;
}

#endif /* HAVE_CUDA */
