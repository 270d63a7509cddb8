/* SPDX-License-Identifier: MIT */
/*
 * Conformance: a context is current per thread. A context made current on one
 * thread is not current on another, where calls that need one fail with
 * CUDA_ERROR_INVALID_CONTEXT until that thread makes it current too; the first
 * thread keeps it meanwhile. gdrperf's threads that touch GPU memory (the
 * engine's, the staged path's, the sm copier's, gpu-proxy's) each make the
 * memory's context current first (gdr_mem_cuda_use).
 */
#include "config.h"
#include <pthread.h>
#include "conf.h"

static const struct gdr_cuda_api *cu;
static CUcontext ctx;
static CUresult (*get_current)(CUcontext *);

struct seen {
	CUresult alloc_before, current_before, alloc_after;
	int none_before; /* cuCtxGetCurrent gave no context */
};

static CUresult alloc_free(void)
{
	CUdeviceptr p = 0;
	CUresult r = cu->cuMemAlloc(&p, 1 << 20);

	if (!r)
		cu->cuMemFree(p);
	return r;
}

static void *other(void *arg)
{
	struct seen *s = arg;
	CUcontext c = (CUcontext)1;

	s->current_before = get_current ? get_current(&c) : CUDA_ERROR_NOT_FOUND;
	s->none_before = c == NULL;
	s->alloc_before = alloc_free();
	s->alloc_after = cu->cuCtxSetCurrent(ctx);
	if (!s->alloc_after)
		s->alloc_after = alloc_free();
	return NULL;
}

int main(void)
{
	struct seen s = {0};
	pthread_t t;
	CUresult mine;

	cu = conf_load("c_ctx_thread");
	get_current = (CUresult(*)(CUcontext *))conf_sym("cuCtxGetCurrent", 4000);
	ctx = conf_context(cu);
	if (pthread_create(&t, NULL, other, &s) || pthread_join(t, NULL))
		return 1;
	mine = alloc_free();
	printf("RULE ctx_per_thread other_thread_current=%s other_thread_alloc=%s "
	       "after_set_current=%s first_thread_alloc=%s\n",
	       s.current_before ? conf_name(s.current_before)
	       : s.none_before	? "none"
				: "a-context",
	       conf_name(s.alloc_before), conf_name(s.alloc_after), conf_name(mine));
	return 0;
}
