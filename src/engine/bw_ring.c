/* SPDX-License-Identifier: MIT */
/*
 * The requester's data path: per QP a ring of work requests and SGEs built
 * once per size (opcode, address, key, length, inline flag); a post patches
 * only send_flags, wr_id and the chain link of the entries it takes, and
 * chains up to --post_list of them into one ibv_post_send.
 */
#include "config.h"
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "atomic.h"
#include "bw_ring.h"
#include "clock.h"
#include "log.h"
#include "verb.h"
#include "verbs.h"

/*
 * In duration mode a completion at least every this many bytes, so the end
 * (the last completion before the deadline) and --interval lines are exact
 * even on slow links; from 64 KiB up every message is signalled.
 */
#define SIGNAL_BYTES (64UL << 10)

static void build_wr(const struct gdr_bw_state *s, uint32_t q, size_t slot,
		     struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	uint64_t off = (uint64_t)slot * s->size;

	*sge = (struct ibv_sge){
		.addr = (uintptr_t)(gdr_verb_fetches(s->verb) ? s->rx_base : s->tx_base) + off,
		.length = (uint32_t)s->size,
		.lkey = s->lkey,
	};
	*wr = (struct ibv_send_wr){ .sg_list = sge, .num_sge = 1, .send_flags = s->flags };
	gdr_verb_ops_of(s->verb)->bw_wr(s, q, slot, off, wr);
}

int gdr_bw_ring_build(struct gdr_bw_state *s)
{
	const struct gdr_conn *c = s->c;
	uint32_t nqp = c->nqp;
	size_t total;

	s->post_list = c->o->post_list ? c->o->post_list : 1;
	if (s->post_list > s->depth)
		s->post_list = s->depth;
	s->ring = s->nslots > s->post_list ? (uint32_t)s->nslots : s->post_list;
	s->sig_every = s->cq_mod;
	if ((c->o->duration > 0 || c->o->run_infinitely) &&
	    (uint64_t)s->sig_every * s->size > SIGNAL_BYTES)
		s->sig_every = s->size >= SIGNAL_BYTES ? 1 : (uint32_t)(SIGNAL_BYTES / s->size);
	/* paced: a completion at least every 10 ms, so a slow rate is not a silent peer */
	if (s->pace.on && s->sig_every > s->pace.msgs_per_s / 100)
		s->sig_every = s->pace.msgs_per_s >= 200 ? (uint32_t)(s->pace.msgs_per_s / 100) : 1;
	s->flags = s->size <= s->p->inline_max && !gdr_verb_fetches(s->verb) ? IBV_SEND_INLINE : 0;
	total = (size_t)nqp * s->ring;
	s->wr_block = calloc(total, sizeof(*s->wr_block));
	s->sge_block = calloc(total, sizeof(*s->sge_block));
	if (!s->wr_block || !s->sge_block) {
		gdr_bw_ring_free(s);
		gdr_err("out of memory for %zu work requests", total);
		return -1;
	}
	for (uint32_t q = 0; q < nqp; q++) {
		struct gdr_bw_qp *p = &s->qp[q];

		p->wr = s->wr_block + (size_t)q * s->ring;
		p->sge = s->sge_block + (size_t)q * s->ring;
		for (uint32_t k = 0; k < s->ring; k++)
			build_wr(s, q, k % s->nslots, &p->wr[k], &p->sge[k]);
	}
	return 0;
}

void gdr_bw_ring_free(struct gdr_bw_state *s)
{
	free(s->wr_block);
	free(s->sge_block);
	s->wr_block = NULL;
	s->sge_block = NULL;
}

/*
 * The QP's final message of this size: it carries the LAST marker (a send
 * gains an immediate for it; a write-with-immediate's says LAST) and is
 * signalled.
 */
static void mark_last(struct ibv_send_wr *wr)
{
	wr->imm_data = htonl(GDR_IMM_LAST);
	if (wr->opcode == IBV_WR_SEND)
		wr->opcode = IBV_WR_SEND_WITH_IMM;
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

int gdr_bw_post(struct gdr_bw_state *s, uint32_t q)
{
	struct gdr_bw_qp *p = &s->qp[q];
	struct ibv_send_wr *first, *wr, *bad;
	bool last;
	uint32_t n = to_post(s, p, &last);

	if (!n)
		return 0;
	first = wr = &p->wr[p->head];
	for (uint32_t k = 1;; k++) {
		uint32_t next = p->head + 1 == s->ring ? 0 : p->head + 1;

		wr->send_flags = s->flags;
		if (++p->unsignaled >= s->sig_every || (last && k == n)) {
			wr->send_flags |= IBV_SEND_SIGNALED;
			wr->wr_id = gdr_bw_wr_id(q, p->unsignaled);
			p->unsignaled = 0;
		}
		p->head = next;
		if (k == n) {
			wr->next = NULL;
			break;
		}
		wr->next = &p->wr[next];
		wr = wr->next;
	}
	if (last) {
		mark_last(wr);
		p->final_pending = false;
	}
	p->posted += n;
	s->posted_all += n;
	if (!s->started) {
		s->started = true;
		s->t_start = gdr_now_ns();
		gdr_peak_start(&s->peak, s->size, s->peak.min, s->t_start);
	}
	int err = ibv_post_send(s->p->qp[q], first, &bad);

	if (err) {
		gdr_err("cannot post to QP %u: %s", s->p->qp[q]->qp_num, strerror(err));
		return -1;
	}
	return 0;
}
