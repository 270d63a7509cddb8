/* SPDX-License-Identifier: MIT */
/*
 * The libfabric transport's completions: read (driving manual progress),
 * stash, errors. A send completion marks its slot; slots are released from
 * the endpoint's oldest on, so an endpoint's completions come out in post
 * order, signalled ones only, whatever order the provider finished them in.
 */
#include "config.h"
#include "ofi_xp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/fi_errno.h>
#include "log.h"

#define BATCH 32

static void fail(struct gdr_xdom *d, enum gdr_xcq q, struct gdr_xcqe *e, const char *why)
{
	snprintf(d->err[q], sizeof(d->err[q]), "%s", why);
	e->status = -1;
}

/* A receive's completion: a send landed in it, or a write's data took it. */
static void rx_entry(struct gdr_xdom *d, const struct fi_cq_data_entry *c, struct gdr_xcqe *e)
{
	struct gdr_ofi_ctx *x = c->op_context;

	e->flags = GDR_XCQE_RECV;
	if (!x || x->kind != GDR_OFI_RX) {
		fail(d, GDR_XCQ_RECV, e, "a receive completion names no posted receive");
		return;
	}
	x->ep->posted--;
	e->ctx = x->ctx;
	e->ep = x->ep->index;
	e->len = (uint32_t)c->len;
	if (c->flags & FI_REMOTE_CQ_DATA) {
		e->flags |= GDR_XCQE_DATA;
		e->data = (uint32_t)c->data;
		/* a write's data sent after it (ofi_post.c) says the write's length */
		if (!d->rx_cq_data && !c->len && d->cq_data_size >= 8)
			e->len = (uint32_t)(c->data >> 32);
	}
}

/* Room for one more in s: 0, or -1 (printed). */
static int grow(struct gdr_ofi_stash *s)
{
	struct gdr_xcqe *e;
	uint32_t cap;

	if (s->count < s->cap)
		return 0;
	cap = s->cap ? 2 * s->cap : 64;
	e = malloc(cap * sizeof(*e));
	if (!e) {
		gdr_err("ofi: out of memory");
		return -1;
	}
	for (uint32_t k = 0; k < s->count; k++)
		e[k] = s->e[(s->head + k) % s->cap];
	free(s->e);
	s->e = e;
	s->head = 0;
	s->cap = cap;
	return 0;
}

/*
 * gcc 12's -fanalyzer reports grow's new block as leaked here: it is stored in
 * s->e (the domain's stash, freed when the domain closes).
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
static void push(struct gdr_ofi_stash *s, const struct gdr_xcqe *e)
{
	if (grow(s))
		return; /* out of memory, printed */
	s->e[(s->head + s->count++) % s->cap] = *e;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

static void give(struct gdr_xep *ep, const struct gdr_ofi_ctx *x)
{
	struct gdr_xcqe e = {.ctx = x->ctx, .len = x->len, .status = x->status, .ep = ep->index};

	push(&ep->d->stash[GDR_XCQ_SEND], &e);
}

void gdr_ofi_release(struct gdr_xep *ep)
{
	while (ep->tdone != ep->tpost) {
		struct gdr_ofi_ctx *x = &ep->tx[2 * (ep->tdone % ep->tx_depth)];

		if (x->state == GDR_OFI_WAIT)
			return;
		if (x->state == GDR_OFI_DONE)
			give(ep, x);
		x->state = GDR_OFI_UNSIG;
		ep->tdone++;
	}
}

void gdr_ofi_tx_done(struct gdr_xep *ep, struct gdr_ofi_ctx *x, int status)
{
	if (x->state == GDR_OFI_DONE || (x->state == GDR_OFI_UNSIG && !status))
		return; /* reported, or an unsignalled operation the provider completed anyway */
	if (x->state == GDR_OFI_UNSIG && x->seq - ep->tdone >= ep->tpost - ep->tdone && x->status)
		return; /* its failure was given back already */
	x->status = (int16_t)(status > 0 && status < 32767 ? status : (status ? 1 : 0));
	if (status)
		gdr_ofi_break(ep);
	if (x->state == GDR_OFI_UNSIG && x->seq - ep->tdone >= ep->tpost - ep->tdone) {
		give(ep, x); /* an unsignalled one that failed after its slot was released */
		return;
	}
	x->state = GDR_OFI_DONE;
	gdr_ofi_release(ep);
}

/* A send completion's slot: the context given, or the first of its pair. */
static struct gdr_ofi_ctx *slot(void *op_context)
{
	struct gdr_ofi_ctx *x = op_context;

	return x && x->kind == GDR_OFI_TX_HALF ? x - 1 : x;
}

/*
 * A receive that gdr_ofi_break cancelled: its line says why, the failure that
 * broke the endpoint, not only "Operation canceled" (which would hide it: the
 * engine may read the receive queue before the send queue that holds it).
 */
static void cancelled(struct gdr_xep *ep)
{
	static const char pre[] = "receive cancelled: the endpoint failed before: ";

	snprintf(ep->d->err[GDR_XCQ_RECV], GDR_OFI_ERR, "%s%.*s", pre,
		 (int)(GDR_OFI_ERR - sizeof(pre)), ep->why);
}

/* The failed completion at the head of q: 1 as e, or 0 given to its send slot. */
static int read_error(struct gdr_xdom *d, enum gdr_xcq q, struct gdr_xcqe *e)
{
	struct fi_cq_err_entry err;
	struct gdr_ofi_ctx *x;
	char prov[120];
	const char *p;

	memset(&err, 0, sizeof(err));
	memset(e, 0, sizeof(*e));
	if (q == GDR_XCQ_RECV)
		e->flags = GDR_XCQE_RECV;
	if (fi_cq_readerr(d->cq[q], &err, 0) < 0) {
		fail(d, q, e, "the completion queue reported an error it could not read");
		return 1;
	}
	p = fi_cq_strerror(d->cq[q], err.prov_errno, err.err_data, prov, sizeof(prov));
	snprintf(d->err[q], sizeof(d->err[q]), "%s (%s: %s, provider error %d)",
		 d->api->fi_strerror(err.err), d->info->fabric_attr->prov_name, p ? p : "",
		 err.prov_errno);
	e->status = (int16_t)(err.err > 0 && err.err < 32767 ? err.err : 1);
	x = q == GDR_XCQ_SEND ? slot(err.op_context) : err.op_context;
	if (!x)
		return 1;
	if (q == GDR_XCQ_SEND) {
		gdr_ofi_tx_done(x->ep, x, e->status);
		return 0;
	}
	if (x->ep->broken && err.err == FI_ECANCELED)
		cancelled(x->ep); /* our fi_cancel: the line names the failure behind it */
	e->ctx = x->ctx;
	e->ep = x->ep->index;
	e->len = x->len;
	x->ep->posted--;
	return 1;
}

/*
 * Read q once (driving the provider's progress). Receives: up to max as e,
 * how many. Sends: into their slots, released in order to the stash; 0.
 * -1 on a read error (printed).
 */
static int read_cq(struct gdr_xdom *d, enum gdr_xcq q, struct gdr_xcqe *e, int max)
{
	struct fi_cq_data_entry c[BATCH];
	ssize_t n = fi_cq_read(d->cq[q], c, max < BATCH ? (size_t)max : BATCH);

	if (n == -FI_EAGAIN)
		return 0;
	if (n == -FI_EAVAIL) {
		struct gdr_xcqe one;

		if (read_error(d, q, q == GDR_XCQ_RECV ? e : &one) == 0)
			return 0;
		if (q == GDR_XCQ_RECV)
			return 1;
		push(&d->stash[q], &one); /* a failed send naming no slot */
		return 0;
	}
	if (n < 0) {
		gdr_err("ofi: %s: cannot read completions: %s", d->info->fabric_attr->prov_name,
			d->api->fi_strerror((int)-n));
		return -1;
	}
	for (ssize_t k = 0; k < n; k++) {
		if (q == GDR_XCQ_RECV) {
			memset(&e[k], 0, sizeof(e[k]));
			rx_entry(d, &c[k], &e[k]);
		} else {
			struct gdr_ofi_ctx *x = c[k].op_context;

			if (x->kind != GDR_OFI_TX_HALF) /* the half's success says nothing */
				gdr_ofi_tx_done(x->ep, x, 0);
		}
	}
	return q == GDR_XCQ_RECV ? (int)n : 0;
}

static int pop(struct gdr_ofi_stash *s, struct gdr_xcqe *e, int max)
{
	int got = 0;

	while (s->count && got < max) {
		e[got++] = s->e[s->head];
		s->head = (s->head + 1) % s->cap;
		s->count--;
	}
	return got;
}

int gdr_ofi_poll(struct gdr_xdom *d, enum gdr_xcq q, struct gdr_xcqe *e, int max)
{
	struct gdr_ofi_stash *s = &d->stash[q];
	int got, n;

	if (q == GDR_XCQ_SEND) {
		if (read_cq(d, q, NULL, BATCH) < 0)
			return -1;
		return pop(s, e, max);
	}
	got = pop(s, e, max);
	if (got == max)
		return got;
	n = read_cq(d, q, e + got, max - got);
	return n < 0 ? -1 : got + n;
}

int gdr_ofi_drain(struct gdr_xdom *d)
{
	struct gdr_xcqe e[BATCH];
	int n;

	if (read_cq(d, GDR_XCQ_SEND, NULL, BATCH) < 0)
		return -1;
	n = read_cq(d, GDR_XCQ_RECV, e, BATCH);
	if (n < 0)
		return -1;
	for (int k = 0; k < n; k++)
		push(&d->stash[GDR_XCQ_RECV], &e[k]);
	return 0;
}

void gdr_ofi_break(struct gdr_xep *ep)
{
	uint32_t at;

	if (ep->broken)
		return;
	ep->broken = true;
	/* the caller put the failure's line there (read_error, ofi_post.c flush) */
	snprintf(ep->why, sizeof(ep->why), "%.*s", GDR_OFI_ERR - 1, ep->d->err[GDR_XCQ_SEND]);
	/* as a verbs QP in error flushes them: each posted receive completes cancelled */
	at = (ep->phead + ep->rx_depth - ep->posted) % ep->rx_depth;
	for (uint32_t k = 0, n = ep->posted; k < n; k++) {
		struct gdr_ofi_ctx *x = &ep->pctx[(at + k) % ep->rx_depth];

		if (fi_cancel(&ep->ep->fid, x)) {
			struct gdr_xcqe e = {.ctx = x->ctx,
					     .len = x->len,
					     .flags = GDR_XCQE_RECV,
					     .status = FI_ECANCELED,
					     .ep = ep->index};

			cancelled(ep); /* fi_cancel refused: flushed here */
			push(&ep->d->stash[GDR_XCQ_RECV], &e);
			ep->posted--;
		}
	}
}

int gdr_ofi_cqe_error(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what)
{
	enum gdr_xcq q = (e->flags & GDR_XCQE_RECV) ? GDR_XCQ_RECV : GDR_XCQ_SEND;

	gdr_err("%s: endpoint %u: %s", what, e->ep, d->err[q]);
	return -1;
}
