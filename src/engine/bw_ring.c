/* SPDX-License-Identifier: MIT */
/*
 * The requester's data path: per QP its endpoint's ring of operations,
 * prepared once per size through the transport (c->xp->prep: kind, offsets,
 * length, inline); a post names up to --post_list ring entries and which of
 * them are signalled (c->xp->post: one doorbell where the transport can).
 */
#include "config.h"
#include <stdlib.h>
#include "atomic.h"
#include "bw_kv.h"
#include "bw_ring.h"
#include "clock.h"
#include "log.h"
#include "verb.h"

/*
 * In duration mode a completion at least every this many bytes, so the end
 * (the last completion before the deadline) and --interval lines are exact
 * even on slow links; from 64 KiB up every message is signalled.
 */
#define SIGNAL_BYTES (64UL << 10)

static void build_op(const struct gdr_bw_state *s, uint32_t q, size_t slot, struct gdr_xop *op)
{
	uint64_t off = (uint64_t)slot * s->size;
	bool fetches = gdr_verb_fetches(s->verb);

	*op = (struct gdr_xop){
		.len = (uint32_t)s->size,
		.loff = (fetches ? s->rx_off : s->tx_off) + off,
		.inline_ok = !fetches,
	};
	gdr_verb_ops_of(s->verb)->bw_op(s, q, slot, off, op);
	if (s->kv) /* a KV row: the block's own place, local and in the pool */
		gdr_bw_kv_op(s->kv, (uint32_t)slot, op);
}

int gdr_bw_ring_build(struct gdr_bw_state *s)
{
	const struct gdr_conn *c = s->c;
	uint32_t nqp = c->nqp;
	struct gdr_xop *ops;

	s->post_list = c->o->post_list ? c->o->post_list : 1;
	if (s->post_list > s->depth)
		s->post_list = s->depth;
	s->ring = s->nslots > s->post_list ? (uint32_t)s->nslots : s->post_list;
	s->sig_every = s->cq_mod;
	if (s->kv) { /* a batch a post, its last block signalled (the size's state: bw_kv_size.c) */
		s->post_list = s->kv->batch;
		s->ring = s->kv->batch * s->kv->nb_ring;
		s->nslots = s->ring;
	}
	if ((c->o->duration > 0 || c->o->run_infinitely) &&
	    (uint64_t)s->sig_every * s->size > SIGNAL_BYTES)
		s->sig_every = s->size >= SIGNAL_BYTES ? 1 : (uint32_t)(SIGNAL_BYTES / s->size);
	/* paced: a completion at least every 10 ms, so a slow rate is not a silent peer */
	if (s->pace.on && s->sig_every > s->pace.msgs_per_s / 100)
		s->sig_every = s->pace.msgs_per_s >= 200 ? (uint32_t)(s->pace.msgs_per_s / 100) : 1;
	ops = calloc(s->ring, sizeof(*ops));
	s->sig = calloc(s->post_list, sizeof(*s->sig));
	if (!ops || !s->sig) {
		free(ops);
		gdr_bw_ring_free(s);
		gdr_err("out of memory for %u operations", s->ring);
		return -1;
	}
	for (uint32_t q = 0; q < nqp; q++) {
		for (uint32_t k = 0; k < s->ring; k++)
			build_op(s, q, k % s->nslots, &ops[k]);
		if (c->xp->prep(s->p->ep[q], s->p->xmr, ops, s->ring)) {
			free(ops);
			gdr_bw_ring_free(s);
			return -1;
		}
	}
	free(ops);
	return 0;
}

void gdr_bw_ring_free(struct gdr_bw_state *s)
{
	free(s->sig);
	s->sig = NULL;
}

/* How many WRs QP q may post now, and whether the last of them ends its run. */
static uint32_t to_post(struct gdr_bw_state *s, struct gdr_bw_qp *p, bool *last)
{
	uint64_t room = s->depth - (p->posted - p->completed), n = s->post_list;

	if (s->stop) {
		*last = p->final_pending && room;
		return *last;
	}
	if (n > room)
		n = room;
	if (n > s->per_qp - p->posted)
		n = s->per_qp - p->posted;
	if (s->pace.on && n) {
		uint64_t allowed = gdr_pace_allowed(&s->pace, gdr_now_ns());
		uint64_t budget = allowed > s->posted_all ? allowed - s->posted_all : 0;

		if (n > budget)
			n = budget;
	}
	*last = n && p->posted + n == s->per_qp;
	return (uint32_t)n;
}

/*
 * Which of a post's n entries are signalled: one in sig_every messages
 * counted across posts (u of them unsignalled before this post), and the
 * QP's final message of this size. The positions are computed, not found
 * entry by entry: s->sig stays zero between posts and only the signalled
 * places are written (clear_signals puts the zeros back), so a post of 32
 * costs the same here whether one entry or none is signalled.
 */
static uint32_t plan_signals(struct gdr_bw_state *s, uint32_t q, uint32_t n, bool last)
{
	struct gdr_bw_qp *p = &s->qp[q];
	uint32_t every = s->sig_every, k = every - 1 - p->unsignaled, tail;

	for (; k < n; k += every)
		s->sig[k] = gdr_bw_wr_id(q, every);
	/* messages after the last signalled one (or since the previous post's) */
	tail = k - every < n ? n - 1 - (k - every) : p->unsignaled + n;
	if (last && tail) {
		s->sig[n - 1] = gdr_bw_wr_id(q, tail);
		tail = 0;
	}
	p->unsignaled = tail;
	return k;
}

/* Zero what plan_signals wrote (k: its return), so s->sig is all zeros again. */
static void clear_signals(struct gdr_bw_state *s, uint32_t n, uint32_t k)
{
	for (k -= s->sig_every; k < n; k -= s->sig_every)
		s->sig[k] = 0;
	s->sig[n - 1] = 0;
}

/*
 * The QP's final message of this size is signalled and carries the LAST
 * marker (GDR_XP_LAST: a send gains data for it; a write-with-data's says
 * LAST).
 */
int gdr_bw_post(struct gdr_bw_state *s, uint32_t q)
{
	struct gdr_bw_qp *p = &s->qp[q];
	uint32_t first = p->head, k = 0;
	bool last;
	uint32_t n = to_post(s, p, &last);
	bool some = last || p->unsignaled + n >= s->sig_every; /* else none signalled */
	int rc;

	if (!n)
		return 0;
	if (some)
		k = plan_signals(s, q, n, last);
	else
		p->unsignaled += n;
	p->head = first + n >= s->ring ? first + n - s->ring : first + n;
	if (last)
		p->final_pending = false;
	p->posted += n;
	s->posted_all += n;
	if (!s->started) {
		s->started = true;
		s->t_start = gdr_now_ns();
		gdr_peak_start(&s->peak, s->size, s->peak.min, s->t_start);
	}
	if (s->kv)
		gdr_bw_kv_posted(s->kv, q, gdr_now_ns());
	rc = s->c->xp->post(s->p->ep[q], first, n, s->sig, last ? GDR_XP_LAST : 0, GDR_IMM_LAST);
	if (some)
		clear_signals(s, n, k);
	return rc ? -1 : (int)n;
}
