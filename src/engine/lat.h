/* SPDX-License-Identifier: MIT */
/* Latency engine state (lat.c) and its per-size driver (lat_size.c). */
#ifndef GDR_LAT_H
#define GDR_LAT_H

#include <stdbool.h>
#include <stdint.h>
#include "conn.h"
#include "results.h"
#include "staging.h"
#include "stats.h"
#include "stop.h"

/* Signalled sends left unreaped before a latency loop waits for one. */
#define GDR_LAT_MAX_OUTSTANDING 4
/* One send in this many is signalled; at most 4 x 4 sends sit in the send queue. */
#define GDR_LAT_SIGNAL_EVERY 4

struct gdr_lat {
	struct gdr_conn *c;
	struct gdr_path *p;	     /* the path measured */
	struct gdr_stop_at *stop_at; /* where a stop request ended the loop */
	uint64_t size;
	uint64_t iters, warmup;
	uint64_t duration_ns; /* 0: iteration mode */
	uint64_t timeout_ns;
	double divisor;       /* 2: half round trip, 1: round trip */
	bool poll_byte;       /* write on host memory: poll the last byte */
	bool staged;          /* copy test memory <-> bounce around each message */
	bool ping;            /* gpu-proxy write/send: the kernels' ping-pong (last byte: marker) */
	struct gdr_copier *cp; /* staged: the size's copier, one copy per message, waited for */
	uint32_t outstanding; /* signalled sends not yet reaped */
	uint32_t unsignaled;  /* sends since the last signalled one */
	uint64_t hb_after_ns; /* heartbeats only in loops running longer than this */
	/* the one operation of this size (gdr_lat_build_op), prepared on QP 0's endpoint */
	struct gdr_xop op;
	double *samples;      /* iteration mode: every sample, usec */
	uint64_t nsamples, cap;
	struct gdr_hist *hist; /* duration mode */
};

static inline void gdr_lat_record(struct gdr_lat *l, double usec)
{
	if (l->samples) {
		if (l->nsamples < l->cap)
			l->samples[l->nsamples++] = usec;
	} else {
		gdr_hist_add(l->hist, usec);
		l->nsamples++;
	}
}

/* Write latency on host memory (both sides, direct path p) polls the last byte. */
bool gdr_lat_polls_byte(const struct gdr_conn *c, const struct gdr_path *p);
/* Write latency without polling: the peer's writes come as immediates to receive. */
bool gdr_lat_needs_imm(const struct gdr_conn *c, const struct gdr_path *p);
/* The size's operation into l->op (lat.c): the direct path's. */
void gdr_lat_build_op(struct gdr_lat *l);
/* Prepare l->op as QP 0's ring of one (lat.c). 0 or -1 (printed). */
int gdr_lat_prep(struct gdr_lat *l);
/* Reap up to max completions of cq: how many, or -1 on a poll or a failed completion (printed). */
int gdr_lat_reap(struct gdr_lat *l, enum gdr_xcq cq, struct gdr_xcqe *e, int max);
/*
 * The gpu-proxy path (lat_proxy.c): read on the client, the kernels'
 * ping-pong of write and send on both sides. Records the client's samples.
 */
int gdr_lat_proxy(struct gdr_lat *l);
int gdr_lat_client(struct gdr_lat *l);
int gdr_lat_server(struct gdr_lat *l);
/* In a wait loop: fail after the timeout (no out-of-band traffic here). */
int gdr_lat_idle(struct gdr_lat *l, uint64_t *start);
/*
 * One size of a latency test on path p (lat_size.c; stg and stop as
 * gdr_bw_size); samples: --samples' file on the client (NULL: none).
 */
int gdr_lat_size(struct gdr_conn *c, struct gdr_path *p, uint64_t size, struct gdr_staging *stg,
		 FILE *samples, struct gdr_stop_at *stop, struct gdr_result *res);

#endif
