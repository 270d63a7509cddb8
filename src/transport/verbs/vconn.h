/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's handles of one connection (c->v) and of its paths
 * (gdr_vp(c, p)): what struct gdr_conn holds only as an opaque pointer, so
 * that no layer above sees a verbs header. Only src/transport/verbs includes
 * this.
 */
#ifndef GDR_VCONN_H
#define GDR_VCONN_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include "conn.h"

/* A QP's address as its blob carries it (verbs_ctl.c encodes and decodes it). */
struct gdr_qp_wire {
	uint32_t qpn, psn; /* 24-bit each */
	uint16_t lid;
	uint8_t gid[16];
};

/* Path p's MR and QPs (p = &c->path[k]: c->v->path[k]). */
struct gdr_vpath {
	struct ibv_mr *mr;
	struct ibv_qp *qp[GDR_MAX_QPS];
	uint32_t psn[GDR_MAX_QPS];
	struct rdma_cm_id *cm_id[GDR_MAX_QPS];
	struct ibv_ah *ah[GDR_MAX_QPS];	      /* -c UD: the address of the peer's QP i */
	struct gdr_qp_wire peer[GDR_MAX_QPS]; /* p->remote.ep[i]'s blob, decoded */
};

struct gdr_vconn {
	struct ibv_context *vctx; /* ours (ibv_open_device) or the CM's */
	bool own_vctx;
	struct ibv_pd *pd;     /* memory registrations */
	struct ibv_pd *qpd;    /* QPs: the parent domain when a thread domain exists, else pd */
	struct ibv_td *td;     /* thread domain (tdomain.c), or NULL */
	struct ibv_pd *parent; /* parent domain holding td, or NULL */
	struct ibv_cq *scq, *rcq;
	struct ibv_comp_channel *cch; /* -e: both CQs' completion channel, else NULL */
	union ibv_gid gid;
	struct ibv_port_attr pattr;
	enum ibv_mtu mtu;
	/* rdma_cm (-R) */
	struct rdma_event_channel *ec;
	struct rdma_cm_id *listen_id;
	struct gdr_vpath path[GDR_MAX_PATHS];
};

/* c->v, allocated (zeroed) when it is not yet: 0, or -1 with one line. */
int gdr_vconn_get(struct gdr_conn *c);
/* Free c->v (its handles already closed: gdr_verbs_close); NULL after. */
void gdr_vconn_put(struct gdr_conn *c);

/* The verbs handles of path p of c (c->v must exist). */
static inline struct gdr_vpath *gdr_vp(const struct gdr_conn *c, const struct gdr_path *p)
{
	return &c->v->path[p - c->path];
}

#endif
