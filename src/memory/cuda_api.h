/* SPDX-License-Identifier: MIT */
/*
 * The CUDA driver API, loaded at run time: libcuda.so.1 is dlopen'ed and
 * every entry point is resolved through the driver's cuGetProcAddress with
 * the CUDA version whose ABI the pointer's type matches. The binaries thus
 * build against CUDA 12 or 13 headers and start on hosts without a driver.
 *
 * Members carry the plain driver names (no _v2 suffix): call them as
 * api->cuMemAlloc(&p, len). This header undefines cuda.h's renaming macros
 * for these names so the members keep those names.
 */
#ifndef GDR_CUDA_API_H
#define GDR_CUDA_API_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifdef HAVE_CUDA

#include <stddef.h>
#include <stdint.h>
#include <cuda.h>

#undef cuDevicePrimaryCtxRelease
#undef cuMemAlloc
#undef cuMemFree
#undef cuMemAllocHost
#undef cuMemHostRegister
#undef cuMemcpyHtoD
#undef cuMemcpyDtoH
#undef cuMemcpyHtoDAsync
#undef cuMemcpyDtoHAsync
#undef cuMemsetD8
#undef cuStreamDestroy
#undef cuStreamSynchronize
#undef cuStreamQuery
#undef cuEventRecord
#undef cuEventElapsedTime
#undef cuEventDestroy
#undef cuMemHostGetDevicePointer
#undef cuLaunchKernel
#undef cuMemcpyBatchAsync

/*
 * cuMemGetHandleForAddressRange flag CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE
 * (an enum of newer cuda.h, 13.0 has it): the dma-buf is mapped through PCIe
 * BAR1. Spelled here so older headers build; cuda_api.c checks the value.
 */
#define GDR_DMABUF_MAPPING_PCIE 0x1ULL

struct gdr_cuda_api {
	int driver_version; /* cuDriverGetVersion, e.g. 13000 */

	CUresult (*cuInit)(unsigned int flags);
	CUresult (*cuDriverGetVersion)(int *version);
	CUresult (*cuDeviceGetCount)(int *count);
	CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
	CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
	CUresult (*cuDeviceGetAttribute)(int *value, CUdevice_attribute attr, CUdevice dev);
	CUresult (*cuDeviceGetPCIBusId)(char *bus_id, int len, CUdevice dev);
	CUresult (*cuDeviceGetByPCIBusId)(CUdevice *dev, const char *bus_id);
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
	CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
	CUresult (*cuCtxSetCurrent)(CUcontext ctx);
	CUresult (*cuCtxGetDevice)(CUdevice *dev); /* NULL if absent (the sm copier says so) */

	CUresult (*cuMemAlloc)(CUdeviceptr *dptr, size_t len);
	CUresult (*cuMemFree)(CUdeviceptr dptr);
	CUresult (*cuMemAllocHost)(void **p, size_t len);
	CUresult (*cuMemFreeHost)(void *p);
	CUresult (*cuMemHostRegister)(void *p, size_t len, unsigned int flags);
	CUresult (*cuMemHostUnregister)(void *p);
	CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t len);
	CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t len);
	CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t len, CUstream s);
	CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t len, CUstream s);
	CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char v, size_t len);

	CUresult (*cuStreamCreate)(CUstream *s, unsigned int flags);
	CUresult (*cuStreamDestroy)(CUstream s);
	CUresult (*cuStreamSynchronize)(CUstream s);
	CUresult (*cuStreamQuery)(CUstream s);
	CUresult (*cuEventCreate)(CUevent *e, unsigned int flags);
	CUresult (*cuEventRecord)(CUevent e, CUstream s);
	CUresult (*cuEventSynchronize)(CUevent e);
	CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
	CUresult (*cuEventDestroy)(CUevent e);

	/* NULL when the driver predates CUDA 11.7 (no dma-buf export). */
	CUresult (*cuMemGetHandleForAddressRange)(void *handle, CUdeviceptr dptr, size_t len,
						  CUmemRangeHandleType type,
						  unsigned long long flags);
	/* NULL when the driver predates CUDA 11.3. */
	CUresult (*cuFlushGPUDirectRDMAWrites)(CUflushGPUDirectRDMAWritesTarget target,
					       CUflushGPUDirectRDMAWritesScope scope);
	/* Peer access between GPUs (gdr_doctor's GPU-GPU links); NULL if absent. */
	CUresult (*cuDeviceCanAccessPeer)(int *can, CUdevice dev, CUdevice peer);
	CUresult (*cuDeviceGetP2PAttribute)(int *value, CUdevice_P2PAttribute attr, CUdevice src,
					    CUdevice dst);
	CUresult (*cuPointerSetAttribute)(const void *value, CUpointer_attribute attr,
					  CUdeviceptr ptr);
	CUresult (*cuGetErrorString)(CUresult err, const char **str);

	/*
	 * The sm copier (src/staging/copier_sm.c): a kernel from PTX and mapped
	 * pinned memory. Each is NULL when the driver lacks it; the copier says so.
	 */
	CUresult (*cuModuleLoadData)(CUmodule *mod, const void *image);
	CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name);
	CUresult (*cuModuleUnload)(CUmodule mod);
	CUresult (*cuLaunchKernel)(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
				   unsigned int bx, unsigned int by, unsigned int bz,
				   unsigned int shared, CUstream s, void **params, void **extra);
	CUresult (*cuMemHostAlloc)(void **p, size_t len, unsigned int flags);
	CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *dptr, void *p, unsigned int flags);
	CUresult (*cuGetErrorName)(CUresult err, const char **str);

#if CUDA_VERSION >= 12080
	/*
	 * The batch copier (src/staging/copier_batch.c): the driver's batched
	 * copy in the form it offers, at most one set: the CUDA 13 form
	 * (_v2, no failIdx) from a 13.0+ driver, else the CUDA 12.8 form
	 * (failIdx: the failing copy, SIZE_MAX when none) from a 12.8+ driver.
	 * Both NULL: the driver predates 12.8 (gdr_cuda_memcpy_batch says so).
	 */
	CUresult (*cuMemcpyBatchAsync)(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes,
				       size_t count, CUmemcpyAttributes *attrs, size_t *attrs_idx,
				       size_t nattrs, CUstream s);
	CUresult (*cuMemcpyBatchAsync_12080)(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes,
					     size_t count, CUmemcpyAttributes *attrs,
					     size_t *attrs_idx, size_t nattrs, size_t *fail_idx,
					     CUstream s);
#endif
};

/*
 * Load the driver once (thread-safe, result cached) and call cuInit(0).
 * Returns 0 and *api; or -1 with a plain reason in why (no trailing period),
 * e.g. "libcuda.so.1 not found: no NVIDIA driver on this host" or
 * "cuInit failed: CUDA_ERROR_NO_DEVICE".
 */
int gdr_cuda_load(const struct gdr_cuda_api **api, char *why, size_t n);
/* The driver's path when a load opened it in this process (cuInit asked of it), else NULL. */
const char *gdr_cuda_loaded(void);

/* "CUDA_ERROR_OUT_OF_MEMORY (out of memory)"; works before/without a load. */
const char *gdr_cuda_strerror(CUresult err);

/*
 * Whether api's driver offers cuMemcpyBatchAsync (either form): 0, or -1 with
 * one line in why naming the driver's version (or the headers built against).
 */
int gdr_cuda_batch_ok(const struct gdr_cuda_api *api, char *why, size_t n);
#if CUDA_VERSION >= 12080
/*
 * cuMemcpyBatchAsync through the form the driver offers (gdr_cuda_batch_ok
 * first); *fail_idx: the 12.8 form's failing copy, SIZE_MAX otherwise.
 */
CUresult gdr_cuda_memcpy_batch(const struct gdr_cuda_api *api, CUdeviceptr *dsts, CUdeviceptr *srcs,
			       size_t *sizes, size_t count, CUmemcpyAttributes *attrs,
			       size_t *attrs_idx, size_t nattrs, size_t *fail_idx, CUstream s);
#endif

struct gdr_mem;
/*
 * CUDA backend extra: the dma-buf fd of m's whole allocation (exported once,
 * owned by m, closed by its free). Returns the fd, or -1 with the reason in why.
 */
int gdr_mem_cuda_export_dmabuf(struct gdr_mem *m, char *why, size_t n);
/*
 * CUDA backend extra: make m's context current in the calling thread; *api
 * and *ctx for a caller that launches work into it (the sm copier). 0, or -1
 * with the reason in why (m is not GPU memory, or the context is lost).
 */
int gdr_mem_cuda_use(struct gdr_mem *m, const struct gdr_cuda_api **api, CUcontext *ctx,
		     char *why, size_t n);

/*
 * CUDA backend extra: ONE cuMemcpyBatchAsync on stream s (as copy_async's) of
 * the n blocks of blk bytes between m at off[0..n) and [host, host + n x blk),
 * block k at host + k x blk; every block's source read in stream order. 0, or
 * -1 (printed: the range, the driver's error and the failing block when told).
 */
int gdr_mem_cuda_copy_list(struct gdr_mem *m, int dir, const uint64_t *off, uint32_t n, size_t blk,
			   void *host, int s);
/* CUDA backend extra: gdr_cuda_batch_ok for m's driver, or -1 when m is not CUDA memory. */
int gdr_mem_cuda_batch_ok(struct gdr_mem *m, char *why, size_t n);

#endif /* HAVE_CUDA */
#endif
