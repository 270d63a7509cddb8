/* SPDX-License-Identifier: MIT */
/*
 * Staged bandwidth. What is timed is memory to memory, end to end:
 *   write/send: from the sender's first copy (test memory -> ring) until
 *     the receiver's credit says the last run was copied out of its ring
 *     into its test memory;
 *   read: from GO until the last run is copied into the requester's test
 *     memory; the target's copies (test memory -> its ring) run inside it.
 * Pipeline (plan.h): the copier copies runs (up to a chunk) on its own
 * lanes per direction; run i goes on the wire from ring slot
 * i % ring_runs on QP i % nqp, its last unit signaled and carrying 32
 * bits of data (run index, flags); the units' kinds follow the verb's row
 * (stage_wr.h); everything is posted and reaped through the transport
 * (c->xp: post_op, post_recv, poll). The receiver copies runs out in order and
 * RDMA-writes its count (the credit) into the sender's control page; the
 * sender stays within `window` runs of the last credit, so no ring slot is
 * overwritten before it was copied out. send: after the run the sender
 * sends empty messages into the receives still posted, so the next size
 * starts with none; write-with-immediate likewise (each unit consumes a
 * receive, its immediate flagged as a unit's before the run's last).
 * read: the target copies run i into its ring slot i % ring_runs once the
 * requester's credit says that slot's previous run was read, and RDMA-writes
 * its count of runs staged into the requester's control page; the requester
 * reads only staged runs, and credits back the runs whose reads completed
 * (the last credit flagged CREDIT_LAST: the target's total in a -D run).
 */
#include "config.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "log.h"
#include "peak.h"
#include "progress.h"
#include "session.h"
#include "stage_wr.h"
#include "staging.h"
#include "verb_def.h"

/* a signalled post's ctx: run << 8 | tag, never 0 (0 posts unsignalled) */
#define TAG_DATA	  4u
#define TAG_CREDIT	  1u
#define TAG_FLUSH	  2u
#define TAG_STAGED	  3u /* a read target's count of runs staged */
#define MAX_CREDIT_WRITES 8
#define IMM_LAST	  (1u << 31) /* the size's last run */
#define IMM_UNIT	  (1u << 30) /* a unit before its run's last, or a flush (write_imm) */
#define IMM_RUN_MASK	  0x3fffffffu
#define CREDIT_LAST	  (1ull << 63) /* read: the requester's last credit (its total) */

struct stg {
	struct gdr_conn *c;
	struct gdr_path *p;	     /* the staged path */
	struct gdr_stop_at *stop_at; /* where a stop request ended the loop */
	struct gdr_stage_plan pl;
	struct gdr_copier *cp; /* the size's copier (gdr_staging) */
	struct gdr_stage_kv *kv; /* a KV cell's blocks (gdr_staging), or NULL */
	enum gdr_wire_op op;   /* the verb row's data message */
	bool unit_recvs;       /* every unit consumes a receive (send, write_imm); else one a run */
	uint32_t nq, tx_depth;
	bool tx, rx, rd, stop;
	bool rt; /* a read target: stages runs into its ring inside the timed run */
	uint64_t total_units, total_runs; /* UINT64_MAX until known */
	uint64_t deadline;
	/* sender: runs copied in, posted, completed locally; credit seen */
	uint64_t next_copy, copied, next_post, sent, credit;
	uint64_t sq_used[GDR_MAX_QPS];
	uint64_t flush_next, flush_end, flush_posted, flush_done;
	/* receiver and read requester: runs read, arrived, copied out */
	uint64_t next_read, next_out, out_done;
	uint64_t rx_runs, rx_units; /* receiver's totals: UINT64_MAX until known */
	uint64_t credit_sent, credit_writes, flush_seen;
	/* read requester: runs the target staged (its credit), runs read in order */
	uint64_t peer_staged, read_done;
	/* read target: runs copied into the ring, copies done, count sent; its total */
	uint64_t next_stage, staged, staged_sent, staged_writes, rt_runs, rt_units;
	bool rt_last;				/* the requester's last credit came */
	uint8_t *sent_done, *arrived, *read_ok; /* per ring slot */
	/*
	 * timing, one end time and one peak per role: the sender's follow the
	 * credits (t_tx_end, tx_peak), copying out follows runs copied out of the
	 * ring (t_rx_end, rx_peak); -b runs both on one side
	 */
	uint64_t t_start, t_go, t_tx_end, t_rx_end, progress;
	struct gdr_peak tx_peak, rx_peak;
	struct gdr_progress prog;
	bool started;
};

static uint64_t slot(const struct stg *g, uint64_t run)
{
	return run % g->pl.ring_runs;
}

static uint64_t units_of(const struct stg *g, uint64_t run)
{
	return gdr_stage_run_units(&g->pl, run, g->total_units);
}

/* Totals of what this side copies out: a read requester's own, else the peer's. */
static uint64_t out_runs(const struct stg *g)
{
	return g->rd ? g->total_runs : g->rx_runs;
}

static uint64_t out_units(const struct stg *g)
{
	return g->rd ? g->total_units : g->rx_units;
}

/* Messages covered by the first `runs` runs of `units` in all. */
static uint64_t msgs_of(const struct stg *g, uint64_t runs, uint64_t units)
{
	uint64_t u = runs * g->pl.run;

	return (u < units ? u : units) / g->pl.per_msg;
}

/* One operation on QP q: signalled with ctx, or not (ctx 0). 0 or -1 (printed). */
static int post(const struct stg *g, uint32_t q, const struct gdr_xop *op, uint64_t ctx)
{
	return g->c->xp->post_op(g->p->ep[q], g->p->xmr, op, ctx);
}

/* Where addr of the staged path's memory (its rings, its control page) is in the region. */
static uint64_t loff(const struct stg *g, const void *addr)
{
	return (uint64_t)((const uint8_t *)addr - (const uint8_t *)g->p->mem->addr);
}

static void set_total(struct stg *g, uint64_t runs)
{
	g->total_runs = runs;
	g->total_units = runs * g->pl.run;
}

/*
 * Queue run r's copy between its ring slot and test memory at base: the
 * run's messages, contiguous; a KV cell's batch (struct gdr_stage_kv): its
 * blocks, contiguous or as one block list of their pool slots.
 */
static int copy_run(struct stg *g, enum gdr_copy_dir d, uint64_t base, uint64_t r, uint8_t *ring,
		    uint64_t bytes)
{
	struct gdr_stage_kv *kv = g->kv;
	uint64_t e0;

	if (!kv)
		return gdr_copier_submit(g->cp, d, base + gdr_stage_data_off(&g->pl, r * g->pl.run),
					 ring, bytes);
	e0 = r % kv->nb_ring * kv->batch;
	if (!kv->slot)
		return gdr_copier_submit(g->cp, d, kv->base + e0 * kv->block, ring, bytes);
	for (uint32_t k = 0; k < kv->batch; k++)
		kv->off[k] = kv->base + kv->slot[e0 + k] * kv->block;
	return gdr_copier_submit_list(g->cp, d, kv->off, kv->batch, kv->block, ring);
}

/* ---- sender (write/send) ---- */

static int tx_copy(struct stg *g, uint64_t now)
{
	int n;

	while (g->next_copy < g->total_runs && g->next_copy - g->sent < g->pl.ring_runs &&
	       gdr_copier_room(g->cp, GDR_TO_HOST)) {
		uint64_t j = g->next_copy * g->pl.run;

		if (!g->started) {
			g->started = true;
			g->t_start = gdr_now_ns(); /* `now` may be a step old */
			gdr_peak_start(&g->tx_peak, g->pl.size, g->pl.data_msgs, g->t_start);
		}
		if (copy_run(g, GDR_TO_HOST, 0, g->next_copy,
			     (uint8_t *)g->c->bounce.addr + gdr_stage_ring_off(&g->pl, j),
			     gdr_stage_run_bytes(&g->pl, g->next_copy, g->total_units)))
			return -1;
		g->next_copy++;
	}
	n = gdr_copier_reap(g->cp, GDR_TO_HOST);
	if (n < 0)
		return -1;
	g->copied += (uint64_t)n;
	return 0;
}

/* Post units [j0, j0+n) of run `run` on its QP; the last one signaled with an immediate. */
static int post_units(struct stg *g, uint64_t run, uint64_t j0, uint64_t n, bool last, bool flush)
{
	uint32_t q = (uint32_t)(run % g->nq);

	for (uint64_t j = j0; j < j0 + n; j++) {
		bool end = j + 1 == j0 + n;
		uint64_t ctx = 0;
		struct gdr_xop op = {
		    .len = flush ? 0 : (uint32_t)gdr_stage_unit_len(&g->pl, j),
		    .loff = gdr_stage_ring_off(&g->pl, j),
		    .roff = g->p->remote.len / 2 + gdr_stage_ring_off(&g->pl, j), /* its rx ring */
		    .data = IMM_UNIT,
		};

		if (gdr_stage_unit_op(g->op, end, flush, &op.kind)) {
			gdr_err("staging: the staged loop cannot post this verb's messages");
			return -1;
		}
		if (end) {
			ctx = run << 8 | (flush ? TAG_FLUSH : TAG_DATA);
			if (!flush)
				op.data = (uint32_t)(run & IMM_RUN_MASK) | (last ? IMM_LAST : 0);
		}
		if (post(g, q, &op, ctx))
			return -1;
	}
	g->sq_used[q] += n;
	return 0;
}

static bool sq_room(const struct stg *g, uint64_t run, uint64_t n)
{
	return g->sq_used[run % g->nq] + n <= g->tx_depth;
}

static int tx_post(struct stg *g)
{
	while (g->next_post < g->copied && g->next_post < g->credit + g->pl.window) {
		uint64_t r = g->next_post, n = units_of(g, r);

		if (!sq_room(g, r, n))
			break;
		if (post_units(g, r, r * g->pl.run, n, r + 1 == g->total_runs, false))
			return -1;
		g->next_post++;
	}
	return 0;
}

/*
 * send, write_imm: the receiver keeps receives posted for `window` runs past
 * the last one it copied out; fill them with empty messages once the data is
 * done.
 */
static int tx_flush(struct stg *g)
{
	if (!g->unit_recvs || g->credit < g->total_runs || g->sent < g->total_runs)
		return 0;
	if (!g->flush_end) {
		g->flush_next = g->total_runs - 1;
		g->flush_end = g->total_runs + g->pl.window;
	}
	for (; g->flush_next < g->flush_end; g->flush_next++) {
		uint64_t r = g->flush_next, n = g->pl.run - units_of(g, r);

		if (!n)
			continue;
		if (!sq_room(g, r, n))
			break;
		if (post_units(g, r, r * g->pl.run + units_of(g, r), n, false, true))
			return -1;
		g->flush_posted++;
	}
	return 0;
}

/* ---- receiver (write-with-immediate/send) and read requester: copy out ---- */

static int copy_out(struct stg *g, uint64_t now)
{
	struct gdr_conn *c = g->c;
	int n;

	while (g->next_out < out_runs(g) && g->arrived[slot(g, g->next_out)] &&
	       gdr_copier_room(g->cp, GDR_FROM_HOST)) {
		uint64_t r = g->next_out, j = r * g->pl.run;

		if (copy_run(g, GDR_FROM_HOST, c->region_len, r,
			     gdr_rx(c, g->p) + gdr_stage_ring_off(&g->pl, j),
			     gdr_stage_run_bytes(&g->pl, r, out_units(g))))
			return -1;
		g->arrived[slot(g, r)] = 0;
		g->next_out++;
	}
	n = gdr_copier_reap(g->cp, GDR_FROM_HOST);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		/* send, write_imm: the freed slot takes the receives of the run `window` ahead */
		if (g->unit_recvs &&
		    gdr_staged_post_run_recvs(c, g->p, &g->pl, g->out_done + g->pl.window))
			return -1;
		g->out_done++;
	}
	if (n) {
		g->t_rx_end = gdr_now_ns();
		g->progress = now;
		gdr_peak_update(&g->rx_peak, g->t_rx_end, msgs_of(g, g->out_done, out_units(g)));
	}
	return 0;
}

static int rx_credit(struct stg *g)
{
	struct gdr_conn *c = g->c;
	struct gdr_ctrl *ctl = gdr_ctrl(c);
	uint64_t gap = g->out_done - g->credit_sent;
	bool all = g->out_done == g->rx_runs;

	if (!gap || g->credit_writes >= MAX_CREDIT_WRITES)
		return 0;
	if (!all && gap < g->pl.window / 4 + 1 && g->out_done != g->next_out)
		return 0;
	ctl->copied = g->out_done;
	struct gdr_xop op = {
	    .kind = GDR_XOP_WRITE,
	    .len = sizeof(ctl->copied),
	    .loff = loff(g, &ctl->copied),
	    .roff = g->p->remote.len, /* the peer's control page */
	};
	if (post(g, 0, &op, TAG_CREDIT))
		return -1;
	g->credit_sent = g->out_done;
	g->credit_writes++;
	return 0;
}

static int rx_poll(struct stg *g, uint64_t now)
{
	struct gdr_conn *c = g->c;
	struct gdr_xcqe e[32];
	int n = c->xp->poll(c->xd, GDR_XCQ_RECV, e, 32);

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		uint32_t imm;
		uint64_t r;

		if (e[i].status)
			return c->xp->cqe_error(c->xd, &e[i], "receive");
		g->progress = now;
		if (g->out_done == g->rx_runs) {
			g->flush_seen++; /* send: an empty message into a leftover receive */
			continue;
		}
		if (!(e[i].flags & GDR_XCQE_DATA) || (e[i].data & IMM_UNIT))
			continue; /* send, write_imm: a unit before its run's last */
		imm = e[i].data;
		r = g->out_done + (((imm & IMM_RUN_MASK) - g->out_done) & IMM_RUN_MASK);
		g->arrived[slot(g, r)] = 1;
		if ((imm & IMM_LAST) && g->rx_runs == UINT64_MAX) {
			g->rx_runs = r + 1; /* duration mode: whole runs */
			g->rx_units = g->rx_runs * g->pl.run;
		}
		if (!g->unit_recvs && gdr_post_rx(c, g->p, e[i].ep, 1, 0))
			return -1;
	}
	if (copy_out(g, now))
		return -1;
	return rx_credit(g);
}

/* ---- read requester ---- */

static int rd_post(const struct gdr_conn *c, struct stg *g, uint64_t now)
{
	while (g->next_read < g->total_runs && g->next_read < g->peer_staged &&
	       g->next_read - g->out_done < g->pl.ring_runs &&
	       sq_room(g, g->next_read, units_of(g, g->next_read))) {
		uint64_t r = g->next_read, n = units_of(g, r);
		uint32_t q = (uint32_t)(r % g->nq);

		for (uint64_t j = r * g->pl.run; j < r * g->pl.run + n; j++) {
			bool end = j + 1 == r * g->pl.run + n;
			struct gdr_xop op = {
			    .len = (uint32_t)gdr_stage_unit_len(&g->pl, j),
			    .loff = c->region_len + gdr_stage_ring_off(&g->pl, j), /* our rx ring */
			    .roff = gdr_stage_ring_off(&g->pl, j),		   /* its tx ring */
			};

			if (gdr_stage_unit_op(g->op, end, false, &op.kind) ||
			    post(g, q, &op, end ? r << 8 | TAG_DATA : 0))
				return -1;
		}
		g->sq_used[q] += n;
		g->next_read++;
	}
	return copy_out(g, now);
}

/* RDMA-write *src (8 bytes of our control page) into the peer's control page at off. */
static int ctrl_write(const struct stg *g, uint64_t *src, size_t off, uint64_t tag)
{
	struct gdr_xop op = {
	    .kind = GDR_XOP_WRITE,
	    .len = sizeof(*src),
	    .loff = loff(g, src),
	    .roff = g->p->remote.len + off, /* the peer's control page */
	};

	return post(g, 0, &op, tag);
}

/*
 * Read requester: credit the runs read (in order) back to the target, which
 * may then restage their slots; coalesced while one credit is on the wire.
 */
static int rd_credit(struct stg *g)
{
	struct gdr_ctrl *ctl = gdr_ctrl(g->c);
	uint64_t gap = g->read_done - g->credit_sent;
	bool all = g->read_done == g->total_runs;

	if (!gap || g->credit_writes >= MAX_CREDIT_WRITES)
		return 0;
	if (!all && g->credit_writes && gap < g->pl.ring_runs / 4 + 1)
		return 0;
	ctl->copied = g->read_done | (all ? CREDIT_LAST : 0);
	if (ctrl_write(g, &ctl->copied, offsetof(struct gdr_ctrl, credit), TAG_CREDIT))
		return -1;
	g->credit_sent = g->read_done;
	g->credit_writes++;
	return 0;
}

/* ---- read target: copy runs into the ring as the requester frees their slots ---- */

static int rt_stage(struct stg *g, uint64_t now)
{
	struct gdr_ctrl *ctl = gdr_ctrl(g->c);
	uint64_t credit = ctl->credit, gap;
	int n;

	if ((credit & ~CREDIT_LAST) != g->credit || ((credit & CREDIT_LAST) && !g->rt_last)) {
		g->credit = credit & ~CREDIT_LAST;
		g->progress = now;
		if (credit & CREDIT_LAST) { /* -D: the requester's total, in whole runs */
			g->rt_last = true;
			g->rt_runs = g->credit;
		}
	}
	while (!g->rt_last && g->next_stage < g->rt_runs &&
	       g->next_stage - g->credit < g->pl.ring_runs && gdr_copier_room(g->cp, GDR_TO_HOST)) {
		uint64_t r = g->next_stage, j = r * g->pl.run;

		if (copy_run(g, GDR_TO_HOST, 0, r,
			     (uint8_t *)g->c->bounce.addr + gdr_stage_ring_off(&g->pl, j),
			     gdr_stage_run_bytes(&g->pl, r, g->rt_units)))
			return -1;
		g->next_stage++;
	}
	n = gdr_copier_reap(g->cp, GDR_TO_HOST);
	if (n < 0)
		return -1;
	if (n)
		g->progress = now;
	g->staged += (uint64_t)n;
	/* say what is staged: at once when no count is on the wire, else in batches */
	gap = g->staged - g->staged_sent;
	if (g->rt_last || !gap || g->staged_writes >= MAX_CREDIT_WRITES)
		return 0;
	if (g->staged_writes && gap < g->pl.ring_runs / 4 + 1 && g->staged != g->rt_runs)
		return 0;
	ctl->staged_src = g->staged;
	if (ctrl_write(g, &ctl->staged_src, offsetof(struct gdr_ctrl, staged), TAG_STAGED))
		return -1;
	g->staged_sent = g->staged;
	g->staged_writes++;
	return 0;
}

/* ---- completions and the loop ---- */

static int poll_send(struct stg *g, uint64_t now)
{
	const struct gdr_xport_ops *xp = g->c->xp;
	struct gdr_xcqe e[32];
	int n = xp->poll(g->c->xd, GDR_XCQ_SEND, e, 32);

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		uint64_t tag = e[i].ctx & 0xff, r = e[i].ctx >> 8;

		if (e[i].status)
			return xp->cqe_error(g->c->xd, &e[i], "send");
		g->progress = now;
		if (tag == TAG_CREDIT) {
			g->credit_writes--;
			continue;
		}
		if (tag == TAG_STAGED) {
			g->staged_writes--;
			continue;
		}
		if (tag == TAG_FLUSH) {
			g->sq_used[r % g->nq] -= g->pl.run - units_of(g, r);
			g->flush_done++;
			continue;
		}
		g->sq_used[r % g->nq] -= units_of(g, r);
		if (g->rd)
			g->arrived[slot(g, r)] = g->read_ok[slot(g, r)] = 1;
		else
			g->sent_done[slot(g, r)] = 1;
	}
	while (g->rd && g->read_done < g->next_read && g->read_ok[slot(g, g->read_done)]) {
		g->read_ok[slot(g, g->read_done)] = 0; /* QPs complete out of order */
		g->read_done++;
	}
	while (g->tx && g->sent < g->next_post && g->sent_done[slot(g, g->sent)]) {
		g->sent_done[slot(g, g->sent)] = 0;
		g->sent++;
	}
	return 0;
}

static bool finished(const struct stg *g)
{
	bool send = g->unit_recvs;

	if (g->tx && !(g->total_runs != UINT64_MAX && g->credit >= g->total_runs &&
		       g->sent >= g->total_runs &&
		       (!send || (g->flush_end && g->flush_next == g->flush_end &&
				  g->flush_done == g->flush_posted))))
		return false;
	if (g->rd && !(g->total_runs != UINT64_MAX && g->out_done >= g->total_runs &&
		       g->credit_sent == g->total_runs && !g->credit_writes))
		return false;
	/* a read target: the requester's last credit, its own copies and counts done */
	if (g->rt && !(g->rt_last && g->staged == g->next_stage && !g->staged_writes))
		return false;
	if (g->rx &&
	    !(g->out_done == g->rx_runs && g->credit_sent == g->rx_runs && !g->credit_writes &&
	      (!send || g->flush_seen == (g->rx_runs + g->pl.window) * g->pl.run - g->rx_units)))
		return false;
	return true;
}

static int plan(struct gdr_conn *c, struct gdr_path *p, struct stg *g, struct gdr_staging *s)
{
	const struct gdr_opts *o = c->o;
	const struct gdr_verb_def *def = c->role.def;
	bool active = c->role.requester;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->p = p;
	g->pl = s->plan;
	g->cp = &s->cp;
	g->kv = s->kv;
	g->op = def->op;
	g->unit_recvs = def->target_recvs;
	g->nq = c->nqp;
	g->tx_depth = o->tx_depth;
	g->rd = active && def->fetches;
	g->tx = active && !def->fetches;
	g->rx = !def->fetches && c->role.target;
	g->rt = def->fetches && c->role.target;
	if (o->duration > 0) {
		g->total_runs = g->total_units = UINT64_MAX;
	} else {
		/* -n per QP, as on the direct path: the same messages on every path */
		g->total_units = o->iters * g->nq * g->pl.per_msg;
		g->total_runs = (g->total_units + g->pl.run - 1) / g->pl.run;
	}
	g->rx_runs = g->rt_runs = g->total_runs;
	g->rx_units = g->rt_units = g->total_units;
	g->sent_done = calloc(g->pl.ring_runs, 1);
	g->arrived = calloc(g->pl.ring_runs, 1);
	g->read_ok = calloc(g->pl.ring_runs, 1);
	if (!g->sent_done || !g->arrived || !g->read_ok) {
		gdr_err("out of memory");
		return -1;
	}
	return 0;
}

/* Duration mode: stop after the next run (a whole number of messages), which carries LAST. */
static void stop_at_deadline(struct stg *g)
{
	uint64_t next = g->tx ? g->next_copy : g->next_read, per = g->pl.per_msg;

	g->stop = true;
	if (g->tx || g->rd)
		set_total(g, (next + 1 + per - 1) / per * per);
}

static void measure(struct stg *g, struct gdr_result_wire *w)
{
	bool active = g->tx || g->rd;
	/* a sender's figure ends at its last credit; a reader's, a receiver's at copy-out */
	uint64_t end = g->tx ? g->t_tx_end : g->t_rx_end;
	/* a sender's starts at its first copy; a reader's, a receiver's at GO */
	uint64_t start = g->tx ? g->t_start : g->t_go;
	struct gdr_peak *pk = g->tx ? &g->tx_peak : &g->rx_peak;

	memset(w, 0, sizeof(*w));
	w->bytes = g->pl.size;
	w->iters = (active ? g->total_units : g->rx_units) / g->pl.per_msg;
	w->duration_s = end > start ? (double)(end - start) * 1e-9 : 0;
	if (w->duration_s > 0) {
		w->bw_avg_Bps = (double)w->iters * (double)g->pl.size / w->duration_s;
		w->msg_rate_pps = (double)w->iters / w->duration_s;
	}
	if (w->duration_s > 0)
		gdr_peak_finish(pk, end, w->iters);
	w->bw_peak_Bps = pk->Bps; /* 0: nothing measured (n/a), as on the direct path */
}

static int step(struct stg *g, uint64_t now)
{
	struct gdr_conn *c = g->c;
	struct gdr_ctrl *ctl = gdr_ctrl(c);

	if (g->deadline && !g->stop && now >= g->deadline)
		stop_at_deadline(g);
	if (g->tx && (tx_copy(g, now) || tx_post(g) || tx_flush(g)))
		return -1;
	if (poll_send(g, now))
		return -1;
	if (g->rt && rt_stage(g, now))
		return -1;
	if (g->rd && ctl->staged != g->peer_staged) {
		g->peer_staged = ctl->staged;
		g->progress = now;
	}
	if (g->rd && (rd_post(c, g, now) || rd_credit(g)))
		return -1;
	if (g->rx && rx_poll(g, now))
		return -1;
	if (g->tx && ctl->credit != g->credit) {
		/* the loop sees each credit once, so t_tx_end is when the last one came */
		g->credit = ctl->credit;
		g->progress = now;
		g->t_tx_end = gdr_now_ns(); /* after t_start even within one step */
		gdr_peak_update(&g->tx_peak, g->t_tx_end, msgs_of(g, g->credit, g->total_units));
	}
	return 0;
}

int gdr_staged_bw(struct gdr_conn *c, struct gdr_path *p, struct gdr_staging *s,
		  struct gdr_stop_at *stop, struct gdr_result_wire *mine)
{
	uint64_t size = s->size;
	uint64_t timeout_ns = (uint64_t)(c->o->timeout * 1e9);
	struct stg g;
	int ret = -1;

	if (plan(c, p, &g, s))
		goto out;
	g.stop_at = stop;
	gdr_ctrl(c)->credit = 0;
	g.t_go = g.progress = gdr_now_ns();
	if (c->o->duration > 0)
		g.deadline = g.t_go + (uint64_t)(c->o->duration * 1e9);
	/* a receiver's, a read requester's clock starts at GO (the target's first copy after it) */
	gdr_peak_start(&g.rx_peak, size, g.pl.data_msgs, g.t_go);
	gdr_progress_start(&g.prog, c->o->interval, size, c->o->report_gbits, g.t_go);
	while (!finished(&g)) {
		uint64_t now = gdr_now_ns();

		if (gdr_interrupted(c, g.stop_at,
				    g.tx ? msgs_of(&g, g.credit, g.total_units)
					 : msgs_of(&g, g.out_done, out_units(&g)),
				    c->o->duration > 0 ? 0 : c->o->iters))
			goto out;
		if (step(&g, now))
			goto out;
		if (now - g.progress > timeout_ns) {
			gdr_err("staged: no progress for %g s (peer gone? raise --timeout)",
				c->o->timeout);
			goto out;
		}
		gdr_progress_tick(&g.prog, now,
				  g.tx ? msgs_of(&g, g.credit, g.total_units)
				       : msgs_of(&g, g.out_done, out_units(&g)));
		if (gdr_peer_check(c, now) || gdr_heartbeat(c, now))
			goto out;
	}
	measure(&g, mine);
	ret = 0;
out:
	free(g.sent_done);
	free(g.arrived);
	free(g.read_ok);
	return ret;
}
