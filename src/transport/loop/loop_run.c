/* SPDX-License-Identifier: MIT */
/*
 * One operation of an endpoint's queue against the peer (loop.h): the checks
 * a NIC makes (the local range, the peer's key, access and range), the copy
 * into or out of the peer, and for a send or a write with data the receive
 * it consumes and the completion delivered to the peer, after the payload.
 */
#include "config.h"
#include <errno.h>
#include <sys/uio.h>
#include "loop.h"

bool gdr_loop_cq_push(struct gdr_xdom *d, bool recv, const struct gdr_xcqe *e)
{
	struct gdr_xcqe *q = recv ? d->rerr : d->scq;
	uint32_t head = recv ? d->rerr_head : d->scq_head;
	uint32_t *len = recv ? &d->rerr_len : &d->scq_len;

	if (*len == d->cq_cap) {
		d->overrun = true;
		return false;
	}
	q[(head + *len) % d->cq_cap] = *e;
	(*len)++;
	return true;
}

/*
 * The peer's registration the op's key names (the path's region's, or the op's own), if it
 * grants acc over [addr, addr + len).
 */
static bool remote_ok(const struct gdr_xep *ep, const struct gdr_xop *op, unsigned int acc)
{
	uint64_t key = op->rkey_set ? op->rkey : ep->rem.key, slot = (key & 0xffffffffu) - 1;
	uint64_t a = ep->rem.addr + op->roff;
	uint32_t len = op->len;
	const struct gdr_loop_reg *r;

	if (!(key & 0xffffffffu) || slot >= ep->ptab->n)
		return false;
	r = &ep->ptab->r[slot];
	if (atomic_load_explicit(&r->key, memory_order_acquire) != key || !(r->access & acc))
		return false;
	if (a < ep->rem.addr || a < r->addr || len > r->len)
		return false;
	return a - r->addr <= r->len - len;
}

/* Copy len bytes between local and the peer's remote address: a status. */
static int copy(struct gdr_xep *ep, void *local, uint64_t remote, uint32_t len, bool to_peer)
{
	struct iovec l = {.iov_base = local, .iov_len = len};
	struct iovec r = {.iov_base = (void *)(uintptr_t)remote, .iov_len = len};
	ssize_t n;

	if (!len)
		return GDR_LOOP_OK;
	n = to_peer ? process_vm_writev(ep->pid, &l, 1, &r, 1, 0)
		    : process_vm_readv(ep->pid, &l, 1, &r, 1, 0);
	if (n == (ssize_t)len)
		return GDR_LOOP_OK;
	if (n < 0 && errno == ESRCH) {
		ep->peer_gone = true;
		return GDR_LOOP_E_PEER;
	}
	ep->d->last_errno = n < 0 ? errno : EFAULT; /* a short copy: a page the peer lacks */
	return GDR_LOOP_E_COPY;
}

/* The peer's next posted receive, or NULL when it has posted none. */
static struct gdr_loop_rwr *next_recv(struct gdr_xep *ep)
{
	struct gdr_loop_box *b = ep->pbox;
	uint32_t head = atomic_load_explicit(&b->rq_head, memory_order_relaxed);

	if (atomic_load_explicit(&b->rq_tail, memory_order_acquire) == head)
		return NULL;
	return &GDR_LOOP_RQ(b)[head % b->cap];
}

/* Consume the peer's receive w with a completion of status st (after the payload). */
static void deliver(struct gdr_xep *ep, const struct gdr_loop_rwr *w, const struct gdr_xop *op,
		    int st)
{
	struct gdr_loop_box *b = ep->pbox;
	uint32_t tail = atomic_load_explicit(&b->cq_tail, memory_order_relaxed);
	bool data = op->kind == GDR_XOP_WRITE_DATA || op->kind == GDR_XOP_SEND_DATA;
	struct gdr_loop_rcqe *c = &GDR_LOOP_CQ(b)[tail % b->cap];

	*c = (struct gdr_loop_rcqe){
	    .ctx = w->ctx,
	    .len = op->len,
	    .data = data ? op->data : 0,
	    .flags = (uint16_t)(GDR_XCQE_RECV | (data ? GDR_XCQE_DATA : 0)),
	    .status = (int16_t)st,
	};
	atomic_fetch_add_explicit(&b->rq_head, 1, memory_order_release);
	atomic_store_explicit(&b->cq_tail, tail + 1, memory_order_release);
}

/* Every local entry of op (one, or nsge of len / nsge bytes: --sge) inside mr. */
static bool local_ok(const struct gdr_xmr *mr, const struct gdr_xop *op)
{
	uint32_t n = op->nsge > 1 ? op->nsge : 1, len = op->len / n;

	if (!mr || (n > 1 && op->len % n))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t at = op->loff + i * op->sge_stride;

		if (at > mr->len || len > mr->len - at)
			return false;
	}
	return true;
}

/* A write or read of nsge local entries: entry i and bytes [i x len / n, ...) of the range. */
static int copy_sges(struct gdr_xep *ep, const struct gdr_xmr *mr, const struct gdr_xop *op,
		     bool rd)
{
	uint32_t len = op->len / op->nsge;
	int st = GDR_LOOP_OK;

	for (uint32_t i = 0; i < op->nsge && st == GDR_LOOP_OK; i++)
		st = copy(ep, (void *)(uintptr_t)(mr->addr + op->loff + i * op->sge_stride),
			  ep->rem.addr + op->roff + (uint64_t)i * len, len, !rd);
	return st;
}

int gdr_loop_run(struct gdr_xep *ep, const struct gdr_loop_pend *p, bool *wait)
{
	const struct gdr_xop *op = &p->op;
	const struct gdr_xmr *mr = p->mr;
	bool rd = op->kind == GDR_XOP_READ;
	bool send = op->kind == GDR_XOP_SEND || op->kind == GDR_XOP_SEND_DATA;
	bool notify = send || op->kind == GDR_XOP_WRITE_DATA;
	struct gdr_loop_rwr *w = NULL;
	void *local;
	int st;

	*wait = false;
	if (!ep->pbox || !gdr_loop_peer_alive(ep))
		return GDR_LOOP_E_PEER;
	if (!local_ok(mr, op) || (rd && !(mr->access & GDR_XA_LOCAL_WRITE)))
		return GDR_LOOP_E_LOCAL_PROT;
	local = p->inl ? (void *)p->inl : (void *)(uintptr_t)(mr->addr + op->loff);
	if (!send && !remote_ok(ep, op, rd ? GDR_XA_REMOTE_READ : GDR_XA_REMOTE_WRITE))
		return GDR_LOOP_E_REMOTE_ACCESS;
	if (notify) {
		w = next_recv(ep);
		if (!w) {
			*wait = true; /* receiver not ready: the caller retries, then fails */
			return GDR_LOOP_OK;
		}
	}
	if (send && op->len > w->len) {
		deliver(ep, w, op, GDR_LOOP_E_LEN);
		return GDR_LOOP_E_LEN;
	}
	if (op->nsge > 1 && !send) /* --sge: each local entry to (or from) its part of the range */
		st = copy_sges(ep, mr, op, rd);
	else
		st = copy(ep, local, send ? w->addr : ep->rem.addr + op->roff, op->len, !rd);
	if (notify)
		deliver(ep, w, op, st);
	return st;
}
