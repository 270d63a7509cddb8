/* SPDX-License-Identifier: MIT */
/*
 * A verbs fault injector for tests (never installed), loaded with LD_PRELOAD:
 * it wraps ibv_open_device and routes each opened context's post_send (the
 * function ibv_post_send calls through the context) through a counter.
 * Environment:
 *   GDR_VERBS_FAULT=stall_thread:N  threads other than the process's first
 *       post N work-request lists, then their next post never returns (the
 *       thread sleeps until the process ends): a gpu-proxy proxy thread that
 *       stops inside ibv_post_send. The first thread's posts (every other
 *       path's loop) pass untouched.
 * Anything else in GDR_VERBS_FAULT, or none: every post passes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct ibv_context *(*open_fn)(struct ibv_device *);
typedef int (*post_fn)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **);

static post_fn real_post; /* the provider's: every context of one provider shares it */
static long stall_after = -1;
static long others; /* posts from threads other than the first */

static int post(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	if (stall_after >= 0 && gettid() != getpid() &&
	    __atomic_fetch_add(&others, 1, __ATOMIC_RELAXED) >= stall_after) {
		fprintf(stderr, "verbs fault: a post from thread %d stalls for good\n",
			(int)gettid());
		for (;;)
			pause();
	}
	return real_post(qp, wr, bad);
}

EXPORT struct ibv_context *ibv_open_device(struct ibv_device *dev)
{
	open_fn real = (open_fn)(uintptr_t)dlsym(RTLD_NEXT, "ibv_open_device");
	const char *f = getenv("GDR_VERBS_FAULT");
	struct ibv_context *ctx = real ? real(dev) : NULL;

	if (!ctx)
		return NULL;
	if (f && !strncmp(f, "stall_thread:", 13))
		stall_after = atol(f + 13);
	if (ctx->ops.post_send != post) {
		real_post = ctx->ops.post_send;
		ctx->ops.post_send = post;
	}
	return ctx;
}
