/* SPDX-License-Identifier: MIT */
/*
 * The bandwidth engine's state, shared by the loop (bw.c, bw.h) and the work
 * request rings (bw_ring.c, bw_ring.h); neither file's functions are declared here.
 */
#ifndef GDR_BW_STATE_H
#define GDR_BW_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include "conn.h"
#include "pace.h"
#include "peak.h"
#include "progress.h"
#include "results.h"
#include "stop.h"

#define GDR_IMM_DATA 0x6764u /* immediate of an ordinary message */
#define GDR_IMM_LAST 0x4c41u /* immediate of a QP's last message of a size */

/* The ctx of a signalled post (its completion's): the messages it covers, and the QP. */
#define GDR_BW_QP_BITS 8
static inline uint64_t gdr_bw_wr_id(uint32_t qp, uint64_t covered)
{
	return covered << GDR_BW_QP_BITS | qp;
}

/*
 * Per QP: its endpoint's ring of operations, prepared once per size
 * (gdr_bw_ring_build); a post names ring entries and which are signalled.
 */
struct gdr_bw_qp {
	uint64_t posted, completed;
	uint32_t unsignaled;
	uint32_t head; /* next ring entry to post */
	bool final_pending;
};

struct gdr_bw_kv;

struct gdr_bw_state {
	struct gdr_conn *c;
	struct gdr_bw_kv *kv;  /* a KV-cache-shaped row's ring and batch times (bw_kv.h); NULL */
	double gp_kernel_rate; /* gpu-proxy: the kernel's own descriptor rate (gdr_bw_proxy) */
	struct gdr_path *p;	     /* the path measured */
	struct gdr_stop_at *stop_at; /* where a stop request ended the loop */
	enum gdr_verb verb;
	uint64_t size;
	size_t nslots;
	uint64_t per_qp; /* messages per QP (UINT64_MAX in duration mode) */
	uint32_t depth, cq_mod;
	uint32_t sig_every; /* signal one WR in this many (cq_mod, finer in duration mode) */
	uint32_t post_list; /* at most this many operations per post call */
	uint32_t ring;	    /* ring entries per QP */
	uint64_t *sig;	    /* a post's signals (post_list of them): 0, or the entry's ctx */
	bool tx_active, rx_active;
	/* byte offsets of this side's tx and rx regions in its registered memory, the peer's */
	uint64_t tx_off, rx_off;
	uint64_t rtx_off, rrx_off;
	size_t recv_len;
	/* progress */
	struct gdr_bw_qp qp[GDR_MAX_QPS];
	bool started, stop;
	uint64_t tx_done, rx_done, rx_lasts;
	uint64_t posted_all;   /* operations posted on every QP, for the pacer */
	struct gdr_pace pace;  /* --rate_limit (off: posts as fast as the queues allow) */
	uint64_t t_start, t_go, t_last_tx, t_last_rx, progress_ns;
	uint64_t hb_after_ns; /* heartbeats only in loops running longer than this */
	/* measured part of a duration run: up to the deadline, not the drain after it */
	uint64_t stop_tx_done, stop_rx_done, stop_t_tx, stop_t_rx;
	struct gdr_peak peak;
	struct gdr_progress prog;
	/*
	 * -c UD/UC send: a dropped message never completes, so the receiver ends
	 * on the sender's count (SYNC SENT, out of band) plus a bounded wait.
	 */
	bool unreliable;
	bool sent_told;     /* sender: SENT went out */
	uint64_t rx_all;    /* receiver: every arrival, the drain after -D's deadline too */
	uint64_t peer_sent; /* receiver: the sender's count; UINT64_MAX until it comes */
	uint64_t t_sent, t_oob_check;
};

/* -c UD/UC send_bw: after SENT, a receiver waits this long for stragglers at most. */
#define GDR_UNRELIABLE_GRACE_NS (200ULL * 1000000)

#endif
