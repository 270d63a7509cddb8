/* SPDX-License-Identifier: MIT */
/* A persistent kernel's module, stream, launch, stop and silence (gpukern.h). */
#include "config.h"
#include "gpukern.h"

#ifdef HAVE_CUDA

#include <stdio.h>
#include <time.h>
#include "clock.h"
#include "log.h"
#include "mem.h"

int gdr_gpukern_fail(char *why, size_t n, const char *what, CUresult r)
{
	snprintf(why, n, "%s: %s", what, gdr_cuda_strerror(r));
	return -1;
}

void gdr_gpukern_nap(void)
{
	struct timespec ts = {0, 20000};

	nanosleep(&ts, NULL);
}

int gdr_gpukern_use(struct gdr_gpukern *k, const struct gdr_gpukern_image *img, struct gdr_mem *m,
		    uint64_t timeout_ns, char *why, size_t n)
{
	const struct gdr_cuda_api *cu;

	*k = (struct gdr_gpukern){.img = img,
				  .wait_ns = timeout_ns ? timeout_ns : GDR_GPUKERN_WAIT_NS};
	if (gdr_mem_cuda_use(m, &k->cu, &k->ctx, why, n))
		return -1;
	cu = k->cu;
	if (!cu->cuModuleLoadData || !cu->cuModuleGetFunction || !cu->cuModuleUnload ||
	    !cu->cuLaunchKernel || !cu->cuMemHostAlloc || !cu->cuMemHostGetDevicePointer ||
	    !cu->cuCtxGetDevice) {
		snprintf(why, n,
			 "the NVIDIA driver lacks module loading, kernel launch or mapped "
			 "host memory (cuModuleLoadData, cuLaunchKernel, cuMemHostAlloc)");
		return -1;
	}
	return 0;
}

int gdr_gpukern_load(const struct gdr_gpukern *k, CUmodule *mod, CUfunction *fn, char *why,
		     size_t n)
{
	const struct gdr_gpukern_image *img = k->img;
	char *ptx = gdr_gpukern_ptx(img, why, n), what[160];
	CUresult r;

	*mod = NULL;
	if (!ptx)
		return -1;
	r = k->cu->cuModuleLoadData(mod, ptx);
	gdr_gpukern_ptx_free(img, ptx);
	if (r != CUDA_SUCCESS) {
		*mod = NULL;
		if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
			snprintf(why, n,
				 "the driver cannot load the kernel's PTX (cuModuleLoadData: %s): "
				 "the kernel is PTX ISA %s for %s, which needs driver %s or newer",
				 gdr_cuda_strerror(r), img->isa, img->target, img->driver);
		else
			snprintf(why, n,
				 "the driver cannot load the kernel's PTX (cuModuleLoadData: %s)",
				 gdr_cuda_strerror(r));
		return -1;
	}
	r = k->cu->cuModuleGetFunction(fn, *mod, img->entry);
	if (r != CUDA_SUCCESS) {
		k->cu->cuModuleUnload(*mod);
		*mod = NULL;
		snprintf(what, sizeof(what), "cuModuleGetFunction(%s)", img->entry);
		return gdr_gpukern_fail(why, n, what, r);
	}
	return 0;
}

int gdr_gpukern_mapped(const struct gdr_gpukern *k, size_t len, const char *what, void **host,
		       CUdeviceptr *dev, char *why, size_t n)
{
	char call[128];
	CUresult r;

	*host = NULL;
	r = k->cu->cuMemHostAlloc(host, len, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
	if (r != CUDA_SUCCESS) {
		*host = NULL;
		snprintf(call, sizeof(call), "%s in mapped host memory (cuMemHostAlloc)", what);
		return gdr_gpukern_fail(why, n, call, r);
	}
	r = k->cu->cuMemHostGetDevicePointer(dev, *host, 0);
	if (r != CUDA_SUCCESS) {
		snprintf(call, sizeof(call), "cuMemHostGetDevicePointer(%s)", what);
		return gdr_gpukern_fail(why, n, call, r);
	}
	return 0;
}

int gdr_gpukern_stream(struct gdr_gpukern *k, char *why, size_t n)
{
	CUresult r = k->cu->cuStreamCreate(&k->stream, CU_STREAM_NON_BLOCKING);

	if (r != CUDA_SUCCESS) {
		k->stream = NULL;
		return gdr_gpukern_fail(why, n, "cuStreamCreate", r);
	}
	return 0;
}

int gdr_gpukern_launch(struct gdr_gpukern *k, CUfunction fn, unsigned int grid,
		       unsigned int threads, void **args, char *why, size_t n)
{
	CUresult r = k->cu->cuLaunchKernel(fn, grid, 1, 1, threads, 1, 1, 0, k->stream, args, NULL);
	char what[128];

	if (r != CUDA_SUCCESS) {
		snprintf(what, sizeof(what), "cuLaunchKernel(%s)", k->img->entry);
		return gdr_gpukern_fail(why, n, what, r);
	}
	k->running = true;
	return 0;
}

int gdr_gpukern_stop(struct gdr_gpukern *k, void (*ask)(void *arg), void *arg, CUresult *how)
{
	uint64_t t0 = gdr_now_ns();
	CUresult r;

	*how = CUDA_SUCCESS;
	if (!k->running)
		return 0;
	if (k->hung)
		return -1;
	if (ask)
		ask(arg);
	while ((r = k->cu->cuStreamQuery(k->stream)) == CUDA_ERROR_NOT_READY &&
	       gdr_now_ns() - t0 < k->wait_ns)
		gdr_gpukern_nap();
	if (r == CUDA_ERROR_NOT_READY) {
		gdr_err("%s: the kernel did not end within %.3f s; its %s stay allocated",
			k->img->who, (double)k->wait_ns * 1e-9, k->img->keeps);
		k->hung = true;
		return -1;
	}
	k->running = false;
	*how = r;
	return 0;
}

void gdr_gpukern_state(const struct gdr_gpukern *k, char *out, size_t n)
{
	CUresult r = k->cu->cuStreamQuery(k->stream);

	if (r == CUDA_ERROR_NOT_READY)
		snprintf(out, n, "the kernel runs but %s", k->img->mute);
	else if (r == CUDA_SUCCESS)
		snprintf(out, n, "the kernel is no longer running");
	else
		snprintf(out, n, "the kernel failed: %s", gdr_cuda_strerror(r));
}

#endif /* HAVE_CUDA */
