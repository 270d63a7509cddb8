/* SPDX-License-Identifier: MIT */
/*
 * Bandwidth tests (write, read, send): a requester keeps up to tx_depth work
 * requests in flight per QP, signalling one in cq_mod; a receiver (send)
 * keeps rx_depth receives posted. One loop serves both roles so -b runs both
 * at once. Memory use does not depend on the number of iterations.
 *
 * Timing: from the first post to the last completion (requester), or from
 * GO to the last completion (receiver), on CLOCK_MONOTONIC.
 * BW peak: the highest rate over windows of at least max(tx_depth, cq_mod)
 * messages and 10 ms (see gdr_peak); BW average: all bytes over the whole time.
 */
#include "config.h"
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include "bw.h"
#include "clock.h"
#include "log.h"

#define BATCH 32
#define QP_BITS 8

static uint64_t wr_id(uint32_t qp, uint64_t covered)
{
	return covered << QP_BITS | qp;
}

/* Fill one work request for message number n on QP q. */
static void make_wr(struct gdr_bw_state *s, uint32_t q, uint64_t n, struct ibv_send_wr *wr,
		    struct ibv_sge *sge, bool signal, bool last)
{
	struct gdr_ctx *c = s->c;
	size_t slot = (size_t)(n % s->nslots) * s->size;

	*sge = (struct ibv_sge){
		.addr = (uintptr_t)(s->verb == GDR_VERB_READ ? s->rx_base : s->tx_base) + slot,
		.length = (uint32_t)s->size,
		.lkey = s->lkey,
	};
	*wr = (struct ibv_send_wr){
		.sg_list = sge,
		.num_sge = 1,
		.send_flags = (signal ? IBV_SEND_SIGNALED : 0) |
			      (s->size <= c->p->inline_max ? IBV_SEND_INLINE : 0),
	};
	switch (s->verb) {
	case GDR_VERB_WRITE:
		wr->opcode = s->write_imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
		wr->imm_data = htonl(last ? GDR_IMM_LAST : GDR_IMM_DATA);
		wr->wr.rdma.remote_addr = s->remote_rx + slot;
		wr->wr.rdma.rkey = s->rkey;
		break;
	case GDR_VERB_READ:
		wr->opcode = IBV_WR_RDMA_READ;
		wr->wr.rdma.remote_addr = s->remote_tx + slot;
		wr->wr.rdma.rkey = s->rkey;
		break;
	case GDR_VERB_SEND:
		wr->opcode = last ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		wr->imm_data = htonl(GDR_IMM_LAST);
		break;
	}
}

/* Post as many WRs on QP q as depth and the plan allow. */
static int post_qp(struct gdr_bw_state *s, uint32_t q)
{
	struct ibv_send_wr wr[BATCH], *bad;
	struct ibv_sge sge[BATCH];
	struct gdr_bw_qp *p = &s->qp[q];
	int n = 0;

	while (n < BATCH && p->posted - p->completed < s->depth) {
		bool last, signal;

		if (s->stop) {
			if (!p->final_pending)
				break;
			last = true;
			p->final_pending = false;
		} else {
			if (p->posted >= s->per_qp)
				break;
			last = p->posted + 1 == s->per_qp;
		}
		p->unsignaled++;
		signal = last || p->unsignaled >= s->cq_mod;
		make_wr(s, q, p->posted, &wr[n], &sge[n], signal, last);
		if (signal) {
			wr[n].wr_id = wr_id(q, p->unsignaled);
			p->unsignaled = 0;
		}
		if (n)
			wr[n - 1].next = &wr[n];
		p->posted++;
		n++;
	}
	if (!n)
		return 0;
	if (!s->started) {
		s->started = true;
		s->t_start = gdr_now_ns();
		gdr_peak_start(&s->peak, s->size, s->peak.min, s->t_start);
	}
	int err = ibv_post_send(s->c->p->qp[q], wr, &bad);

	if (err) {
		gdr_err("cannot post to QP %u: %s", s->c->p->qp[q]->qp_num, strerror(err));
		return -1;
	}
	return 0;
}

int gdr_post_recvs(struct gdr_ctx *c, uint32_t q, int n, size_t len)
{
	struct ibv_recv_wr wr[BATCH], *bad;
	struct ibv_sge sge = {
		.addr = (uintptr_t)gdr_rx(c),
		.length = (uint32_t)len,
		.lkey = c->p->mr->lkey,
	};

	while (n > 0) {
		int k = n < BATCH ? n : BATCH;

		for (int i = 0; i < k; i++) {
			wr[i] = (struct ibv_recv_wr){
				.wr_id = q,
				.sg_list = &sge,
				.num_sge = 1,
				.next = i + 1 < k ? &wr[i + 1] : NULL,
			};
		}
		int err = ibv_post_recv(c->p->qp[q], wr, &bad);

		if (err) {
			gdr_err("cannot post receives to QP %u: %s", c->p->qp[q]->qp_num,
				strerror(err));
			return -1;
		}
		n -= k;
	}
	return 0;
}

static int poll_send(struct gdr_bw_state *s, uint64_t now)
{
	struct ibv_wc wc[64];
	int n = ibv_poll_cq(s->c->scq, 64, wc);

	if (n < 0) {
		gdr_err("cannot poll the send completion queue");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uint32_t q = (uint32_t)(wc[i].wr_id & ((1u << QP_BITS) - 1));
		uint64_t covered = wc[i].wr_id >> QP_BITS;

		if (wc[i].status != IBV_WC_SUCCESS)
			return gdr_wc_failed(&wc[i], "send");
		s->qp[q].completed += covered;
		s->tx_done += covered;
	}
	if (n > 0) {
		s->t_last_tx = now;
		s->progress_ns = now;
		gdr_peak_update(&s->peak, now, s->tx_done);
	}
	return n;
}

static int poll_recv(struct gdr_bw_state *s, uint64_t now)
{
	struct ibv_wc wc[64];
	uint32_t repost[GDR_MAX_QPS] = { 0 };
	int n = ibv_poll_cq(s->c->rcq, 64, wc);

	if (n < 0) {
		gdr_err("cannot poll the receive completion queue");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return gdr_wc_failed(&wc[i], "receive");
		repost[wc[i].wr_id]++;
		s->rx_done++;
		if ((wc[i].wc_flags & IBV_WC_WITH_IMM) && ntohl(wc[i].imm_data) == GDR_IMM_LAST)
			s->rx_lasts++;
	}
	if (n > 0) {
		s->t_last_rx = now;
		s->progress_ns = now;
		if (!s->tx_active)
			gdr_peak_update(&s->peak, now, s->rx_done);
		for (uint32_t q = 0; q < s->c->nqp; q++)
			if (repost[q] && gdr_post_recvs(s->c, q, (int)repost[q], s->recv_len))
				return -1;
	}
	return n;
}

static bool tx_finished(const struct gdr_bw_state *s)
{
	for (uint32_t q = 0; q < s->c->nqp; q++) {
		const struct gdr_bw_qp *p = &s->qp[q];

		if (p->completed < p->posted || p->final_pending)
			return false;
		if (!s->stop && p->posted < s->per_qp)
			return false;
	}
	return true;
}

int gdr_bw_loop(struct gdr_bw_state *s)
{
	struct gdr_ctx *c = s->c;
	uint64_t timeout_ns = (uint64_t)(c->o->timeout * 1e9);
	uint64_t now = gdr_now_ns();
	uint64_t deadline = 0;

	s->progress_ns = now;
	s->t_go = now;
	if (!s->tx_active)
		gdr_peak_start(&s->peak, s->size, s->peak.min, now);
	gdr_progress_start(&s->prog, c->o->interval, s->size, c->o->report_gbits, now);
	if (c->o->duration > 0)
		deadline = now + (uint64_t)(c->o->duration * 1e9);
	for (;;) {
		bool tx_done = !s->tx_active || tx_finished(s);
		bool rx_done = !s->rx_active || s->rx_lasts >= c->nqp;

		if (tx_done && rx_done)
			break;
		if (s->tx_active && !tx_done)
			for (uint32_t q = 0; q < c->nqp; q++)
				if (post_qp(s, q))
					return -1;
		now = gdr_now_ns();
		if (s->tx_active && poll_send(s, now) < 0)
			return -1;
		if (s->rx_active && poll_recv(s, now) < 0)
			return -1;
		if (deadline && !s->stop && now >= deadline) {
			s->stop = true;
			for (uint32_t q = 0; q < c->nqp; q++)
				s->qp[q].final_pending = true;
		}
		if (now - s->progress_ns > timeout_ns) {
			gdr_err("no completion for %g s (peer gone? raise --timeout for slow links)",
				c->o->timeout);
			return -1;
		}
		gdr_progress_tick(&s->prog, now, s->tx_active ? s->tx_done : s->rx_done);
		if (gdr_heartbeat(c, now))
			return -1;
	}
	return 0;
}
