/* SPDX-License-Identifier: MIT */
/*
 * The loop transport's hot path (loop.h): a post queues its operations and
 * runs them in order at once; what has to wait for the peer's receive is run
 * again by the next post or poll, until GDR_LOOP_RNR_MS have passed.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "loop.h"

static const char *const why[GDR_LOOP_E_NCODES] = {
    [GDR_LOOP_OK] = "no error",
    [GDR_LOOP_E_REMOTE_ACCESS] = "remote access error: the peer has no region of that key "
				 "covering the range with that access",
    [GDR_LOOP_E_LOCAL_PROT] = "local protection error: the range is outside the local region "
			      "or lacks local write access",
    [GDR_LOOP_E_RNR] = "receiver not ready: the peer posted no receive in time",
    [GDR_LOOP_E_LEN] = "length error: the message is longer than the receive it consumed",
    [GDR_LOOP_E_PEER] = "the peer exited or closed its endpoint",
    [GDR_LOOP_E_COPY] = "the kernel refused the copy",
    [GDR_LOOP_E_FLUSH] = "flushed: an earlier operation of the endpoint failed",
};

static bool kind_ok(uint8_t kind)
{
	if (kind > GDR_XOP_CSWAP) {
		gdr_err("loop: operation kind %u is not one of xport.h's", kind);
		return false;
	}
	if (kind == GDR_XOP_FADD || kind == GDR_XOP_CSWAP) {
		gdr_err("loop: the loop transport has no atomics; use --transport=verbs");
		return false;
	}
	return true;
}

static long ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* Run the endpoint's queue from its head while operations can run. */
static void progress(struct gdr_xep *ep)
{
	while (ep->q_len) {
		struct gdr_loop_pend *p = &ep->q[ep->q_head];
		bool wait = false;
		int st = ep->error ? GDR_LOOP_E_FLUSH : gdr_loop_run(ep, p, &wait);

		if (wait) {
			if (!ep->blocked) {
				ep->blocked = true;
				clock_gettime(CLOCK_MONOTONIC, &ep->blocked_at);
				return;
			}
			if (ms_since(&ep->blocked_at) < GDR_LOOP_RNR_MS)
				return;
			st = GDR_LOOP_E_RNR;
		}
		ep->blocked = false;
		if (st)
			ep->error = true;
		/* a failure is reported even unsignalled, a flush only where signalled */
		if (p->sig || (st && st != GDR_LOOP_E_FLUSH)) {
			struct gdr_xcqe e = {.ctx = p->ctx,
					     .len = p->op.len,
					     .status = (int16_t)st,
					     .ep = ep->index};

			gdr_loop_cq_push(ep->d, false, &e);
		}
		ep->q_head = (ep->q_head + 1) % ep->q_cap;
		ep->q_len--;
	}
}

static int enqueue(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op, uint64_t ctx,
		   bool sig)
{
	uint32_t slot = (ep->q_head + ep->q_len) % ep->q_cap;
	struct gdr_loop_pend *p = &ep->q[slot];

	if (ep->q_len == ep->q_cap) {
		gdr_err(
		    "loop: endpoint %u has %u operations queued, its depth: poll before posting "
		    "more",
		    ep->index, ep->q_cap);
		return -1;
	}
	*p = (struct gdr_loop_pend){.op = *op, .mr = mr, .ctx = ctx, .sig = sig};
	/* inline_ok permits a copy at post time: over the endpoint's inline size, by reference */
	if (op->inline_ok && op->kind != GDR_XOP_READ && op->nsge <= 1 &&
	    op->len <= ep->max_inline) {
		if (mr && op->loff <= mr->len && op->len <= mr->len - op->loff) {
			p->inl = ep->inl_buf + (size_t)slot * ep->max_inline;
			memcpy(p->inl, (const void *)(uintptr_t)(mr->addr + op->loff), op->len);
		}
	}
	ep->q_len++;
	return 0;
}

int gdr_loop_prep(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *ops, uint32_t n)
{
	struct gdr_xop *ring;

	for (uint32_t i = 0; i < n; i++)
		if (!kind_ok(ops[i].kind))
			return -1;
	ring = n ? malloc(n * sizeof(*ring)) : NULL;
	if (n && !ring) {
		gdr_err("loop: cannot prepare a ring of %u operations: out of memory", n);
		return -1;
	}
	if (n)
		memcpy(ring, ops, n * sizeof(*ring));
	free(ep->ring);
	ep->ring = ring;
	ep->ring_mr = mr;
	ep->n_ring = n;
	return 0;
}

int gdr_loop_post(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		  unsigned int flags, uint32_t last_data)
{
	int rc = 0;

	if (!ep->n_ring) {
		gdr_err("loop: post before prep: endpoint %u has no ring", ep->index);
		return -1;
	}
	for (uint32_t k = 0; k < n && !rc; k++) {
		struct gdr_xop op = ep->ring[(first + k) % ep->n_ring];

		if ((flags & GDR_XP_LAST) && k == n - 1) {
			op.data = last_data;
			if (op.kind == GDR_XOP_SEND)
				op.kind = GDR_XOP_SEND_DATA;
		}
		rc = enqueue(ep, ep->ring_mr, &op, sig ? sig[k] : 0, sig && sig[k]);
	}
	progress(ep);
	return rc;
}

int gdr_loop_post_op(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op, uint64_t ctx)
{
	int rc;

	if (!kind_ok(op->kind))
		return -1;
	rc = enqueue(ep, mr, op, ctx, ctx != 0); /* ctx 0: unsignalled, as verbs and ofi */
	progress(ep);
	return rc;
}

int gdr_loop_post_recv(struct gdr_xep *ep, struct gdr_xmr *mr, uint64_t off, uint32_t len,
		       uint32_t n, uint64_t ctx)
{
	struct gdr_loop_box *b = ep->box;
	uint32_t tail = atomic_load_explicit(&b->rq_tail, memory_order_relaxed);

	if (!mr || !(mr->access & GDR_XA_LOCAL_WRITE) || off > mr->len || len > mr->len - off) {
		gdr_err("loop: a receive of %u bytes at offset %llu is outside its region or the "
			"region lacks local write access",
			len, (unsigned long long)off);
		return -1;
	}
	if (n > b->cap - ep->rx_posted) {
		gdr_err("loop: endpoint %u has %u receives posted of %u: %u more do not fit (poll "
			"first)",
			ep->index, ep->rx_posted, b->cap, n);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		GDR_LOOP_RQ(b)
	[(tail + i) % b->cap] =
	    (struct gdr_loop_rwr){.addr = mr->addr + off, .ctx = ctx, .len = len};
	atomic_store_explicit(&b->rq_tail, tail + n, memory_order_release);
	ep->rx_posted += n;
	return 0;
}

/* A dead peer's unconsumed receives of ep come back as errors (the rerr queue). */
static void flush_recvs(struct gdr_xep *ep)
{
	struct gdr_loop_box *b = ep->box;
	uint32_t head = atomic_load_explicit(&b->rq_head, memory_order_acquire);
	uint32_t tail = atomic_load_explicit(&b->rq_tail, memory_order_relaxed);

	for (; head != tail; head++) {
		struct gdr_xcqe e = {.ctx = GDR_LOOP_RQ(b)[head % b->cap].ctx,
				     .flags = GDR_XCQE_RECV,
				     .status = GDR_LOOP_E_PEER,
				     .ep = ep->index};

		if (!gdr_loop_cq_push(ep->d, true, &e))
			break;
		ep->rx_posted--;
	}
	atomic_store_explicit(&b->rq_head, head, memory_order_release);
}

static int poll_recv(struct gdr_xdom *d, struct gdr_xcqe *e, int max)
{
	int got = 0;

	/* a side that only polls receives still moves its own waiting sends */
	for (struct gdr_xep *ep = d->eps; ep; ep = ep->next)
		progress(ep);
	for (struct gdr_xep *ep = d->eps; ep && got < max; ep = ep->next) {
		struct gdr_loop_box *b = ep->box;
		uint32_t head = atomic_load_explicit(&b->cq_head, memory_order_relaxed);
		uint32_t tail = atomic_load_explicit(&b->cq_tail, memory_order_acquire);

		for (; head != tail && got < max; head++, got++) {
			const struct gdr_loop_rcqe *c = &GDR_LOOP_CQ(b)[head % b->cap];

			e[got] = (struct gdr_xcqe){.ctx = c->ctx,
						   .len = c->len,
						   .data = c->data,
						   .flags = c->flags,
						   .status = c->status,
						   .ep = ep->index};
			ep->rx_posted--;
		}
		atomic_store_explicit(&b->cq_head, head, memory_order_release);
	}
	/* a dead peer's flag is one read, its pidfd a system call: every 64th empty poll */
	if (!got && !(++d->idle % 64))
		for (struct gdr_xep *ep = d->eps; ep; ep = ep->next)
			if (ep->rx_posted && ep->pbox && !gdr_loop_peer_alive(ep))
				flush_recvs(ep);
	for (; got < max && d->rerr_len; got++, d->rerr_len--) {
		e[got] = d->rerr[d->rerr_head];
		d->rerr_head = (d->rerr_head + 1) % d->cq_cap;
	}
	return got;
}

int gdr_loop_poll(struct gdr_xdom *d, enum gdr_xcq cq, struct gdr_xcqe *e, int max)
{
	int got = 0;

	if (cq == GDR_XCQ_RECV)
		return poll_recv(d, e, max);
	for (struct gdr_xep *ep = d->eps; ep; ep = ep->next)
		progress(ep);
	if (d->overrun) {
		gdr_err(
		    "loop: the send completion queue overflowed its %u entries: poll more often "
		    "or signal fewer operations",
		    d->cq_cap);
		return -1;
	}
	for (; got < max && d->scq_len; got++, d->scq_len--) {
		e[got] = d->scq[d->scq_head];
		d->scq_head = (d->scq_head + 1) % d->cq_cap;
	}
	return got;
}

int gdr_loop_cqe_error(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what)
{
	const char *w =
	    e->status > 0 && e->status < GDR_LOOP_E_NCODES ? why[e->status] : "unknown status";

	if (e->status == GDR_LOOP_E_RNR)
		gdr_err("%s: %s (%d ms), endpoint %u", what, w, GDR_LOOP_RNR_MS, e->ep);
	else if (e->status == GDR_LOOP_E_COPY)
		gdr_err("%s: %s (%s), endpoint %u", what, w, strerror(d->last_errno), e->ep);
	else
		gdr_err("%s: %s (loop status %d), endpoint %u", what, w, e->status, e->ep);
	return -1;
}
