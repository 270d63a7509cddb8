/* SPDX-License-Identifier: MIT */
/* The libfabric transport's posts: the ring of a size (prep, post), one-off ops, receives. */
#include "config.h"
#include "ofi_xp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include "log.h"

static const char *prov(const struct gdr_xep *ep)
{
	return ep->d->info->fabric_attr->prov_name;
}

/* Why op cannot run here (NULL: it can). */
static const char *refused(const struct gdr_xep *ep, const struct gdr_xmr *mr,
			   const struct gdr_xop *op)
{
	const struct gdr_xdom *d = ep->d;

	switch (op->kind) {
	case GDR_XOP_WRITE:
	case GDR_XOP_READ:
	case GDR_XOP_SEND:
		break;
	case GDR_XOP_WRITE_DATA:
	case GDR_XOP_SEND_DATA:
		if (d->cq_data_size < 4)
			return "its remote completion data needs cq_data_size >= 4 bytes";
		break;
	default:
		return "atomics are not implemented by the libfabric transport";
	}
	if (op->nsge > 1) /* --sge: refused by the options; a caller that got past them */
		return "scatter/gather lists (--sge) are not built over ofi";
	if (op->loff + op->len > mr->len)
		return "the operation ends past the local region";
	if (ep->connected && op->kind != GDR_XOP_SEND && op->kind != GDR_XOP_SEND_DATA &&
	    op->roff + op->len > ep->rem.len)
		return "the operation ends past the peer's region";
	return NULL;
}

static int check(const struct gdr_xep *ep, const struct gdr_xmr *mr, const struct gdr_xop *op)
{
	const char *why = refused(ep, mr, op);

	if (!why)
		return 0;
	gdr_err("ofi: %s: operation %u of %u bytes at %llu (peer %llu): %s", prov(ep), op->kind,
		op->len, (unsigned long long)op->loff, (unsigned long long)op->roff, why);
	return -1;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Drive progress while the provider has no room; false once d->stuck_ms have passed. */
static bool wait_room(struct gdr_xdom *d, long long *end)
{
	if (gdr_ofi_drain(d))
		return false;
	if (!*end)
		*end = now_ms() + d->stuck_ms;
	return now_ms() <= *end;
}

/* -FI_ETIMEDOUT when the provider answered -FI_EAGAIN for d->stuck_ms. */
static ssize_t submit(struct gdr_xep *ep, uint8_t kind, struct fi_msg_rma *rm, struct fi_msg *m,
		      uint64_t flags)
{
	long long end = 0;
	ssize_t rc;

	for (;;) {
		switch (kind) {
		case GDR_XOP_READ:
			rc = fi_readmsg(ep->ep, rm, flags);
			break;
		case GDR_XOP_SEND:
		case GDR_XOP_SEND_DATA:
			rc = fi_sendmsg(ep->ep, m, flags);
			break;
		default:
			rc = fi_writemsg(ep->ep, rm, flags);
			break;
		}
		if (rc != -FI_EAGAIN)
			return rc;
		if (!wait_room(ep->d, &end))
			return -FI_ETIMEDOUT;
	}
}

/* The next send slot (2 contexts), ctx its caller's; NULL when none frees (printed). */
static struct gdr_ofi_ctx *take(struct gdr_xep *ep, uint64_t ctx)
{
	struct gdr_ofi_ctx *x;
	long long end = 0;

	for (;;) {
		gdr_ofi_release(ep);
		if (ep->tpost - ep->tdone < ep->tx_depth)
			break;
		if (!wait_room(ep->d, &end)) {
			gdr_err("ofi: %s: endpoint %u: %u operations in flight and none completed "
				"in %lld ms (more than -t in flight, or the peer is gone)",
				prov(ep), ep->index, ep->tx_depth, ep->d->stuck_ms);
			return NULL;
		}
	}
	x = &ep->tx[2 * (ep->tpost % ep->tx_depth)];
	x[0] = (struct gdr_ofi_ctx){.ctx = ctx,
				    .ep = ep,
				    .seq = ep->tpost,
				    .kind = GDR_OFI_TX,
				    .state = ctx ? GDR_OFI_WAIT : GDR_OFI_UNSIG};
	x[1] =
	    (struct gdr_ofi_ctx){.ctx = ctx, .ep = ep, .seq = ep->tpost, .kind = GDR_OFI_TX_HALF};
	ep->tpost++;
	return x;
}

/* Slot x's operation cannot go out: it completes now with status, why its line. */
static void flush(struct gdr_xep *ep, struct gdr_ofi_ctx *x, int status, const char *why)
{
	snprintf(ep->d->err[GDR_XCQ_SEND], GDR_OFI_ERR, "ofi: %s: %s", prov(ep), why);
	gdr_ofi_tx_done(ep, x, status);
}

/*
 * Post one operation in send slot x (take): x[0] its context, or, for a
 * write with data sent as write + send, the send's (x[1] the write's); kind
 * and data are after any LAST patch.
 */
static int post_one(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op, uint8_t kind,
		    uint32_t data, uint64_t flags, struct gdr_ofi_ctx *x)
{
	struct gdr_xdom *d = ep->d;
	struct iovec iov = {.iov_base = mr->base + op->loff, .iov_len = op->len};
	struct fi_rma_iov rma = {.len = op->len, .key = ep->rem.key};
	struct fi_msg_rma rm = {.msg_iov = &iov,
				.desc = &mr->desc,
				.iov_count = 1,
				.addr = ep->peer,
				.rma_iov = &rma,
				.rma_iov_count = 1,
				.context = x,
				.data = data};
	struct fi_msg m = {.msg_iov = &iov,
			   .desc = &mr->desc,
			   .iov_count = 1,
			   .addr = ep->peer,
			   .context = x,
			   .data = data};
	bool split = kind == GDR_XOP_WRITE_DATA && !d->rx_cq_data;
	ssize_t rc;

	rma.addr = (d->mr_mode & FI_MR_VIRT_ADDR) ? ep->rem.addr + op->roff : op->roff;
	x[0].len = x[1].len = op->len;
	if (ep->broken) {
		/* as a verbs QP in error: the operation completes flushed; its line names the
		 * failure that broke the endpoint (the queue's line is the last failure's, and
		 * the engine may report this one first) */
		snprintf(
		    d->err[GDR_XCQ_SEND], GDR_OFI_ERR,
		    "operation flushed: the endpoint failed before: %.*s",
		    (int)(GDR_OFI_ERR - sizeof("operation flushed: the endpoint failed before: ")),
		    ep->why);
		gdr_ofi_tx_done(ep, x, FI_ECANCELED);
		return 0;
	}
	/* a signalled write's completion means the peer took it, as a verbs RC completion does */
	if ((flags & FI_COMPLETION) && (kind == GDR_XOP_WRITE || kind == GDR_XOP_WRITE_DATA))
		flags |= FI_DELIVERY_COMPLETE;
	else if (op->inline_ok && op->len <= d->inject_size && kind != GDR_XOP_READ)
		flags |= FI_INJECT;
	if (kind == GDR_XOP_WRITE_DATA || kind == GDR_XOP_SEND_DATA)
		flags |= FI_REMOTE_CQ_DATA;
	if (split) {
		/* the write, unsignalled; then its data in a send of no bytes, after it */
		rm.context = &x[1];
		rc = submit(ep, GDR_XOP_WRITE, &rm, &m, (flags & FI_INJECT) | FI_MORE);
		if (!rc) {
			iov.iov_len = 0; /* one empty iov: ofi_rxd faults on none */
			if (d->cq_data_size >= 8)
				m.data = (uint64_t)op->len << 32 | data;
			rc = submit(ep, GDR_XOP_SEND_DATA, &rm, &m,
				    flags & (FI_COMPLETION | FI_MORE | FI_REMOTE_CQ_DATA));
		}
	} else {
		rc = submit(ep, kind, &rm, &m, flags);
	}
	if (rc == -FI_ETIMEDOUT) {
		char why[120];

		snprintf(why, sizeof(why),
			 "the provider took no operation for %.1f s (the peer is gone or does not "
			 "progress; the bound: --timeout, at least 5 s)",
			 (double)d->stuck_ms / 1000);
		flush(ep, x, FI_ETIMEDOUT, why);
		return 0;
	}
	if (rc) {
		x->state = GDR_OFI_UNSIG; /* refused: no completion will come */
		gdr_err("ofi: %s: cannot post operation %u of %u bytes: %s", prov(ep), kind,
			op->len, d->api->fi_strerror((int)-rc));
		return -1;
	}
	return 0;
}

int gdr_ofi_prep(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *ops, uint32_t n)
{
	struct gdr_xop *o;

	for (uint32_t k = 0; k < n; k++)
		if (check(ep, mr, &ops[k]))
			return -1;
	o = malloc((n ? n : 1) * sizeof(*o));
	if (!o) {
		gdr_err("ofi: out of memory");
		return -1;
	}
	memcpy(o, ops, n * sizeof(*o));
	free(ep->ops);
	ep->ops = o;
	ep->n = n;
	ep->mr = mr;
	return 0;
}

int gdr_ofi_post(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		 unsigned int flags, uint32_t last_data)
{
	uint32_t at = first;

	if (n && (!ep->n || first >= ep->n)) {
		gdr_err("ofi: post of entry %u in a ring of %u", first, ep->n);
		return -1;
	}
	for (uint32_t k = 0; k < n; k++) {
		const struct gdr_xop *op = &ep->ops[at];
		uint8_t kind = op->kind;
		uint32_t data = op->data;
		uint64_t f = sig[k] ? FI_COMPLETION : 0;

		if (k + 1 < n)
			f |= FI_MORE;
		if (k + 1 == n && (flags & GDR_XP_LAST)) {
			data = last_data;
			if (kind == GDR_XOP_SEND)
				kind = GDR_XOP_SEND_DATA;
		}
		struct gdr_ofi_ctx *x = take(ep, sig[k]);

		if (!x || post_one(ep, ep->mr, op, kind, data, f, x))
			return -1;
		at = at + 1 == ep->n ? 0 : at + 1;
	}
	return 0;
}

int gdr_ofi_post_op(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op, uint64_t ctx)
{
	struct gdr_ofi_ctx *x;

	if (check(ep, mr, op) || !(x = take(ep, ctx)))
		return -1;
	return post_one(ep, mr, op, op->kind, op->data, ctx ? FI_COMPLETION : 0, x);
}

int gdr_ofi_post_recv(struct gdr_xep *ep, struct gdr_xmr *mr, uint64_t off, uint32_t len,
		      uint32_t n, uint64_t ctx)
{
	struct iovec iov = {.iov_base = mr->base + off, .iov_len = len};
	struct fi_msg m = {
	    .msg_iov = &iov, .desc = &mr->desc, .iov_count = 1, .addr = FI_ADDR_UNSPEC};
	struct gdr_ofi_ctx *x;
	long long end;
	ssize_t rc;

	if (off + len > mr->len) {
		gdr_err("ofi: a receive of %u bytes at %llu ends past its region (%zu bytes)", len,
			(unsigned long long)off, mr->len);
		return -1;
	}
	for (uint32_t k = 0; k < n; k++) {
		if (ep->posted == ep->rx_depth) {
			gdr_err("ofi: more than %u receives posted on endpoint %u", ep->rx_depth,
				ep->index);
			return -1;
		}
		x = &ep->pctx[ep->phead];
		*x = (struct gdr_ofi_ctx){.ctx = ctx, .ep = ep, .len = len, .kind = GDR_OFI_RX};
		m.context = x;
		end = 0;
		while ((rc = fi_recvmsg(ep->ep, &m, 0)) == -FI_EAGAIN)
			if (!wait_room(ep->d, &end)) {
				rc = -FI_ETIMEDOUT;
				break;
			}
		if (rc) {
			gdr_err("ofi: %s: cannot post a receive of %u bytes: %s", prov(ep), len,
				ep->d->api->fi_strerror((int)-rc));
			return -1;
		}
		ep->phead = ep->phead + 1 == ep->rx_depth ? 0 : ep->phead + 1;
		ep->posted++;
	}
	return 0;
}
