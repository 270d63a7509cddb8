/* SPDX-License-Identifier: MIT */
/*
 * The staged path: the NIC touches only the pinned host bounce ring; the
 * stager copies the test's memory (GPU or host) to/from it in chunks,
 * pipelined against the network (the plan is in stage_plan.h).
 */
#ifndef GDR_STAGED_H
#define GDR_STAGED_H

#include <stdint.h>
#include "ctx.h"
#include "stage_plan.h"

/* The bounce buffer ends with a control page: [tx ring][rx ring][ctrl]. */
#define GDR_CTRL_LEN 4096

struct gdr_ctrl {
	volatile uint64_t credit; /* written by the peer: runs it has copied out */
	uint64_t copied;	  /* ours: the source of our credit writes */
};

static inline struct gdr_ctrl *gdr_ctrl(struct gdr_ctx *c)
{
	return (struct gdr_ctrl *)((uint8_t *)c->bounce.addr + 2 * c->region_len);
}

/* The memory holding the test's data on the current path (staged: behind the ring). */
static inline struct gdr_mem *gdr_test_mem(struct gdr_ctx *c)
{
	return c->p->staged ? &c->data : c->p->mem;
}

/* The staged plan of one size for this run's options. */
void gdr_staged_plan(const struct gdr_ctx *c, uint64_t size, struct gdr_stage_plan *p);
/* Post the staged path's standing receives (once, after its QPs are connected). */
int gdr_staged_prepost(struct gdr_ctx *c);
/* Before the barrier of a size: stage a read target's data, post send receives. */
int gdr_staged_prepare(struct gdr_ctx *c, uint64_t size);
/* Copy the test memory's first len bytes into the bounce tx region (latency read target). */
int gdr_staged_stage_tx(struct gdr_ctx *c, size_t len);
/* send: post the receives of run `run` at its ring positions (on its QP). */
int gdr_staged_post_run_recvs(struct gdr_ctx *c, const struct gdr_stage_plan *p, uint64_t run);
/* Run one size of a staged bandwidth test; fills this side's measurement. */
int gdr_staged_bw(struct gdr_ctx *c, uint64_t size, struct gdr_result_wire *mine);

#endif
