/* SPDX-License-Identifier: MIT */
/* The bandwidth loop (bw.c) and its per-size driver (bw_size.c). */
#ifndef GDR_BW_H
#define GDR_BW_H

#include <stdint.h>
#include "bw_state.h"

/*
 * Run the posting/polling loop until both roles are done. 0 or -1 (printed).
 * In duration mode tx_done/rx_done and t_last_* end as they were at the
 * deadline: the drain of the queues after it is not measured.
 */
int gdr_bw_loop(struct gdr_bw_state *s);
/* Post n receives of len bytes at the start of the rx region on QP q. */
int gdr_post_recvs(struct gdr_ctx *c, uint32_t q, int n, size_t len);
/* Messages this side posted on every QP (sent, once its loop is done). */
uint64_t gdr_bw_posted(const struct gdr_bw_state *s);
/* One size of a bandwidth test on the context's path (bw_size.c): 0 or -1 (printed). */
int gdr_bw_size(struct gdr_ctx *c, uint64_t size, struct gdr_result *res);

#endif
