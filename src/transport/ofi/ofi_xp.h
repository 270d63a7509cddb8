/* SPDX-License-Identifier: MIT */
/*
 * The libfabric transport's side of the seam (xport.h): a domain is one
 * fi_info's fabric, domain, address vector and two completion queues (sends,
 * receives), an endpoint one FI_EP_RDM endpoint talking to one peer address,
 * a region one fid_mr. Only transport/ofi sees this.
 *
 * Every operation carries a context the transport owns (mode FI_CONTEXT and
 * FI_CONTEXT2): two per send slot (tx_depth slots per endpoint, taken in
 * post order by ring posts and one-off operations alike), one per posted
 * receive. A write with data consumes one of the peer's receives, as
 * in verbs: natively where the provider says FI_RX_CQ_DATA, else as the
 * write followed by a send of no bytes carrying the data (FI_ORDER_SAW puts
 * it after the write), whose 64-bit data also carries the write's length.
 * Files: ofi_dom.c (open, close, the link), ofi_reg.c, ofi_ep.c,
 * ofi_post.c (prep, post, post_op, post_recv), ofi_cq.c (poll, cqe_error).
 */
#ifndef GDR_OFI_XP_H
#define GDR_OFI_XP_H

#include <stdbool.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include "ofi_api.h"
#include "xport.h"

/* What the transport can do (ofi_xp.c's table); an opened provider's link may say less. */
#ifdef FI_MR_DMABUF
#define GDR_OFI_XCAPS_DMABUF GDR_XC_DMABUF
#else
#define GDR_OFI_XCAPS_DMABUF 0u
#endif
#define GDR_OFI_XCAPS                                                                              \
	(GDR_XC_WRITE | GDR_XC_READ | GDR_XC_SEND | GDR_XC_WRITE_DATA | GDR_XC_HMEM |              \
	 GDR_XC_INLINE | GDR_OFI_XCAPS_DMABUF)

enum gdr_ofi_ctx_kind {
	GDR_OFI_TX = 0,
	GDR_OFI_RX = 1,
	GDR_OFI_TX_HALF = 2, /* a slot's second context: the write before its data's send */
};

/* A send slot's state: its completion is released in post order (ofi_cq.c). */
enum gdr_ofi_state {
	GDR_OFI_UNSIG = 0, /* unsignalled (or released): nothing to give back */
	GDR_OFI_WAIT,	   /* signalled, in flight */
	GDR_OFI_DONE,	   /* completed (status), waiting for the slots before it */
};

/* A context given to libfabric: fc first, so op_context is this. */
struct gdr_ofi_ctx {
	struct fi_context2 fc;
	uint64_t ctx; /* the caller's: gdr_xcqe.ctx */
	struct gdr_xep *ep;
	uint32_t len;
	uint32_t seq;	/* send slots: the post's number (gdr_xep.tpost) */
	int16_t status; /* send slots: the completion's status */
	uint8_t kind;	/* enum gdr_ofi_ctx_kind */
	uint8_t state;	/* send slots: enum gdr_ofi_state */
};

struct gdr_xmr {
	struct gdr_xdom *d;
	struct fid_mr *mr;
	void *desc; /* fi_mr_desc: every local buffer passes it */
	char *base;
	size_t len;
	bool bound; /* FI_MR_ENDPOINT: bound to the domain's first endpoint */
	struct gdr_xmr *next;
};

#define GDR_OFI_ERR 200
/*
 * The bound of every retry loop (a post the provider keeps answering
 * -FI_EAGAIN): past it the operation fails (a completion with an error).
 * The run's --timeout when longer (gdr_xdom.stuck_ms): verbs;ofi_rxm's first
 * operation waits for rxm's connection, more than 5 s in a loaded TCG VM.
 */
#define GDR_OFI_STUCK_MS 5000

/* Completions ready for poll (released in post order, or read while a post waited). */
struct gdr_ofi_stash {
	struct gdr_xcqe *e;
	uint32_t head, count, cap;
};

struct gdr_xdom {
	const struct gdr_ofi_api *api;
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_av *av;
	struct fid_cq *cq[2]; /* enum gdr_xcq */
	uint64_t mr_mode;     /* the provider's FI_MR_* bits */
	bool hmem;	      /* opened with FI_HMEM */
	bool rx_cq_data;      /* mode FI_RX_CQ_DATA: remote data consumes a posted receive */
	size_t cq_data_size;
	size_t inject_size;
	uint64_t next_key; /* keys the transport chooses (no FI_MR_PROV_KEY) */
	struct gdr_xmr *mrs;
	struct gdr_xep **eps; /* the open ones, a slot each (ofi_ep.c keep) */
	uint32_t neps;
	struct gdr_ofi_stash stash[2];
	char err[2][GDR_OFI_ERR]; /* the last failed completion's line, per queue */
	long long stuck_ms;	  /* the retry loops' bound: GDR_OFI_STUCK_MS, or --timeout */
	/* 1u << GDR_XMEM_CUDA/ROCM: the GPU kinds this library registers (gdr_ofi_gpu_kinds) */
	unsigned int gpu_kinds;
};

struct gdr_xep {
	struct gdr_xdom *d;
	struct fid_ep *ep;
	uint16_t index;
	uint16_t peer_index; /* the peer endpoint's index: a write's remote data names it */
	fi_addr_t peer;
	bool connected;
	struct gdr_xremote rem;
	uint32_t tx_depth, rx_depth;
	bool broken; /* an operation failed: later ones fail at once, receives were cancelled */
	char why[GDR_OFI_ERR]; /* broken: the line of the failure that broke it */
	/* the ring of the current size (prep) */
	struct gdr_xmr *mr;
	struct gdr_xop *ops;
	uint32_t n;
	/*
	 * Send slots, tx_depth of them (2 contexts each: the operation, a
	 * write's data send), taken in post order by post and post_op: slot
	 * tpost % tx_depth is the next, tdone the oldest not yet released.
	 * Completions are given back from tdone on, so in post order.
	 */
	struct gdr_ofi_ctx *tx;
	uint32_t tpost, tdone;
	/* receives: contexts used round (completed in posted order), how many are posted */
	struct gdr_ofi_ctx *pctx;
	uint32_t phead, posted;
};

extern const struct gdr_xport_ops gdr_xport_ofi;

/* ofi_dom.c */
int gdr_ofi_open(struct gdr_xdom **d, const struct gdr_xdom_cfg *cfg, struct gdr_xlink *link);
void gdr_ofi_close(struct gdr_xdom *d);
/* ofi_reg.c */
int gdr_ofi_reg(struct gdr_xdom *d, const struct gdr_xmem *m, unsigned int access,
		struct gdr_xmr **mr, const char **method);
uint64_t gdr_ofi_key(const struct gdr_xmr *mr);
void gdr_ofi_dereg(struct gdr_xmr *mr);
int gdr_ofi_mr_bind(struct gdr_xdom *d, struct gdr_xep *ep);
/* With FI_HMEM: the GPU memory kinds the library registers (1u << enum gdr_xmem_kind). */
unsigned int gdr_ofi_gpu_kinds(struct gdr_xdom *d);
/* ofi_ep.c */
int gdr_ofi_ep_open(struct gdr_xdom *d, const struct gdr_xep_cfg *cfg, struct gdr_xep **ep);
size_t gdr_ofi_addr(struct gdr_xep *ep, void *buf, size_t cap);
int gdr_ofi_connect(struct gdr_xep *ep, const void *blob, size_t len,
		    const struct gdr_xremote *rem);
void gdr_ofi_ep_close(struct gdr_xep *ep);
/* ofi_post.c */
int gdr_ofi_prep(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *ops, uint32_t n);
int gdr_ofi_post(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		 unsigned int flags, uint32_t last_data);
int gdr_ofi_post_op(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op, uint64_t ctx);
int gdr_ofi_post_recv(struct gdr_xep *ep, struct gdr_xmr *mr, uint64_t off, uint32_t len,
		      uint32_t n, uint64_t ctx);
/* ofi_cq.c */
int gdr_ofi_poll(struct gdr_xdom *d, enum gdr_xcq cq, struct gdr_xcqe *e, int max);
int gdr_ofi_cqe_error(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what);
/* Read completions into the stash (a post found no room): 0, or -1 (printed). */
int gdr_ofi_drain(struct gdr_xdom *d);
/* Send slot x ended with status (0 ok, else an errno; its line in d->err[SEND]). */
void gdr_ofi_tx_done(struct gdr_xep *ep, struct gdr_ofi_ctx *x, int status);
/* Release the endpoint's slots from the oldest on while done or unsignalled. */
void gdr_ofi_release(struct gdr_xep *ep);
/* The endpoint failed: later posts fail at once, its posted receives are cancelled. */
void gdr_ofi_break(struct gdr_xep *ep);

#endif
