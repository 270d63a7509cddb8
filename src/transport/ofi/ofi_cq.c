/* SPDX-License-Identifier: MIT */
/* The libfabric transport's completions: read (driving manual progress), stash, errors. */
#include "config.h"
#include "ofi_xp.h"

#include <stdio.h>
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

static void convert(struct gdr_xdom *d, enum gdr_xcq q, const struct fi_cq_data_entry *c,
		    struct gdr_xcqe *e)
{
	const struct gdr_ofi_ctx *x = c->op_context;

	memset(e, 0, sizeof(*e));
	if (q == GDR_XCQ_RECV) {
		rx_entry(d, c, e);
		return;
	}
	e->ctx = x->ctx;
	e->len = x->len;
	e->ep = x->ep->index;
}

/* The failed completion at the head of q, as e; its line kept for cqe_error. */
static void read_error(struct gdr_xdom *d, enum gdr_xcq q, struct gdr_xcqe *e)
{
	struct fi_cq_err_entry err;
	struct gdr_ofi_ctx *x;
	char prov[120];
	const char *p;

	memset(&err, 0, sizeof(err));
	memset(e, 0, sizeof(*e));
	if (fi_cq_readerr(d->cq[q], &err, 0) < 0) {
		fail(d, q, e, "the completion queue reported an error it could not read");
		return;
	}
	x = err.op_context;
	if (x) {
		e->ctx = x->ctx;
		e->ep = x->ep->index;
		e->len = x->len;
		if (x->kind == GDR_OFI_RX)
			x->ep->posted--;
	}
	if (q == GDR_XCQ_RECV)
		e->flags = GDR_XCQE_RECV;
	p = fi_cq_strerror(d->cq[q], err.prov_errno, err.err_data, prov, sizeof(prov));
	snprintf(d->err[q], sizeof(d->err[q]), "%s (%s: %s, provider error %d)",
		 d->api->fi_strerror(err.err), d->info->fabric_attr->prov_name, p ? p : "",
		 err.prov_errno);
	e->status = (int16_t)(err.err > 0 && err.err < 32767 ? err.err : 1);
}

/* Up to max completions of q straight from the provider: how many, or -1 (printed). */
static int read_cq(struct gdr_xdom *d, enum gdr_xcq q, struct gdr_xcqe *e, int max)
{
	struct fi_cq_data_entry c[BATCH];
	ssize_t n = fi_cq_read(d->cq[q], c, max < BATCH ? (size_t)max : BATCH);

	if (n == -FI_EAGAIN)
		return 0;
	if (n == -FI_EAVAIL) {
		read_error(d, q, e);
		return 1;
	}
	if (n < 0) {
		gdr_err("ofi: %s: cannot read completions: %s", d->info->fabric_attr->prov_name,
			d->api->fi_strerror((int)-n));
		return -1;
	}
	for (ssize_t k = 0; k < n; k++)
		convert(d, q, &c[k], &e[k]);
	return (int)n;
}

int gdr_ofi_poll(struct gdr_xdom *d, enum gdr_xcq q, struct gdr_xcqe *e, int max)
{
	struct gdr_ofi_stash *s = &d->stash[q];
	int got = 0, n;

	while (s->count && got < max) {
		e[got++] = s->e[s->head];
		s->head = (s->head + 1) % GDR_OFI_STASH;
		s->count--;
	}
	if (got == max)
		return got;
	n = read_cq(d, q, e + got, max - got);
	return n < 0 ? -1 : got + n;
}

int gdr_ofi_drain(struct gdr_xdom *d)
{
	int room = 0, n;

	for (int q = 0; q < 2; q++) {
		struct gdr_ofi_stash *s = &d->stash[q];
		struct gdr_xcqe e[GDR_OFI_STASH];

		room += GDR_OFI_STASH - s->count;
		n = read_cq(d, q, e, GDR_OFI_STASH - s->count);
		if (n < 0)
			return -1;
		for (int k = 0; k < n; k++)
			s->e[(s->head + s->count++) % GDR_OFI_STASH] = e[k];
	}
	if (!room) {
		gdr_err("ofi: %s: the send queue is full and %d completions wait to be polled",
			d->info->fabric_attr->prov_name, 2 * GDR_OFI_STASH);
		return -1;
	}
	return 0;
}

int gdr_ofi_cqe_error(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what)
{
	enum gdr_xcq q = (e->flags & GDR_XCQE_RECV) ? GDR_XCQ_RECV : GDR_XCQ_SEND;

	gdr_err("%s: endpoint %u: %s", what, e->ep, d->err[q]);
	return -1;
}
