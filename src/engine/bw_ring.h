/* SPDX-License-Identifier: MIT */
/* Each QP's ring of work requests for one size of a bandwidth test (bw_ring.c). */
#ifndef GDR_BW_RING_H
#define GDR_BW_RING_H

#include <stdint.h>
#include "bw_state.h"

/* Build each QP's ring for this size (after the state is set), free it. */
int gdr_bw_ring_build(struct gdr_bw_state *s);
void gdr_bw_ring_free(struct gdr_bw_state *s);
/*
 * Post as many WRs on QP q as depth, --post_list and the plan allow, in one
 * post call: how many (0: none now), or -1.
 */
int gdr_bw_post(struct gdr_bw_state *s, uint32_t q);

#endif
