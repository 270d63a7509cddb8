/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's hot path (xport.h, verbs_xp.h). prep builds an
 * endpoint's ring of work requests and SGEs once per size from the
 * operations, its links closed into a circle; a post patches only what
 * differs from that: its signalled entries (send_flags, wr_id), its last
 * entry's link (cut) and marker, each undone by the next post, and posts
 * the chain with one ibv_post_send. Polls turn work completions into struct
 * gdr_xcqe.
 */
#include "config.h"
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "verbs.h"
#include "verbs_xp.h"

#define RECV_BATCH 32
#define POLL_BATCH 64

static const enum ibv_wr_opcode opcode_of[] = {
    [GDR_XOP_WRITE] = IBV_WR_RDMA_WRITE,	 [GDR_XOP_WRITE_DATA] = IBV_WR_RDMA_WRITE_WITH_IMM,
    [GDR_XOP_READ] = IBV_WR_RDMA_READ,		 [GDR_XOP_SEND] = IBV_WR_SEND,
    [GDR_XOP_SEND_DATA] = IBV_WR_SEND_WITH_IMM,	 [GDR_XOP_FADD] = IBV_WR_ATOMIC_FETCH_AND_ADD,
    [GDR_XOP_CSWAP] = IBV_WR_ATOMIC_CMP_AND_SWP,
};

void gdr_vx_build(const struct gdr_xep *ep, const struct gdr_xmr *mr, const struct gdr_xop *op,
		  struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	uint64_t raddr = ep->rem.addr + op->roff;
	uint32_t rkey = (uint32_t)(op->rkey_set ? op->rkey : ep->rem.key);

	uint32_t nsge = op->nsge > 1 ? op->nsge : 1;

	for (uint32_t i = 0; i < nsge; i++) /* --sge: scattered local blocks, one remote range */
		sge[i] = (struct ibv_sge){
		    .addr = (uintptr_t)mr->mr->addr + op->loff + i * op->sge_stride,
		    .length = op->len / nsge,
		    .lkey = mr->mr->lkey,
		};
	*wr = (struct ibv_send_wr){
	    .sg_list = sge,
	    .num_sge = op->len ? (int)nsge : 0,
	    .opcode = opcode_of[op->kind],
	    .imm_data = htonl(op->data),
	};
	if (op->inline_ok && op->len <= ep->p->inline_max)
		wr->send_flags = IBV_SEND_INLINE;
	switch (op->kind) {
	case GDR_XOP_SEND:
	case GDR_XOP_SEND_DATA:
		gdr_wr_ud(ep->d->c, ep->p, ep->q, wr); /* -c UD: the peer's QP q; else nothing */
		break;
	case GDR_XOP_FADD:
	case GDR_XOP_CSWAP:
		wr->wr.atomic.remote_addr = raddr;
		wr->wr.atomic.rkey = rkey;
		wr->wr.atomic.compare_add = op->kind == GDR_XOP_CSWAP ? op->cmp : op->add_swap;
		wr->wr.atomic.swap = op->kind == GDR_XOP_CSWAP ? op->add_swap : 0;
		break;
	default:
		wr->wr.rdma.remote_addr = raddr;
		wr->wr.rdma.rkey = rkey;
		break;
	}
}

/* Local entries of the most scattered operation (--sge), at least 1. */
static uint32_t most_sge(const struct gdr_xop *ops, uint32_t n)
{
	uint32_t most = 1;

	for (uint32_t k = 0; k < n; k++)
		if (ops[k].nsge > most)
			most = ops[k].nsge;
	return most;
}

int gdr_vx_prep(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *ops, uint32_t n)
{
	uint32_t m = n ? n : 1, w = most_sge(ops, n);

	free(ep->wr);
	free(ep->sge);
	free(ep->sigd);
	ep->wr = calloc(m, sizeof(*ep->wr));
	ep->sge = calloc((size_t)m * w, sizeof(*ep->sge));
	ep->sigd = calloc(m, sizeof(*ep->sigd));
	ep->n = 0;
	ep->nsigd = 0;
	ep->cut = NULL;
	ep->marked = NULL;
	if (!ep->wr || !ep->sge || !ep->sigd) {
		free(ep->wr);
		free(ep->sge);
		free(ep->sigd);
		ep->wr = NULL;
		ep->sge = NULL;
		ep->sigd = NULL;
		gdr_err("out of memory for %u work requests", n);
		return -1;
	}
	for (uint32_t k = 0; k < n; k++)
		gdr_vx_build(ep, mr, &ops[k], &ep->wr[k], &ep->sge[(size_t)k * w]);
	for (uint32_t k = 0; k < m; k++)
		ep->wr[k].next = &ep->wr[k + 1 == m ? 0 : k + 1];
	/* "the previous post's end": a link already in place, so the first post restores nothing */
	ep->cut = &ep->wr[m - 1];
	ep->cut_next = ep->cut->next;
	ep->n = n;
	return 0;
}

__attribute__((cold, noinline)) static int post_failed(struct gdr_xep *ep, int err)
{
	gdr_err("cannot post to QP %u: %s", ep->qp->qp_num, strerror(err));
	return -1;
}

static inline int post_chain(struct gdr_xep *ep, struct ibv_send_wr *first)
{
	struct ibv_send_wr *bad;
	int err = ibv_post_send(ep->qp, first, &bad);

	return err ? post_failed(ep, err) : 0;
}

/*
 * The final message of a size carries the LAST marker: its immediate says
 * last_data, a send gains one (SEND_WITH_IMM). The entry is restored at the
 * next post, so a ring entry posted again is what prep built.
 */
static void mark_last(struct gdr_xep *ep, struct ibv_send_wr *wr, uint32_t last_data)
{
	ep->marked = wr;
	ep->marked_op = wr->opcode;
	ep->marked_imm = wr->imm_data;
	wr->imm_data = htonl(last_data);
	if (wr->opcode == IBV_WR_SEND)
		wr->opcode = IBV_WR_SEND_WITH_IMM;
}

/* Undo the previous post's signals and marker (its cut link: the caller). */
__attribute__((noinline)) static void unpatch(struct gdr_xep *ep)
{
	for (uint32_t i = ep->nsigd; i > 0; i--) {
		struct ibv_send_wr *wr = ep->sigd[i - 1];

		wr->send_flags &= ~(unsigned int)IBV_SEND_SIGNALED;
		wr->wr_id = 0;
	}
	ep->nsigd = 0;
	if (ep->marked) {
		ep->marked->opcode = ep->marked_op;
		ep->marked->imm_data = ep->marked_imm;
		ep->marked = NULL;
	}
}

/* Signal the entries of the post whose sig is not 0, remembered for the next post's unpatch. */
__attribute__((noinline)) static void signal_some(struct gdr_xep *ep, uint32_t first, uint32_t n,
						  const uint64_t *sig)
{
	struct ibv_send_wr *wr = &ep->wr[first], *wrap = &ep->wr[ep->n], **sigd = ep->sigd;
	uint32_t ns = 0;

	for (uint32_t k = 0; k < n; k++, wr = wr + 1 == wrap ? ep->wr : wr + 1)
		if (sig[k]) {
			wr->send_flags |= IBV_SEND_SIGNALED;
			wr->wr_id = sig[k];
			sigd[ns++] = wr;
		}
	ep->nsigd = ns;
}

/* Out of the hot path: a post the ring cannot hold. */
__attribute__((cold, noinline)) static int refuse(uint32_t n, uint32_t first, uint32_t ring)
{
	gdr_err("post of %u entries from entry %u in a ring of %u", n, first, ring);
	return -1;
}

/*
 * Entries first..first+n-1 (wrapping): the previous post's patches undone,
 * then this one's: its signals (few: one in cq_mod; found by a pass that
 * only ORs, patched out of line), its end's link cut, its LAST marker.
 */
int gdr_vx_post(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		unsigned int flags, uint32_t last_data)
{
	struct ibv_send_wr *end;
	uint32_t ring = ep->n;
	uint64_t any = 0;

	if (n - 1 >= ring || first >= ring)
		return n ? refuse(n, first, ring) : 0;
	if (ep->nsigd || ep->marked)
		unpatch(ep);
	ep->cut->next = ep->cut_next;
	for (uint32_t k = 0; k < n; k++)
		any |= sig[k];
	if (any)
		signal_some(ep, first, n, sig);
	end = &ep->wr[first + n - 1 >= ring ? first + n - 1 - ring : first + n - 1];
	ep->cut = end;
	ep->cut_next = end->next;
	end->next = NULL;
	if (flags & GDR_XP_LAST)
		mark_last(ep, end, last_data);
	return post_chain(ep, &ep->wr[first]);
}

int gdr_vx_post_op(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op, uint64_t ctx)
{
	struct ibv_send_wr wr;
	struct ibv_sge sge[GDR_XOP_MAX_SGE];

	if (op->nsge > GDR_XOP_MAX_SGE) {
		gdr_err("an operation of %u local entries: at most %d", op->nsge, GDR_XOP_MAX_SGE);
		return -1;
	}
	gdr_vx_build(ep, mr, op, &wr, sge);
	wr.wr_id = ctx;
	if (ctx)
		wr.send_flags |= IBV_SEND_SIGNALED;
	return post_chain(ep, &wr);
}

int gdr_vx_post_recv(struct gdr_xep *ep, struct gdr_xmr *mr, uint64_t off, uint32_t len, uint32_t n,
		     uint64_t ctx)
{
	struct ibv_recv_wr wr[RECV_BATCH], *bad;
	struct ibv_sge sge = {
	    .addr = (uintptr_t)mr->mr->addr + off,
	    .length = len,
	    .lkey = mr->mr->lkey,
	};

	while (n > 0) {
		uint32_t k = n < RECV_BATCH ? n : RECV_BATCH;
		int err;

		for (uint32_t i = 0; i < k; i++)
			wr[i] = (struct ibv_recv_wr){
			    .wr_id = ctx,
			    .sg_list = &sge,
			    .num_sge = 1,
			    .next = i + 1 < k ? &wr[i + 1] : NULL,
			};
		err = ibv_post_recv(ep->qp, wr, &bad);
		if (err) {
			gdr_err("cannot post receives to QP %u: %s", ep->qp->qp_num, strerror(err));
			return -1;
		}
		n -= k;
	}
	return 0;
}

/* The endpoint index of QP qpn: its index in its path (every path's QP q is index q). */
static uint16_t ep_of(struct gdr_xdom *d, uint32_t qpn)
{
	const struct gdr_conn *c = d->c;

	if (qpn == d->hit_qpn)
		return d->hit_ep;
	for (uint32_t k = 0; k < c->npaths; k++)
		for (uint32_t q = 0; q < c->nqp; q++)
			if (c->path[k].ep[q] && c->path[k].ep[q]->qp->qp_num == qpn) {
				d->hit_qpn = qpn;
				d->hit_ep = c->path[k].ep[q]->index;
				return d->hit_ep;
			}
	return 0;
}

int gdr_vx_poll(struct gdr_xdom *d, enum gdr_xcq cq, struct gdr_xcqe *e, int max)
{
	struct ibv_wc wc[POLL_BATCH];
	int n = ibv_poll_cq(cq == GDR_XCQ_SEND ? d->c->v->scq : d->c->v->rcq,
			    max < POLL_BATCH ? max : POLL_BATCH, wc);

	if (n < 0) {
		gdr_err("cannot poll the %s completion queue",
			cq == GDR_XCQ_SEND ? "send" : "receive");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		bool imm = wc[i].wc_flags & IBV_WC_WITH_IMM;

		e[i] = (struct gdr_xcqe){
		    .ctx = wc[i].wr_id,
		    .len = wc[i].byte_len,
		    .data = imm ? ntohl(wc[i].imm_data) : 0,
		    .flags = (uint16_t)((imm ? GDR_XCQE_DATA : 0) |
					(wc[i].opcode & IBV_WC_RECV ? GDR_XCQE_RECV : 0)),
		    .status = (int16_t)wc[i].status,
		    .ep = ep_of(d, wc[i].qp_num),
		};
		if (wc[i].status != IBV_WC_SUCCESS) {
			d->err_qpn = wc[i].qp_num;
			e[i].flags = 0; /* opcode and flags are undefined in a failed completion */
		}
	}
	return n;
}

int gdr_vx_wait(struct gdr_xdom *d, int max_ms)
{
	return d->c->v->cch ? gdr_cq_wait(d->c, max_ms) : 0;
}

int gdr_vx_cqe_error(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what)
{
	struct ibv_wc wc = {
	    .wr_id = e->ctx,
	    .status = (enum ibv_wc_status)e->status,
	    .qp_num = d->err_qpn,
	};

	return gdr_wc_failed(&wc, what);
}
