/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's side of the seam (xport.h): its objects and the
 * functions its ops table (verbs_xp.c) is made of. Only transport/ sees this.
 *
 * For now a verbs domain is the connection's device, PD and CQs (c->v,
 * vconn.h), an endpoint one QP of a path with its ring of work
 * requests, a region one ibv_mr. The control ops live in verbs_ctl.c, the
 * data path in verbs_data.c, registration in verbs_reg.c.
 */
#ifndef GDR_VERBS_XP_H
#define GDR_VERBS_XP_H

#include <infiniband/verbs.h>
#include "vconn.h"
#include "verbs_api.h"
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
	/* the ring of the current size (prep: linked in a circle), patched by post */
	struct ibv_send_wr *wr;
	struct ibv_sge *sge;
	uint32_t n;
	unsigned int flags; /* send_flags of an unsignalled entry (inline) */
	/* the previous post's patches, undone by the next post: its signalled entries, */
	struct ibv_send_wr **sigd;
	uint32_t nsigd;
	struct ibv_send_wr *cut, *cut_next; /* the entry whose link it cut, and the link */
	/* the entry a LAST post marked (NULL: none), restored by the next post */
	struct ibv_send_wr *marked;
	enum ibv_wr_opcode marked_op;
	uint32_t marked_imm;
};


/* verbs_reg.c: memory's export registered (verbs_reg.h has the parts) */
int gdr_vx_reg(struct gdr_xdom *d, const struct gdr_xmem *m, unsigned int access,
	       struct gdr_xmr **mr, const char **method);
uint64_t gdr_vx_key(const struct gdr_xmr *mr);
void gdr_vx_dereg(struct gdr_xmr *mr);

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
/* One operation as a work request and its SGEs (op->nsge, at least 1, into sge[]) on ep (the
 * ring's entries and post_op's). */
void gdr_vx_build(const struct gdr_xep *ep, const struct gdr_xmr *mr, const struct gdr_xop *op,
		  struct ibv_send_wr *wr, struct ibv_sge *sge);

/* verbs_ctl.c: the control ops. The address blob: qpn u32, psn u32, lid u16, gid[16]. */
#define GDR_VX_ADDR_LEN 26
size_t gdr_vx_addr_encode(const struct gdr_qp_wire *a, void *buf, size_t cap); /* 0: bad */
/* 0, or -1 with why (the blob's length or a field beyond 24 bits). */
int gdr_vx_addr_decode(const void *blob, size_t len, struct gdr_qp_wire *a, char *why, size_t n);
/* Path p's QP q's blob (QPINFO, before an endpoint object exists); its length, 0 on error. */
size_t gdr_vx_path_addr(const struct gdr_conn *c, const struct gdr_path *p, uint32_t q, void *buf,
			size_t cap);
size_t gdr_vx_addr(struct gdr_xep *ep, void *buf, size_t cap);

/* verbs_link.c: the link's facts (c->link) from the port, filled when the port is set up. */
double gdr_vx_rate_gbps(unsigned speed, unsigned width); /* active_speed x width; 0 unknown */
unsigned gdr_vx_port_speed(const struct ibv_port_attr *a); /* active_speed_ex where it exists */
/* Bytes each packet adds on the wire by link layer; parts (may be NULL): what they are. */
uint32_t gdr_vx_wire_overhead(bool ethernet, bool ipv6, bool grh, char *parts, size_t n);
void gdr_vx_link_fill(struct gdr_conn *c); /* after the port's MTU and GID are known */
void gdr_vx_link_mtu(struct gdr_conn *c);  /* again when the path MTU changes (c->mtu) */
/* The peer's blob into ep's path; with its path's last QP, the QPs to RTS (gdr_qps_connect). */
int gdr_vx_connect(struct gdr_xep *ep, const void *blob, size_t len, const struct gdr_xremote *rem);

#endif
