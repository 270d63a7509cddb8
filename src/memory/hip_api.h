/* SPDX-License-Identifier: MIT */
/*
 * The HIP runtime (AMD ROCm), loaded at run time: GDR_LIBHIP, else
 * libamdhip64.so.7, .so.6, .so.5 in that order, every entry point looked up with
 * dlsym. Nothing of ROCm is needed to build: the few types used are spelled here
 * (hipError_t is an int, streams are pointers, hipMemcpyKind 1 and 2), all of
 * them unchanged from ROCm 5 to 7. Structs whose layout changed between ROCm
 * releases (hipDeviceProp_t, hipPointerAttribute_t) are not used.
 *
 * The dma-buf export is the HSA call hsa_amd_portable_export_dmabuf (ROCm >= 5.6),
 * looked up in libhsa-runtime64.so.1 (or GDR_LIBHSA) on first use, apart from
 * the HIP load: a ROCm without it still runs everything but --use_rocm_dmabuf.
 */
#ifndef GDR_HIP_API_H
#define GDR_HIP_API_H

#include <stddef.h>
#include <stdint.h>

#define GDR_HIP_SUCCESS		0
#define GDR_HIP_ERROR_NO_DEVICE 100 /* hipErrorNoDevice */
#define GDR_HIP_ERROR_NOT_READY 600 /* hipErrorNotReady */
#define GDR_HIP_H2D		1   /* hipMemcpyHostToDevice */
#define GDR_HIP_D2H		2   /* hipMemcpyDeviceToHost */
#define GDR_HSA_SUCCESS		0   /* HSA_STATUS_SUCCESS */

typedef int gdr_hip_err; /* hipError_t */
typedef void *gdr_hip_stream;

struct gdr_hip_api {
	int runtime_version; /* hipRuntimeGetVersion, e.g. 50221153 or 60443483 */
	int ndev;	     /* hipGetDeviceCount at load: >= 1 */

	gdr_hip_err (*hipGetDeviceCount)(int *count);
	gdr_hip_err (*hipSetDevice)(int dev);
	gdr_hip_err (*hipDeviceGetName)(char *name, int len, int dev);
	gdr_hip_err (*hipDeviceGetPCIBusId)(char *bus_id, int len, int dev);
	gdr_hip_err (*hipDeviceGetByPCIBusId)(int *dev, const char *bus_id);
	gdr_hip_err (*hipRuntimeGetVersion)(int *version);
	gdr_hip_err (*hipMalloc)(void **p, size_t len);
	gdr_hip_err (*hipFree)(void *p);
	gdr_hip_err (*hipMemcpy)(void *dst, const void *src, size_t len, int kind);
	gdr_hip_err (*hipMemcpyAsync)(void *dst, const void *src, size_t len, int kind,
				      gdr_hip_stream s);
	gdr_hip_err (*hipMemset)(void *p, int value, size_t len);
	gdr_hip_err (*hipStreamCreate)(gdr_hip_stream *s);
	gdr_hip_err (*hipStreamDestroy)(gdr_hip_stream s);
	gdr_hip_err (*hipStreamSynchronize)(gdr_hip_stream s);
	gdr_hip_err (*hipStreamQuery)(gdr_hip_stream s);
	gdr_hip_err (*hipDeviceSynchronize)(void);
	const char *(*hipGetErrorName)(gdr_hip_err e);
	const char *(*hipGetErrorString)(gdr_hip_err e);
	/* optional: NULL when this runtime lacks them */
	gdr_hip_err (*hipHostMalloc)(void **p, size_t len, unsigned flags);
	gdr_hip_err (*hipHostFree)(void *p);
	gdr_hip_err (*hipDeviceCanAccessPeer)(int *can, int dev, int peer);
};

/*
 * Load the HIP runtime once per process and count its devices. 0 with *out, or
 * -1 with one line in why: no libamdhip64 (no ROCm), a symbol missing, or
 * hipGetDeviceCount failing (hipErrorNoDevice: no AMD GPU visible to ROCm).
 */
int gdr_hip_load(const struct gdr_hip_api **out, char *why, size_t n);
/* The runtime's path when a load opened it in this process (it initialises then), else NULL. */
const char *gdr_hip_loaded(void);

/* The HSA dma-buf export and its close, from libhsa-runtime64 (ROCm >= 5.6). */
struct gdr_hsa_dmabuf {
	int (*export_dmabuf)(const void *ptr, size_t size, int *fd, uint64_t *offset);
	int (*close_dmabuf)(int fd);
};

/*
 * Look the export up once per process: 0 with *out, or -1 with one line in why
 * naming the library and what to do instead (amdgpu_peermem: ibv_reg_mr on the
 * device pointer, i.e. without --use_rocm_dmabuf).
 */
int gdr_hsa_dmabuf_load(const struct gdr_hsa_dmabuf **out, char *why, size_t n);

/* "hipErrorNoDevice (100)" or "name (100: its string)" when they differ, or "HIP error N". */
const char *gdr_hip_strerror(gdr_hip_err err);

#endif
