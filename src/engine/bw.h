/* SPDX-License-Identifier: MIT */
/* The bandwidth loop (bw.c) and its per-size driver (bw_size.c). */
#ifndef GDR_BW_H
#define GDR_BW_H

#include <stdint.h>
#include "bw_state.h"

struct gdr_staging;
struct gdr_result_wire;

/*
 * Run the posting/polling loop until both roles are done. 0 or -1 (printed).
 * In duration mode tx_done/rx_done and t_last_* end as they were at the
 * deadline: the drain of the queues after it is not measured.
 */
int gdr_bw_loop(struct gdr_bw_state *s);
/*
 * The gpu-proxy path's loop on the requester (bw_proxy.c): the kernel of
 * src/gproxy produces the messages, its proxy thread posts them. 0 or -1
 * (printed).
 */
int gdr_bw_proxy(struct gdr_bw_state *s);
/* Reap send completions; *msgs: the messages they cover. The count of WCs, or -1 (printed). */
int gdr_bw_poll_send(struct gdr_bw_state *s, uint64_t *msgs);
/* Messages this side posted on every QP (sent, once its loop is done). */
uint64_t gdr_bw_posted(const struct gdr_bw_state *s);
/*
 * This side's measurement of a size from the loop's state (bw_size.c): its messages and the
 * time from its first post (a requester) or the go (a target) to its last completion; no
 * message timed (a time unset) gives 0 s and no rate, never an unsigned difference.
 */
void gdr_bw_measure(const struct gdr_bw_state *s, struct gdr_result_wire *w);
/*
 * One size of a bandwidth test on path p (bw_size.c): 0 or -1 (printed).
 * stg: the size's staging state (gdr_staging_begin), NULL when no path of
 * the run is staged. A stop request ends it with -1, noted in *stop.
 */
int gdr_bw_size(struct gdr_conn *c, struct gdr_path *p, uint64_t size, struct gdr_staging *stg,
		struct gdr_stop_at *stop, struct gdr_result *res);

/* What bw_size.c shares with the KV cell (bw_kv_size.c): the state of a size, the barrier
 * before its loop, both sides' figures combined. */
struct gdr_conn;
struct gdr_path;
struct gdr_result;
void gdr_bw_init_state(struct gdr_conn *c, struct gdr_path *p, struct gdr_bw_state *s,
		       uint64_t size, const struct gdr_staging *stg);
int gdr_bw_barrier(struct gdr_conn *c, uint64_t size);
void gdr_bw_combine(const struct gdr_conn *c, const struct gdr_result_wire *cl,
		    const struct gdr_result_wire *sv, struct gdr_result *r);

#endif
