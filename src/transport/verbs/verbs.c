/* SPDX-License-Identifier: MIT */
/* Verbs resources: device, port, GID, PD, CQs, QPs, MR, and the QP state machine. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "affinity.h"
#include "conn.h"
#include "dev_limits.h"
#include "log.h"
#include "nic_env.h"
#include "qp_attrs.h"
#include "verbs.h"
#include "verbs_reg.h"
#include "verbs_xp.h"
#include "dev_limits.h"

int gdr_wc_failed(const struct ibv_wc *wc, const char *what)
{
	bool dead = wc->status == IBV_WC_RETRY_EXC_ERR || wc->status == IBV_WC_RNR_RETRY_EXC_ERR;

	gdr_err("%s completion failed on QP %u: %s%s", what, wc->qp_num,
		ibv_wc_status_str(wc->status),
		dead ? " (the peer stopped answering: did it die?)" : "");
	return -1;
}

static int open_by_name(struct gdr_conn *c)
{
	struct ibv_device **list;
	struct ibv_device *dev = NULL;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		if (list)
			ibv_free_device_list(list);
		gdr_err("no RDMA device found (is the driver loaded? 'ibv_devices' lists devices; "
			"for Soft-RoCE: rdma link add rxe0 type rxe netdev <if>)");
		return -1;
	}
	if (!c->o->dev_name) {
		dev = list[0];
	} else {
		for (int i = 0; i < n && !dev; i++)
			if (!strcmp(ibv_get_device_name(list[i]), c->o->dev_name))
				dev = list[i];
	}
	if (!dev) {
		char names[256] = "";

		for (int i = 0; i < n; i++) {
			size_t l = strlen(names);

			snprintf(names + l, sizeof(names) - l, "%s%s", i ? ", " : "",
				 ibv_get_device_name(list[i]));
		}
		gdr_err("RDMA device '%s' not found (devices here: %s)", c->o->dev_name, names);
		ibv_free_device_list(list);
		return -1;
	}
	c->v->vctx = ibv_open_device(dev);
	if (!c->v->vctx) {
		gdr_err("cannot open RDMA device %s: %s", ibv_get_device_name(dev),
			strerror(errno));
		ibv_free_device_list(list);
		return -1;
	}
	c->v->own_vctx = true;
	ibv_free_device_list(list);
	return 0;
}

/*
 * The best GID: RoCEv2 with an IPv4-mapped address (an IPv6 one with --ipv6,
 * perftest's rule), else RoCEv2, else index 0.
 */
static int auto_gid(struct gdr_conn *c)
{
	int best = 0, best_score = -1;

	if (c->v->pattr.link_layer != IBV_LINK_LAYER_ETHERNET)
		return 0;
	for (int i = 0; i < c->v->pattr.gid_tbl_len; i++) {
		struct ibv_gid_entry e;
		int score;
		const uint8_t *r;

		if (ibv_query_gid_ex(c->v->vctx, c->port, i, &e, 0))
			continue;
		r = e.gid.raw;
		if (!memcmp(r, (uint8_t[16]){0}, 16))
			continue;
		score = e.gid_type == IBV_GID_TYPE_ROCE_V2 ? 2 : 0;
		if (!memcmp(r, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) != c->o->ipv6)
			score++;
		if (score > best_score) {
			best_score = score;
			best = i;
		}
	}
	return best;
}

int gdr_dev_setup_port(struct gdr_conn *c)
{
	struct ibv_device_attr da;

	snprintf(c->dev_name, sizeof(c->dev_name), "%s", ibv_get_device_name(c->v->vctx->device));
	if (ibv_query_device(c->v->vctx, &da)) {
		gdr_err("cannot query RDMA device %s", c->dev_name);
		return -1;
	}
	if (c->port > da.phys_port_cnt) {
		gdr_err("-i %d: device %s has %d port%s", c->port, c->dev_name, da.phys_port_cnt,
			da.phys_port_cnt == 1 ? "" : "s");
		return -1;
	}
	if (ibv_query_port(c->v->vctx, c->port, &c->v->pattr)) {
		gdr_err("cannot query port %d of %s", c->port, c->dev_name);
		return -1;
	}
	if (c->v->pattr.state != IBV_PORT_ACTIVE) {
		gdr_err("port %d of %s is not active (state %s): check the cable/link "
			"('ibv_devinfo -d %s')",
			c->port, c->dev_name, ibv_port_state_str(c->v->pattr.state), c->dev_name);
		return -1;
	}
	if (gdr_dev_refusal(&da, c->o)) {
		gdr_err("%s: %s", c->dev_name, gdr_dev_refusal(&da, c->o));
		return -1;
	}
	if (c->o->tx_depth > (uint32_t)da.max_qp_wr || c->o->rx_depth > (uint32_t)da.max_qp_wr) {
		gdr_err("-t/-r: %s supports at most %d work requests per queue", c->dev_name,
			da.max_qp_wr);
		return -1;
	}
	c->max_rd_atomic = gdr_outs_choose(c->o->outs, da.max_qp_rd_atom, da.max_qp_init_rd_atom);
	c->init_depth = c->max_rd_atomic; /* lowered to the peer's after the exchange */
	if (c->o->outs > c->max_rd_atomic)
		gdr_warn("-o %u: %s allows %u outstanding reads/atomics per QP; using %u",
			 c->o->outs, c->dev_name, c->max_rd_atomic, c->max_rd_atomic);
	c->gid_index = c->o->gid_index >= 0 ? c->o->gid_index : auto_gid(c);
	if (c->gid_index >= c->v->pattr.gid_tbl_len) {
		gdr_err("-x %d: port %d of %s has %d GIDs", c->gid_index, c->port, c->dev_name,
			c->v->pattr.gid_tbl_len);
		return -1;
	}
	if (ibv_query_gid(c->v->vctx, c->port, c->gid_index, &c->v->gid)) {
		gdr_err("cannot read GID %d of %s port %d", c->gid_index, c->dev_name, c->port);
		return -1;
	}
	if (c->o->gid_index >= 0 && gdr_gid_empty(c->v->gid.raw)) { /* before any network step */
		char list[160];

		gdr_gid_list(c, list, sizeof(list));
		gdr_err("-x %d: GID index %d of %s port %d holds no GID; indexes that hold one: %s "
			"(see 'ibv_devinfo -v -d %s' or show_gids; leave -x out to choose one)",
			c->gid_index, c->gid_index, c->dev_name, c->port, list, c->dev_name);
		return -1;
	}
	c->v->mtu = c->v->pattr.active_mtu;
	if (c->o->mtu) {
		enum ibv_mtu want = c->o->mtu == 256    ? IBV_MTU_256
				    : c->o->mtu == 512  ? IBV_MTU_512
				    : c->o->mtu == 1024 ? IBV_MTU_1024
				    : c->o->mtu == 2048 ? IBV_MTU_2048
							: IBV_MTU_4096;
		if (want > c->v->pattr.active_mtu)
			gdr_warn("-m %u is above the port's active MTU %d; using %d", c->o->mtu,
				 128 << c->v->pattr.active_mtu, 128 << c->v->pattr.active_mtu);
		else
			c->v->mtu = want;
	}
	gdr_vx_link_fill(c); /* the link's facts, for ceilings, verdicts and the report */
	return 0;
}

int gdr_place(struct gdr_conn *c, const char *dev)
{
	const struct gdr_opts *o = c->o;
	char *d = c->placement;
	size_t n = sizeof(c->placement), used;
	int node;

	if (c->placed && !strcmp(c->placed_dev, dev ? dev : ""))
		return 0;
	if (c->placed)
		gdr_mem_prefer_node(-1);
	if (gdr_pin_cpus(o->cpu_list, o->no_pin, dev, d, n))
		return -1;
	c->placed = true;
	snprintf(c->placed_dev, sizeof(c->placed_dev), "%s", dev ? dev : "");
	if (o->no_pin || o->cpu_list || !dev || (node = gdr_dev_numa_node(dev)) < 0)
		return 0;
	used = strlen(d);
	if (gdr_mem_prefer_node(node))
		snprintf(d + used, n - used, "; memory policy unchanged (%s)", strerror(errno));
	else
		snprintf(d + used, n - used, "; memory preferred on node %d", node);
	return 0;
}

int gdr_dev_open(struct gdr_conn *c)
{
	if (gdr_vconn_get(c))
		return -1;
	c->port = c->o->ib_port;
	if (!c->v->vctx && open_by_name(c))
		return -1;
	/* Before the PD and everything after it is allocated. */
	if (gdr_place(c, ibv_get_device_name(c->v->vctx->device)))
		return -1;
	if (gdr_dev_setup_port(c))
		return -1;
	c->v->pd = ibv_alloc_pd(c->v->vctx);
	if (!c->v->pd) {
		gdr_err("cannot allocate a protection domain on %s: %s", c->dev_name,
			strerror(errno));
		return -1;
	}
	gdr_td_open(c);
	return 0;
}

int gdr_dev_fits(struct gdr_conn *c, uint32_t paths, uint64_t mr_len, char *why, size_t len)
{
	struct ibv_device_attr da;
	char r[300];
	uint32_t regions;

	if (!c->v || !c->v->vctx || ibv_query_device(c->v->vctx, &da))
		return 0; /* nothing to check against: creation says what fails */
	/* the server registers the KV pool's regions (--regions) */
	regions = c->is_server && c->o->kv_regions > 1 ? c->o->kv_regions : 0;
	if (!gdr_dev_limits_check(&da, c->o, c->nqp ? c->nqp : c->o->num_qps, paths, mr_len,
				  regions, r, sizeof(r)))
		return 0;
	snprintf(why, len, "%s: %s", c->dev_name, r);
	return -1;
}

int gdr_cqs_create(struct gdr_conn *c)
{
	int scqe = (int)gdr_send_cqe(c->o->tx_depth, c->nqp); /* within max_cqe: gdr_dev_fits */
	int rcqe = (int)gdr_recv_cqe(c->o->rx_depth, c->nqp);

	if (gdr_cq_channel_open(c))
		return -1;
	c->v->scq = gdr_cq_create(c, scqe);
	if (!c->v->scq) {
		gdr_err("cannot create a completion queue of %d entries on %s: %s", scqe,
			c->dev_name, strerror(errno));
		return -1;
	}
	c->v->rcq = gdr_cq_create(c, rcqe);
	if (!c->v->rcq) {
		gdr_err("cannot create a completion queue of %d entries on %s: %s", rcqe,
			c->dev_name, strerror(errno));
		return -1;
	}
	return gdr_cq_arm(c);
}

/*
 * Whether the current path's memory is host memory. With -R the QPs exist
 * before the memory is allocated, so this goes by the path, not the backend:
 * staged paths use host bounce buffers, the others the test's memory.
 */
static bool path_on_host(const struct gdr_conn *c, const struct gdr_path *p)
{
	const struct gdr_mem *m = p->staged ? NULL : p->mem;

	return !m || (m->ops ? !m->ops->device : m != &c->data);
}

static uint32_t inline_request(const struct gdr_conn *c, const struct gdr_path *p)
{
	if (c->inline_explicit)
		return c->o->inline_size;
	if (c->o->kind == GDR_KIND_LAT && path_on_host(c, p))
		return GDR_LAT_INLINE;
	return 0;
}

bool gdr_qp_no_default_inline(const struct gdr_conn *c, struct gdr_path *p,
			      struct ibv_qp_init_attr *a)
{
	if (c->inline_explicit || !a->cap.max_inline_data)
		return false;
	a->cap.max_inline_data = 0;
	p->inline_max = 0;
	return true;
}

void gdr_qp_init_attr(const struct gdr_conn *c, struct gdr_path *p, struct ibv_qp_init_attr *a)
{
	p->inline_max = inline_request(c, p);
	*a = (struct ibv_qp_init_attr){
		.send_cq = c->v->scq,
		.recv_cq = c->v->rcq,
		.qp_type = c->o->conn == GDR_CONN_UD   ? IBV_QPT_UD
			   : c->o->conn == GDR_CONN_UC ? IBV_QPT_UC
						       : IBV_QPT_RC,
		.sq_sig_all = 0,
		.cap = {
			.max_send_wr = gdr_send_wr(c->o->tx_depth),
			.max_recv_wr = c->o->rx_depth,
			.max_send_sge = gdr_send_sge(c->o), /* within max_sge: gdr_dev_fits */
			.max_recv_sge = 1,
			.max_inline_data = p->inline_max,
		},
	};
}

static void explain_qp_failure(struct gdr_conn *c, int err)
{
	if (err == ENOMEM)
		gdr_explain_reg_failure(0, err);
	else
		gdr_err("cannot create a QP on %s (tx depth %u, rx depth %u, inline %u): %s",
			c->dev_name, c->o->tx_depth, c->o->rx_depth, c->o->inline_size,
			strerror(err));
}

int gdr_qps_create(struct gdr_conn *c, struct gdr_path *p)
{
	struct gdr_vpath *vp = gdr_vp(c, p);
	struct ibv_qp_init_attr a;

	gdr_qp_init_attr(c, p, &a);
	for (uint32_t i = 0; i < c->nqp; i++) {
		vp->qp[i] = ibv_create_qp(c->v->qpd, &a);
		if (!vp->qp[i] && gdr_qp_no_default_inline(c, p, &a))
			vp->qp[i] = ibv_create_qp(c->v->qpd, &a);
		if (!vp->qp[i]) {
			explain_qp_failure(c, errno);
			return -1;
		}
		vp->psn[i] = (uint32_t)lrand48() & 0xffffff;
	}
	return 0;
}

static int modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask, const char *state)
{
	int err = ibv_modify_qp(qp, a, mask);

	if (err)
		gdr_err("cannot move QP %u to %s: %s", qp->qp_num, state, strerror(err));
	return err ? -1 : 0;
}

/*
 * What the peer may do to this side's memory on the current path: only what
 * the test uses (the role's access), and RDMA write for the staged path's
 * credits (bandwidth).
 */
/* The role's access bits (GDR_XA_*), and the staged path's credits the peer writes. */
static unsigned int remote_xa(const struct gdr_conn *c, const struct gdr_path *p)
{
	bool credits = p->staged && !c->role.lat;

	return GDR_XA_LOCAL_WRITE | c->role.access | (credits ? GDR_XA_REMOTE_WRITE : 0);
}

/* The same as a QP's access flags (relaxed ordering is the MR's, verbs_reg.c). */
static unsigned int qp_access(unsigned int xa)
{
	return (xa & GDR_XA_LOCAL_WRITE ? IBV_ACCESS_LOCAL_WRITE : 0) |
	       (xa & GDR_XA_REMOTE_WRITE ? IBV_ACCESS_REMOTE_WRITE : 0) |
	       (xa & GDR_XA_REMOTE_READ ? IBV_ACCESS_REMOTE_READ : 0) |
	       (xa & GDR_XA_REMOTE_ATOMIC ? IBV_ACCESS_REMOTE_ATOMIC : 0);
}

/* The path to the peer's QP r: LID, or GID with -T's traffic class (RoCE, or -x given). */
static struct ibv_ah_attr peer_ah(const struct gdr_conn *c, const struct gdr_qp_wire *r)
{
	struct ibv_ah_attr ah = {
		.is_global =
		    c->v->pattr.link_layer == IBV_LINK_LAYER_ETHERNET || c->o->gid_index >= 0,
		.dlid = r->lid,
		.sl = (uint8_t)c->o->sl,
		.src_path_bits = 0,
		.port_num = (uint8_t)c->port,
	};

	if (ah.is_global) {
		memcpy(ah.grh.dgid.raw, r->gid, 16);
		ah.grh.sgid_index = (uint8_t)c->gid_index;
		ah.grh.hop_limit = 64;
		ah.grh.traffic_class = (uint8_t)c->o->tclass;
	}
	return ah;
}

/* -c UD: no connection; RTR and RTS, and an address handle for the peer's QP. */
static int ud_ready(struct gdr_conn *c, struct gdr_path *p, uint32_t i)
{
	struct gdr_vpath *vp = gdr_vp(c, p);
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_RTR};
	struct ibv_ah_attr ah = peer_ah(c, &vp->peer[i]);

	if (modify(vp->qp[i], &a, IBV_QP_STATE, "RTR"))
		return -1;
	a = (struct ibv_qp_attr){.qp_state = IBV_QPS_RTS, .sq_psn = vp->psn[i]};
	if (modify(vp->qp[i], &a, IBV_QP_STATE | IBV_QP_SQ_PSN, "RTS"))
		return -1;
	vp->ah[i] = ibv_create_ah(c->v->qpd, &ah);
	if (!vp->ah[i]) {
		gdr_err("-c UD: cannot create an address handle for the peer's QP %u: %s",
			vp->peer[i].qpn, strerror(errno));
		return -1;
	}
	return 0;
}

void gdr_wr_ud(const struct gdr_conn *c, const struct gdr_path *p, uint32_t q,
	       struct ibv_send_wr *wr)
{
	const struct gdr_vpath *vp;

	if (c->o->conn != GDR_CONN_UD)
		return;
	vp = gdr_vp(c, p);
	wr->wr.ud.ah = vp->ah[q];
	wr->wr.ud.remote_qpn = vp->peer[q].qpn;
	wr->wr.ud.remote_qkey = GDR_UD_QKEY;
}

int gdr_qps_connect(struct gdr_conn *c, struct gdr_path *p)
{
	struct gdr_vpath *vp = gdr_vp(c, p);
	enum ibv_mtu mtu = c->v->mtu;
	enum ibv_mtu rmtu = p->remote.mtu >= 4096   ? IBV_MTU_4096
			    : p->remote.mtu >= 2048 ? IBV_MTU_2048
			    : p->remote.mtu >= 1024 ? IBV_MTU_1024
			    : p->remote.mtu >= 512  ? IBV_MTU_512
						    : IBV_MTU_256;
	bool rc = c->o->conn == GDR_CONN_RC, ud = c->o->conn == GDR_CONN_UD;

	if (rmtu < mtu)
		mtu = rmtu;
	c->v->mtu = mtu;
	gdr_vx_link_mtu(c); /* the path MTU both sides take */
	for (uint32_t i = 0; i < c->nqp; i++) {
		const struct gdr_qp_wire *r = &vp->peer[i];
		struct ibv_qp_attr a = {
			.qp_state = IBV_QPS_INIT,
			.pkey_index = 0,
			.port_num = (uint8_t)c->port,
			.qp_access_flags = qp_access(remote_xa(c, p)),
			.qkey = GDR_UD_QKEY,
		};

		if (modify(vp->qp[i], &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			   (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS), "INIT"))
			return -1;
		if (ud) {
			if (ud_ready(c, p, i))
				return -1;
			continue;
		}
		a = (struct ibv_qp_attr){
			.qp_state = IBV_QPS_RTR,
			.path_mtu = mtu,
			.dest_qp_num = r->qpn,
			.rq_psn = r->psn,
			.max_dest_rd_atomic = (uint8_t)c->max_rd_atomic,
			.min_rnr_timer = 12,
			.ah_attr = peer_ah(c, r),
		};
		int err = ibv_modify_qp(
		    vp->qp[i], &a,
		    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			(rc ? IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER : 0));

		if (err) { /* the usual cause: the GID index (-x) */
			gdr_rtr_failed(c, vp->qp[i], err, a.ah_attr.is_global, r->gid);
			return -1;
		}
		a = (struct ibv_qp_attr){
			.qp_state = IBV_QPS_RTS,
			.timeout = (uint8_t)c->o->qp_timeout,
			.retry_cnt = 7,
			.rnr_retry = 7,
			.sq_psn = vp->psn[i],
			.max_rd_atomic = (uint8_t)c->init_depth,
		};
		if (modify(vp->qp[i], &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			   (rc ? IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				 IBV_QP_MAX_QP_RD_ATOMIC : 0),
			   "RTS"))
			return -1;
	}
	return 0;
}

/* A role's IBV_ACCESS_* bits in the seam's terms (xport.h), for gdr_vx_reg. */
/*
 * The path's memory exports itself, the transport registers it (verbs_reg.c; relaxed
 * ordering added there where the run asks for it). The MR is the path's, freed with it.
 */
int gdr_mr_register(struct gdr_conn *c, struct gdr_path *p)
{
	struct gdr_xdom own = {.c = c};
	struct gdr_xmr *mr;
	struct gdr_xmem x;

	if (p->mem->ops->export(p->mem, &x) ||
	    gdr_vx_reg(c->xd ? c->xd : &own, &x, remote_xa(c, p), &mr,
		       &p->mem->reg_method))
		return -1;
	gdr_vp(c, p)->mr = mr->mr;
	mr->own = false;
	gdr_vx_dereg(mr); /* the wrapper only */
	return 0;
}

void gdr_verbs_free(struct gdr_conn *c)
{
	/* Reverse order of creation: QPs, CQs, MRs, PD (the driver frees the memory). */
	for (uint32_t k = 0; k < GDR_MAX_PATHS; k++) {
		struct gdr_vpath *vp = &c->v->path[k];

		for (uint32_t i = 0; i < GDR_MAX_QPS; i++) {
			if (vp->qp[i] && vp->cm_id[i])
				rdma_destroy_qp(vp->cm_id[i]);
			else if (vp->qp[i])
				ibv_destroy_qp(vp->qp[i]);
			vp->qp[i] = NULL;
			if (vp->ah[i])
				ibv_destroy_ah(vp->ah[i]);
			vp->ah[i] = NULL;
		}
	}
	if (c->v->rcq)
		ibv_destroy_cq(c->v->rcq);
	if (c->v->scq)
		ibv_destroy_cq(c->v->scq);
	c->v->rcq = c->v->scq = NULL;
	gdr_cq_channel_close(c);
	for (uint32_t k = 0; k < GDR_MAX_PATHS; k++) {
		if (c->v->path[k].mr)
			ibv_dereg_mr(c->v->path[k].mr);
		c->v->path[k].mr = NULL;
	}
	gdr_td_close(c);
	if (c->v->pd)
		ibv_dealloc_pd(c->v->pd);
	c->v->pd = NULL;
}

void gdr_dev_close(struct gdr_conn *c)
{
	if (c->v->own_vctx && c->v->vctx)
		ibv_close_device(c->v->vctx);
	c->v->vctx = NULL;
}
