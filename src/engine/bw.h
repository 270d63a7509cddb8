/* SPDX-License-Identifier: MIT */
/* Bandwidth engine state (bw.c) and its per-size driver (bw_size.c). */
#ifndef GDR_BW_H
#define GDR_BW_H

#include <stdbool.h>
#include <stdint.h>
#include "ctx.h"
#include "progress.h"

#define GDR_IMM_DATA 0x6764u /* immediate of an ordinary message */
#define GDR_IMM_LAST 0x4c41u /* immediate of a QP's last message of a size */

/*
 * BW peak: the highest rate over windows of at least `min` messages and
 * 10 ms (shorter bursts of completions say more about polling than about
 * the link); the average covers the whole run. A run shorter than one
 * window has peak = average.
 */
struct gdr_peak {
	uint64_t size, min;
	uint64_t win_ns, win_msgs;
	double Bps;
};

static inline void gdr_peak_start(struct gdr_peak *p, uint64_t size, uint64_t min, uint64_t now)
{
	*p = (struct gdr_peak){ .size = size, .min = min ? min : 1, .win_ns = now };
}

static inline void gdr_peak_update(struct gdr_peak *p, uint64_t now, uint64_t done)
{
	uint64_t dn = done - p->win_msgs, dt = now - p->win_ns;

	if (dn >= p->min && dt >= 10000000) {
		double r = (double)dn * (double)p->size / ((double)dt * 1e-9);

		if (r > p->Bps)
			p->Bps = r;
		p->win_msgs = done;
		p->win_ns = now;
	}
}

struct gdr_bw_qp {
	uint64_t posted, completed;
	uint32_t unsignaled;
	bool final_pending;
};

struct gdr_bw_state {
	struct gdr_ctx *c;
	enum gdr_verb verb;
	uint64_t size;
	size_t nslots;
	uint64_t per_qp; /* messages per QP (UINT64_MAX in duration mode) */
	uint32_t depth, cq_mod;
	bool tx_active, rx_active;
	bool write_imm;  /* writes carry an immediate (receiver is active) */
	/* addresses */
	uint8_t *tx_base, *rx_base;
	uint64_t remote_tx, remote_rx;
	uint32_t lkey, rkey;
	size_t recv_len;
	/* progress */
	struct gdr_bw_qp qp[GDR_MAX_QPS];
	bool started, stop;
	uint64_t tx_done, rx_done, rx_lasts;
	uint64_t t_start, t_go, t_last_tx, t_last_rx, progress_ns;
	struct gdr_peak peak;
	struct gdr_progress prog;
};

/* Run the posting/polling loop until both roles are done. 0 or -1 (printed). */
int gdr_bw_loop(struct gdr_bw_state *s);
/* Post n receives of len bytes at the start of the rx region on QP q. */
int gdr_post_recvs(struct gdr_ctx *c, uint32_t q, int n, size_t len);
/* One size of a bandwidth test on the context's path (bw_size.c): 0 or -1 (printed). */
int gdr_bw_size(struct gdr_ctx *c, uint64_t size, struct gdr_result *res);

#endif
