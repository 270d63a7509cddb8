/* SPDX-License-Identifier: MIT */
/*
 * The host side of a persistent GPU kernel, written once: its PTX image (the
 * embedded one, or a file an environment variable names), its module, the
 * check for the driver entry points it needs, its stream, launch, stop
 * (bounded) and why a silent kernel is silent. The gpu-proxy path
 * (gproxy/gproxy.c) and the sm copier (staging/copier_sm.c) differ only in
 * their kernel (struct gdr_gpukern_image) and their queue layout in mapped
 * host memory, which each writes and reads itself.
 */
#ifndef GDR_GPUKERN_H
#define GDR_GPUKERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GDR_GPUKERN_WAIT_NS 5000000000ULL /* every bounded wait, when the caller gives none */

/* One kernel: what its host side needs to know of it. */
struct gdr_gpukern_image {
	const char *who;   /* its users' prefix in messages: "gpu-proxy", "sm copier" */
	const char *entry; /* the extern "C" entry point */
	const char *ptx;   /* the embedded PTX */
	const char *env;   /* names a PTX file loaded instead (kernel development) */
	/* the committed PTX's ISA and target, and the oldest driver that loads it */
	const char *isa, *target, *driver;
	const char *mute;  /* what a running kernel that stays silent does not do */
	const char *keeps; /* what a kernel that does not end keeps allocated */
};

/*
 * The image's PTX: the embedded one, or the whole file img->env names when
 * it is set and not empty (any file, pipes too). NULL, with why, when that
 * file cannot be read or is empty. Free it with gdr_gpukern_ptx_free.
 */
char *gdr_gpukern_ptx(const struct gdr_gpukern_image *img, char *why, size_t n);
void gdr_gpukern_ptx_free(const struct gdr_gpukern_image *img, char *ptx);

#ifdef HAVE_CUDA
#include "cuda_api.h"

struct gdr_mem;

/* One running (or stopped) instance of a kernel, in its GPU's context. */
struct gdr_gpukern {
	const struct gdr_gpukern_image *img;
	const struct gdr_cuda_api *cu;
	CUcontext ctx;
	CUstream stream;
	uint64_t wait_ns;
	bool running; /* launched, not yet seen to end */
	bool hung;    /* did not end when told: said once, never waited on again */
};

/* snprintf "what: the CUDA error" into why; -1. */
int gdr_gpukern_fail(char *why, size_t n, const char *what, CUresult r);
/* A short sleep between the polls of a bounded wait (20 us). */
void gdr_gpukern_nap(void);
/*
 * Take GPU memory m's context for the kernel img, every wait bounded by
 * timeout_ns (0: GDR_GPUKERN_WAIT_NS), and check the driver has module
 * loading, kernel launch and mapped host memory. 0, or -1 with why.
 */
int gdr_gpukern_use(struct gdr_gpukern *k, const struct gdr_gpukern_image *img, struct gdr_mem *m,
		    uint64_t timeout_ns, char *why, size_t n);
/*
 * Load the kernel's PTX (gdr_gpukern_ptx) into the current context and find
 * its entry point. 0, or -1 with why (nothing left loaded).
 */
int gdr_gpukern_load(const struct gdr_gpukern *k, CUmodule *mod, CUfunction *fn, char *why,
		     size_t n);
/*
 * len bytes of mapped pinned host memory (*host) and the GPU's address of
 * them (*dev); `what` names them in why. 0, or -1 with why (*host, when set,
 * is the caller's to free).
 */
int gdr_gpukern_mapped(const struct gdr_gpukern *k, size_t len, const char *what, void **host,
		       CUdeviceptr *dev, char *why, size_t n);
/* The kernel's own non-blocking stream. 0, or -1 with why. */
int gdr_gpukern_stream(struct gdr_gpukern *k, char *why, size_t n);
/* Launch fn on grid blocks of threads threads with args. 0 (running), or -1 with why. */
int gdr_gpukern_launch(struct gdr_gpukern *k, CUfunction fn, unsigned int grid,
		       unsigned int threads, void **args, char *why, size_t n);
/*
 * Stop: ask(arg) writes the kernel's stop into its queues (NULL: the kernel
 * is ending by itself), then wait (bounded) for it to end. 0 when it ended
 * (*how: the stream's result, a kernel that failed included) or was not
 * running (*how CUDA_SUCCESS); -1 when it did not end in time (printed
 * once: it is never waited on again, and its memory must stay).
 */
int gdr_gpukern_stop(struct gdr_gpukern *k, void (*ask)(void *arg), void *arg, CUresult *how);
/* Why the kernel does not answer: it failed, it ended, or it runs but stays silent. */
void gdr_gpukern_state(const struct gdr_gpukern *k, char *out, size_t n);
#endif /* HAVE_CUDA */

#endif
