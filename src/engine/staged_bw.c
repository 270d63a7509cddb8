/* SPDX-License-Identifier: MIT */
/*
 * Staged bandwidth, one QP. What is timed is memory to memory, end to end:
 *   write/send: from the sender's first copy (test memory -> bounce) until
 *     the receiver's credit says the last message was copied out of its
 *     bounce buffer into its test memory;
 *   read: from the first RDMA read until the last copy of a read message
 *     into the requester's test memory. The read target stages its data
 *     into its bounce buffer once, before the timed run.
 * Pipeline: B bounce slots per direction; copies run on up to S streams,
 * one copy in flight per stream, so a stream being idle means exactly that
 * message's copy is done. The receiver returns credits (messages copied
 * out) by RDMA-writing a counter into the sender's control page; the sender
 * never has more than W messages beyond the last credit, so a bounce slot
 * is never overwritten before it was copied out.
 */
#include "config.h"
#include <arpa/inet.h>
#include <string.h>
#include "bw.h"
#include "clock.h"
#include "log.h"
#include "progress.h"
#include "staged.h"

#define TAG_DATA 0u
#define TAG_CREDIT 1u
#define MAX_CREDIT_WRITES 8

struct stg {
	struct gdr_ctx *c;
	struct gdr_mem *data;
	enum gdr_verb verb;
	uint64_t size;
	uint64_t B;   /* bounce slots of this size */
	uint64_t Br;  /* send: receive slots (stride recv_len) */
	uint64_t W;   /* sender window beyond the last credit */
	uint64_t S;   /* copy streams */
	uint32_t cq_mod;
	bool tx, rx, rd;
	uint64_t deadline;
	bool stop;
	/* sender (write/send) and requester (read) */
	uint64_t total; /* UINT64_MAX until known */
	uint64_t next_copy, next_post, send_done, unsignaled;
	/* read requester */
	uint64_t rd_done, rd_copy, rd_copied;
	/* receiver */
	uint64_t rx_seen, rx_copied, rx_total, credit_sent, credit_writes;
	uint64_t credit; /* sender: the peer's credit as last seen by the loop */
	uint64_t recv_slot[GDR_MEM_STREAMS];
	/* timing */
	uint64_t t_start, t_go, t_end, t_rx_end, progress;
	struct gdr_peak peak;
	struct gdr_progress prog;
	bool started;
};

static uint64_t stream_of(const struct stg *g, uint64_t n)
{
	return n % g->S;
}

static uint8_t *btx(struct stg *g, uint64_t slot)
{
	return (uint8_t *)g->c->bounce.addr + slot * g->size;
}

static uint8_t *brx(struct stg *g, uint64_t off)
{
	return (uint8_t *)g->c->bounce.addr + g->c->region_len + off;
}

static int post(struct stg *g, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int err = ibv_post_send(g->c->p->qp[0], wr, &bad);

	if (err)
		gdr_err("cannot post to QP %u: %s", g->c->p->qp[0]->qp_num, strerror(err));
	return err ? -1 : 0;
}

static int post_slot_recv(struct gdr_ctx *c, uint64_t slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)gdr_rx(c) + slot * c->recv_len,
		.length = (uint32_t)c->recv_len,
		.lkey = c->p->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;
	int err = ibv_post_recv(c->p->qp[0], &wr, &bad);

	if (err)
		gdr_err("cannot post a receive: %s", strerror(err));
	return err ? -1 : 0;
}

static uint64_t recv_slots(const struct gdr_ctx *c)
{
	uint64_t n = c->region_len / c->recv_len;

	return n < c->o->rx_depth ? n : c->o->rx_depth;
}

int gdr_staged_prepost(struct gdr_ctx *c)
{
	const struct gdr_opts *o = c->o;
	bool recv = o->kind == GDR_KIND_LAT ? o->verb != GDR_VERB_READ
					    : o->verb != GDR_VERB_READ && (o->bidir || c->is_server);

	gdr_ctrl(c)->credit = 0;
	if (!recv)
		return 0;
	if (o->kind == GDR_KIND_BW && o->verb == GDR_VERB_SEND) {
		for (uint64_t i = 0; i < recv_slots(c); i++)
			if (post_slot_recv(c, i))
				return -1;
		return 0;
	}
	return gdr_post_recvs(c, 0, (int)o->rx_depth, c->recv_len);
}

int gdr_staged_stage_tx(struct gdr_ctx *c, size_t len)
{
	return c->data.ops->to_host(&c->data, c->bounce.addr, 0, len);
}

/* ---- sender (write/send) ---- */

static int tx_copy(struct stg *g, uint64_t now)
{
	while (g->next_copy < g->total && g->next_copy - g->send_done < g->B &&
	       g->next_copy - g->next_post < g->S) {
		uint64_t slot = g->next_copy % g->B;

		if (!g->started) {
			g->started = true;
			g->t_start = now;
			gdr_peak_start(&g->peak, g->size, g->B > g->cq_mod ? g->B : g->cq_mod, now);
		}
		if (g->data->ops->copy_async(g->data, GDR_TO_HOST, slot * g->size, btx(g, slot),
					     g->size, (int)stream_of(g, g->next_copy)))
			return -1;
		g->next_copy++;
	}
	return 0;
}

static int tx_post(struct stg *g)
{
	struct gdr_ctx *c = g->c;

	while (g->next_post < g->next_copy && g->next_post - gdr_ctrl(c)->credit < g->W) {
		uint64_t n = g->next_post, slot = n % g->B;
		int idle = g->data->ops->poll(g->data, (int)stream_of(g, n));
		bool last = n + 1 == g->total;
		bool signal;
		struct ibv_sge sge = {
			.addr = (uintptr_t)btx(g, slot),
			.length = (uint32_t)g->size,
			.lkey = c->p->mr->lkey,
		};
		struct ibv_send_wr wr = {
			.sg_list = &sge,
			.num_sge = 1,
			.imm_data = htonl(last ? GDR_IMM_LAST : GDR_IMM_DATA),
		};

		if (idle < 0)
			return -1;
		if (!idle)
			break;
		g->unsignaled++;
		signal = last || g->unsignaled >= g->cq_mod;
		if (signal) {
			wr.wr_id = g->unsignaled << 8 | TAG_DATA;
			wr.send_flags = IBV_SEND_SIGNALED;
			g->unsignaled = 0;
		}
		if (g->verb == GDR_VERB_WRITE) {
			wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
			wr.wr.rdma.remote_addr = gdr_remote_rx(c) + slot * g->size;
			wr.wr.rdma.rkey = c->p->remote.rkey;
		} else {
			wr.opcode = IBV_WR_SEND_WITH_IMM;
		}
		if (post(g, &wr))
			return -1;
		g->next_post++;
	}
	return 0;
}

/* ---- receiver (write-with-immediate/send) ---- */

static int rx_credit(struct stg *g, bool force)
{
	struct gdr_ctx *c = g->c;
	struct gdr_ctrl *ctl = gdr_ctrl(c);
	uint64_t gap = g->rx_copied - g->credit_sent;

	if (!gap || g->credit_writes >= MAX_CREDIT_WRITES)
		return 0;
	if (!force && gap < g->W / 4 + 1 && g->rx_copied != g->rx_seen)
		return 0;
	ctl->copied = g->rx_copied;
	struct ibv_sge sge = {
		.addr = (uintptr_t)&ctl->copied,
		.length = sizeof(ctl->copied),
		.lkey = c->p->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = TAG_CREDIT,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = {
			.remote_addr = c->p->remote.addr + c->p->remote.len,
			.rkey = c->p->remote.rkey,
		},
	};
	if (post(g, &wr))
		return -1;
	g->credit_sent = g->rx_copied;
	g->credit_writes++;
	return 0;
}

static int rx_poll(struct stg *g, uint64_t now)
{
	struct gdr_ctx *c = g->c;
	struct ibv_wc wc[GDR_MEM_STREAMS];
	uint64_t room = g->S - (g->rx_seen - g->rx_copied);
	int n;

	if (room) {
		n = ibv_poll_cq(c->rcq, (int)room, wc);
		if (n < 0) {
			gdr_err("cannot poll the receive completion queue");
			return -1;
		}
		for (int i = 0; i < n; i++) {
			uint64_t m = g->rx_seen;
			uint64_t slot = m % g->B;
			uint8_t *src = g->verb == GDR_VERB_SEND ? brx(g, wc[i].wr_id * c->recv_len)
								: brx(g, slot * g->size);

			if (wc[i].status != IBV_WC_SUCCESS)
				return gdr_wc_failed(&wc[i], "receive");
			if ((wc[i].wc_flags & IBV_WC_WITH_IMM) &&
			    ntohl(wc[i].imm_data) == GDR_IMM_LAST)
				g->rx_total = m + 1;
			g->recv_slot[stream_of(g, m)] = wc[i].wr_id;
			if (g->data->ops->copy_async(g->data, GDR_FROM_HOST,
						     c->region_len + slot * g->size, src, g->size,
						     (int)stream_of(g, m)))
				return -1;
			g->rx_seen++;
			g->progress = now;
		}
	}
	while (g->rx_copied < g->rx_seen) {
		uint64_t m = g->rx_copied;
		int idle = g->data->ops->poll(g->data, (int)stream_of(g, m));

		if (idle < 0)
			return -1;
		if (!idle)
			break;
		if (g->verb == GDR_VERB_SEND ? post_slot_recv(c, g->recv_slot[stream_of(g, m)])
					     : gdr_post_recvs(c, 0, 1, c->recv_len))
			return -1;
		g->rx_copied++;
		g->t_rx_end = now;
		g->progress = now;
		if (!g->tx)
			gdr_peak_update(&g->peak, now, g->rx_copied);
	}
	return rx_credit(g, g->rx_total && g->rx_copied == g->rx_total);
}

/* ---- read requester ---- */

static int rd_step(struct stg *g, uint64_t now)
{
	struct gdr_ctx *c = g->c;

	while (g->next_post < g->total && g->next_post - g->rd_copied < g->B) {
		uint64_t slot = g->next_post % g->B;
		struct ibv_sge sge = {
			.addr = (uintptr_t)brx(g, slot * g->size),
			.length = (uint32_t)g->size,
			.lkey = c->p->mr->lkey,
		};
		struct ibv_send_wr wr = {
			.wr_id = 1u << 8 | TAG_DATA,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IBV_WR_RDMA_READ,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = {
				.remote_addr = gdr_remote_tx(c) + slot * g->size,
				.rkey = c->p->remote.rkey,
			},
		};

		if (!g->started) {
			g->started = true;
			g->t_start = now;
			gdr_peak_start(&g->peak, g->size, g->B > g->cq_mod ? g->B : g->cq_mod, now);
		}
		if (post(g, &wr))
			return -1;
		g->next_post++;
	}
	while (g->rd_copy < g->send_done && g->rd_copy - g->rd_copied < g->S) {
		uint64_t slot = g->rd_copy % g->B;

		if (g->data->ops->copy_async(g->data, GDR_FROM_HOST, c->region_len + slot * g->size,
					     brx(g, slot * g->size), g->size,
					     (int)stream_of(g, g->rd_copy)))
			return -1;
		g->rd_copy++;
	}
	while (g->rd_copied < g->rd_copy) {
		int idle = g->data->ops->poll(g->data, (int)stream_of(g, g->rd_copied));

		if (idle < 0)
			return -1;
		if (!idle)
			break;
		g->rd_copied++;
		g->t_end = now;
		gdr_peak_update(&g->peak, now, g->rd_copied);
	}
	return 0;
}

/* ---- completions and the loop ---- */

static int poll_send(struct stg *g, uint64_t now)
{
	struct ibv_wc wc[32];
	int n = ibv_poll_cq(g->c->scq, 32, wc);

	if (n < 0) {
		gdr_err("cannot poll the send completion queue");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return gdr_wc_failed(&wc[i], "send");
		if ((wc[i].wr_id & 0xff) == TAG_CREDIT)
			g->credit_writes--;
		else
			g->send_done += wc[i].wr_id >> 8;
		g->progress = now;
	}
	return 0;
}

static bool finished(const struct stg *g)
{
	if (g->tx && !(g->total != UINT64_MAX && g->credit >= g->total && g->send_done >= g->total))
		return false;
	if (g->rd && !(g->total != UINT64_MAX && g->rd_copied >= g->total))
		return false;
	if (g->rx && !(g->rx_total && g->rx_copied == g->rx_total &&
		       g->credit_sent == g->rx_total && !g->credit_writes))
		return false;
	return true;
}

static void plan(struct gdr_ctx *c, struct stg *g, uint64_t size)
{
	const struct gdr_opts *o = c->o;
	bool active = o->bidir || !c->is_server;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->data = &c->data;
	g->verb = o->verb;
	g->size = size;
	g->B = gdr_slots(c, size);
	g->Br = recv_slots(c);
	g->W = o->verb == GDR_VERB_SEND ? g->Br : g->B;
	if (g->W > o->rx_depth)
		g->W = o->rx_depth;
	g->S = g->B < GDR_MEM_STREAMS ? g->B : GDR_MEM_STREAMS;
	/* A signal at least every half window, or a full window could never complete. */
	g->cq_mod = o->cq_mod < o->tx_depth ? o->cq_mod : o->tx_depth;
	if (g->cq_mod > (g->W < g->B ? g->W : g->B) / 2)
		g->cq_mod = (uint32_t)((g->W < g->B ? g->W : g->B) / 2);
	if (!g->cq_mod)
		g->cq_mod = 1;
	g->rd = active && o->verb == GDR_VERB_READ;
	g->tx = active && o->verb != GDR_VERB_READ;
	g->rx = o->verb != GDR_VERB_READ && (o->bidir || c->is_server);
	g->total = o->duration > 0 ? UINT64_MAX : o->iters;
}

static void measure(struct stg *g, struct gdr_result_wire *w)
{
	uint64_t end = g->tx || g->rd ? g->t_end : g->t_rx_end;
	uint64_t start = g->tx || g->rd ? g->t_start : g->t_go;

	memset(w, 0, sizeof(*w));
	w->bytes = g->size;
	w->iters = g->tx || g->rd ? g->total : g->rx_total;
	w->duration_s = end > start ? (double)(end - start) * 1e-9 : 0;
	if (w->duration_s > 0) {
		w->bw_avg_Bps = (double)w->iters * (double)g->size / w->duration_s;
		w->msg_rate_pps = (double)w->iters / w->duration_s;
	}
	w->bw_peak_Bps = g->peak.Bps > w->bw_avg_Bps ? g->peak.Bps : w->bw_avg_Bps;
}

int gdr_staged_bw(struct gdr_ctx *c, uint64_t size, struct gdr_result_wire *mine)
{
	uint64_t timeout_ns = (uint64_t)(c->o->timeout * 1e9);
	struct gdr_ctrl *ctl = gdr_ctrl(c);
	struct stg g;

	plan(c, &g, size);
	ctl->credit = 0;
	g.t_go = g.progress = gdr_now_ns();
	if (c->o->duration > 0)
		g.deadline = g.t_go + (uint64_t)(c->o->duration * 1e9);
	if (!g.tx && !g.rd)
		gdr_peak_start(&g.peak, size, g.B > g.cq_mod ? g.B : g.cq_mod, g.t_go);
	gdr_progress_start(&g.prog, c->o->interval, size, c->o->report_gbits, g.t_go);
	while (!finished(&g)) {
		uint64_t now = gdr_now_ns();

		if (g.deadline && !g.stop && now >= g.deadline) {
			g.stop = true;
			g.total = g.tx ? g.next_copy + 1 : g.next_post;
			if (g.rd && g.total == 0)
				g.total = 1;
		}
		if (g.tx && (tx_copy(&g, now) || tx_post(&g)))
			return -1;
		if ((g.tx || g.rx || g.rd) && poll_send(&g, now))
			return -1;
		if (g.rd && rd_step(&g, now))
			return -1;
		if (g.rx && rx_poll(&g, now))
			return -1;
		if (g.tx && ctl->credit != g.credit) {
			/* the loop sees each credit once, so t_end is when the last one came */
			g.credit = ctl->credit;
			g.progress = now;
			g.t_end = now;
			gdr_peak_update(&g.peak, now, g.credit);
		}
		if (now - g.progress > timeout_ns) {
			gdr_err("staged: no progress for %g s (peer gone? raise --timeout)",
				c->o->timeout);
			return -1;
		}
		gdr_progress_tick(&g.prog, now,
				  g.tx ? g.credit : g.rd ? g.rd_copied : g.rx_copied);
		if (gdr_heartbeat(c, now))
			return -1;
	}
	measure(&g, mine);
	return 0;
}
