/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's side of the seam (xport.h): its objects and the
 * functions its ops table (verbs_xp.c) is made of. Only transport/ sees this.
 *
 * For now a verbs domain is the connection's device, PD and CQs (the fields
 * of struct gdr_conn), an endpoint one QP of a path with its ring of work
 * requests, a region one ibv_mr. The control ops live in verbs_ctl.c, the
 * data path in verbs_data.c, registration in verbs_reg.c.
 */
#ifndef GDR_VERBS_XP_H
#define GDR_VERBS_XP_H

#include <infiniband/verbs.h>
#include "conn.h"
#include "xport.h"

struct gdr_xdom {
	struct gdr_conn *c; /* the device, PD, CQs and completion channel */
	/* poll: the last QP number seen and its endpoint index (most completions repeat it) */
	uint32_t hit_qpn;
	uint16_t hit_ep;
	uint32_t err_qpn; /* the QP of the last failed completion, for cqe_error */
};

struct gdr_xmr {
	struct ibv_mr *mr;
	bool own; /* deregistered by dereg (else the path's, freed with it) */
};

struct gdr_xep {
	struct gdr_xdom *d;
	struct gdr_path *p; /* the path whose QP q this is */
	uint32_t q;
	struct ibv_qp *qp;
	uint16_t index; /* reported in gdr_xcqe.ep */
	struct gdr_xremote rem;
	/* the ring of the current size (prep), patched by post */
	struct ibv_send_wr *wr;
	struct ibv_sge *sge;
	uint32_t n;
	unsigned int flags; /* send_flags of an unsignalled entry (inline) */
	/* the entry a LAST post marked (UINT32_MAX: none), restored by the next post */
	uint32_t marked;
	enum ibv_wr_opcode marked_op;
	uint32_t marked_imm;
};

extern const struct gdr_xport_ops gdr_xport_verbs;

/* verbs_data.c: the hot path */
int gdr_vx_prep(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *ops, uint32_t n);
int gdr_vx_post(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		unsigned int flags, uint32_t last_data);
int gdr_vx_post_op(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op,
		   uint64_t ctx);
int gdr_vx_post_recv(struct gdr_xep *ep, struct gdr_xmr *mr, uint64_t off, uint32_t len,
		     uint32_t n, uint64_t ctx);
int gdr_vx_poll(struct gdr_xdom *d, enum gdr_xcq cq, struct gdr_xcqe *e, int max);
int gdr_vx_wait(struct gdr_xdom *d, int max_ms);
int gdr_vx_cqe_error(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what);
/* One operation as a work request and its SGE on ep (the ring's entries and post_op's). */
void gdr_vx_build(const struct gdr_xep *ep, const struct gdr_xmr *mr, const struct gdr_xop *op,
		  struct ibv_send_wr *wr, struct ibv_sge *sge);

#endif
