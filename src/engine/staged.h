/* SPDX-License-Identifier: MIT */
/*
 * The staged path: the NIC touches only pinned host bounce buffers; the
 * test's memory (GPU or host) is copied to/from them with the backend's
 * asynchronous copies, pipelined against the network.
 */
#ifndef GDR_STAGED_H
#define GDR_STAGED_H

#include <stdint.h>
#include "ctx.h"

/* The bounce buffer ends with a control page: [tx][rx][ctrl]. */
#define GDR_CTRL_LEN 4096

struct gdr_ctrl {
	volatile uint64_t credit; /* written by the peer: messages it has copied out */
	uint64_t copied;          /* ours: the source of our credit writes */
};

static inline struct gdr_ctrl *gdr_ctrl(struct gdr_ctx *c)
{
	return (struct gdr_ctrl *)((uint8_t *)c->bounce.addr + 2 * c->region_len);
}

/* Post the staged path's receives (once, after its QPs are connected). */
int gdr_staged_prepost(struct gdr_ctx *c);
/* Copy the test memory's tx slots into the bounce tx region (read targets). */
int gdr_staged_stage_tx(struct gdr_ctx *c, size_t len);
/* Run one size of a staged bandwidth test; fills this side's measurement. */
int gdr_staged_bw(struct gdr_ctx *c, uint64_t size, struct gdr_result_wire *mine);

#endif
