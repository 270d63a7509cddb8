/* SPDX-License-Identifier: MIT */
/* Run-time loading of the HIP runtime and of the HSA dma-buf export (see hip_api.h). */
#include "config.h"
#include "hip_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dlib.h"

struct sym {
	const char *name;
	size_t off;
	int optional;
};

#define S(n)                                                                                       \
	{                                                                                          \
#n, offsetof(struct gdr_hip_api, n), 0                                             \
	}
#define OPT(n)                                                                                     \
	{                                                                                          \
#n, offsetof(struct gdr_hip_api, n), 1                                             \
	}

static const struct sym syms[] = {
    S(hipGetDeviceCount),
    S(hipSetDevice),
    S(hipDeviceGetName),
    S(hipDeviceGetPCIBusId),
    S(hipDeviceGetByPCIBusId),
    S(hipRuntimeGetVersion),
    S(hipMalloc),
    S(hipFree),
    S(hipMemcpy),
    S(hipMemcpyAsync),
    S(hipMemset),
    S(hipStreamCreate),
    S(hipStreamDestroy),
    S(hipStreamSynchronize),
    S(hipStreamQuery),
    S(hipDeviceSynchronize),
    S(hipGetErrorName),
    S(hipGetErrorString),
    OPT(hipHostMalloc),
    OPT(hipHostFree),
    OPT(hipDeviceCanAccessPeer),
};

/* The sonames of ROCm 7, 6 and 5, newest first. */
static const char *const sonames[] = {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5"};

static struct gdr_hip_api api;
static struct gdr_dlib lib = GDR_DLIB_INIT;

/* GDR_LIBHIP when set, else the first soname that opens. */
static void *open_hip(void)
{
	const char *env = getenv("GDR_LIBHIP");
	void *h = NULL;

	if (env && *env)
		return gdr_dlib_open(&lib, "GDR_LIBHIP", env, "no ROCm (HIP runtime) there");
	for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]) && !h; i++) {
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
		lib.path = sonames[i];
	}
	if (!h)
		snprintf(lib.why, sizeof(lib.why),
			 "libamdhip64.so.7, .so.6 and .so.5 not found: no ROCm (HIP runtime) on "
			 "this host; install ROCm or set GDR_LIBHIP");
	return h;
}

static void do_load(void)
{
	int count = 0;
	gdr_hip_err r;
	void *h = open_hip();

	if (!h)
		return;
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *fn = dlsym(h, syms[i].name);

		if (!fn && !syms[i].optional) {
			snprintf(lib.why, sizeof(lib.why), "%s lacks %s: not a HIP runtime",
				 lib.path, syms[i].name);
			return;
		}
		memcpy((char *)&api + syms[i].off, &fn, sizeof(fn));
	}
	if (api.hipRuntimeGetVersion(&api.runtime_version) != GDR_HIP_SUCCESS)
		api.runtime_version = 0;
	lib.rc = 0; /* gdr_hip_strerror may ask the runtime from here on */
	r = api.hipGetDeviceCount(&count);
	if (r != GDR_HIP_SUCCESS || count < 1) {
		snprintf(lib.why, sizeof(lib.why), "%s (HIP %d.%d): hipGetDeviceCount: %s%s",
			 lib.path, api.runtime_version / 10000000,
			 api.runtime_version / 100000 % 100,
			 r == GDR_HIP_SUCCESS ? "0 devices" : gdr_hip_strerror(r),
			 r == GDR_HIP_ERROR_NO_DEVICE || r == GDR_HIP_SUCCESS
			     ? ": no AMD GPU visible to ROCm on this host (check /dev/kfd, "
			       "gdr_doctor, HIP_VISIBLE_DEVICES)"
			     : "");
		lib.rc = -1;
		return;
	}
	api.ndev = count;
}

const char *gdr_hip_loaded(void)
{
	return lib.loaded ? lib.path : NULL;
}

int gdr_hip_load(const struct gdr_hip_api **out, char *why, size_t n)
{
	if (gdr_dlib_once(&lib, do_load, why, n))
		return -1;
	*out = &api;
	return 0;
}

const char *gdr_hip_strerror(gdr_hip_err err)
{
	static __thread char buf[160];
	const char *name = NULL, *str = NULL;

	if (lib.rc == 0) {
		name = api.hipGetErrorName(err);
		str = api.hipGetErrorString(err);
	}
	if (name && str && strcmp(name, str))
		snprintf(buf, sizeof(buf), "%s (%d: %s)", name, (int)err, str);
	else if (name)
		snprintf(buf, sizeof(buf), "%s (%d)", name, (int)err);
	else
		snprintf(buf, sizeof(buf), "HIP error %d", (int)err);
	return buf;
}

static struct gdr_hsa_dmabuf hsa;
static struct gdr_dlib hsa_lib = GDR_DLIB_INIT;

static void do_hsa(void)
{
	void *h = gdr_dlib_open(&hsa_lib, "GDR_LIBHSA", "libhsa-runtime64.so.1",
				"no ROCm HSA runtime; use amdgpu_peermem (drop --use_rocm_dmabuf)");

	if (!h)
		return;
	*(void **)&hsa.export_dmabuf = dlsym(h, "hsa_amd_portable_export_dmabuf");
	*(void **)&hsa.close_dmabuf = dlsym(h, "hsa_amd_portable_close_dmabuf");
	if (!hsa.export_dmabuf || !hsa.close_dmabuf) {
		snprintf(hsa_lib.why, sizeof(hsa_lib.why),
			 "%s lacks hsa_amd_portable_export_dmabuf (ROCm < 5.6): no dma-buf export "
			 "of GPU memory; use amdgpu_peermem (drop --use_rocm_dmabuf) or ROCm >= 5.6",
			 hsa_lib.path);
		return;
	}
	hsa_lib.rc = 0;
}

int gdr_hsa_dmabuf_load(const struct gdr_hsa_dmabuf **out, char *why, size_t n)
{
	if (gdr_dlib_once(&hsa_lib, do_hsa, why, n))
		return -1;
	*out = &hsa;
	return 0;
}
