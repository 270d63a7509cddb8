/* SPDX-License-Identifier: MIT */
/* Path setup through a transport's ops (path_xport.h): loop, ofi. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "dev_limits.h"
#include "log.h"
#include "path_xport.h"
#include "session.h"
#include "verbs_api.h"
#include "xport_fit.h"

bool gdr_xpath_on(const struct gdr_conn *c)
{
	return gdr_xport_via_ops(c->xp);
}

int gdr_xpath_open(struct gdr_conn *c)
{
	const struct gdr_opts *o = c->o;
	uint32_t nqp = c->nqp ? c->nqp : o->num_qps;
	struct gdr_xdom_cfg cfg = {
	    .dev = o->dev_name,
	    .provider = o->provider,
	    .port = o->ib_port,
	    .opts = o,
	    .cq_depth = (uint32_t)(gdr_send_cqe(o->tx_depth, nqp * GDR_MAX_PATHS) +
				   gdr_recv_cqe(o->rx_depth, nqp * GDR_MAX_PATHS)),
	    .neps = nqp * GDR_MAX_PATHS,
	    .events = o->events,
	};

	gdr_xpath_close(c);
	c->link = (struct gdr_xlink){0};
	if (c->xp->open(&c->xd, &cfg, &c->link)) { /* one line, -GDR_XNODEV included */
		c->xd = NULL;
		return -1;
	}
	snprintf(c->dev_name, sizeof(c->dev_name), "%s", c->link.dev);
	c->port = o->ib_port;
	c->max_rd_atomic = o->outs ? o->outs : 16;
	c->init_depth = c->max_rd_atomic;
	return gdr_place(c, NULL); /* no RDMA device in sysfs to place the threads near */
}

/* The role's access bits, and the staged path's credits. */
static unsigned int access_of(const struct gdr_conn *c, const struct gdr_path *p)
{
	unsigned int acc = GDR_XA_LOCAL_WRITE | c->role.access;

	if (p->staged && !c->role.lat) /* the peer writes its credits into our control page */
		acc |= GDR_XA_REMOTE_WRITE;
	return acc;
}

/* This side's endpoints and region in QPINFO; the peer's back, checked. */
static int swap_info(struct gdr_conn *c, struct gdr_path *p, size_t reg_len,
		     struct gdr_qpinfo *peer)
{
	struct gdr_msg m = {.type = GDR_MSG_QPINFO};
	struct gdr_qpinfo *q = &m.u.qpinfo;

	q->nqp = c->nqp;
	for (uint32_t i = 0; i < c->nqp; i++) {
		size_t n = c->xp->addr(p->ep[i], q->ep[i].b, sizeof(q->ep[i].b));

		if (!n || n > sizeof(q->ep[i].b)) {
			gdr_err("%s: endpoint %u has no address", c->xp->name, i);
			return -1;
		}
		q->ep[i].len = (uint16_t)n;
	}
	q->key = c->xp->key(p->xmr);
	q->addr = (uint64_t)(uintptr_t)p->mem->addr;
	q->len = reg_len;
	q->mtu = c->link.mtu;
	q->rd_atomic = c->max_rd_atomic;
	gdr_hostname(q->host, sizeof(q->host));
	snprintf(q->mem_kind, sizeof(q->mem_kind), "%s", c->data.ops->kind);
	if (gdr_oob_send(&c->oob, &m) || gdr_session_expect(c, &m, GDR_MSG_QPINFO))
		return -1;
	if (q->nqp != c->nqp || q->len < 2 * c->region_len) {
		gdr_err("protocol error: %s has %u endpoints and a %llu-byte region, expected %u "
			"and at least %zu",
			c->oob.peer, q->nqp, (unsigned long long)q->len, c->nqp, 2 * c->region_len);
		return -1;
	}
	*peer = *q;
	return 0;
}

int gdr_xpath_connect(struct gdr_conn *c, struct gdr_path *p)
{
	const struct gdr_opts *o = c->o;
	struct gdr_xmem x;
	struct gdr_qpinfo peer;
	struct gdr_xremote rem;

	if (gdr_mem_on_device(p->mem) && !gdr_xport_gpu_reg(o, &c->link)) {
		gdr_session_reject(
		    c, "GPU memory: not over the %s transport%s%s: " GDR_XPORT_NO_GPU_REG,
		    c->xp->name, c->link.provider[0] ? " with provider " : "", c->link.provider);
		return -1;
	}
	if (p->mem->ops->export(p->mem, &x) ||
	    c->xp->reg(c->xd, &x, access_of(c, p), &p->xmr, &p->mem->reg_method))
		return -1;
	for (uint32_t q = 0; q < c->nqp; q++) {
		struct gdr_xep_cfg cfg = {
		    .index = (uint16_t)q,
		    .tx_depth = o->tx_depth,
		    .rx_depth = o->rx_depth,
		    .max_inline = o->inline_size,
		    .max_rd_atomic = c->init_depth,
		};

		if (c->xp->ep_open(c->xd, &cfg, &p->ep[q]))
			return -1;
	}
	if (swap_info(c, p, x.len, &peer))
		return -1;
	/* the engine's geometry: [tx][rx] of region_len each; the peer's whole region is rem */
	p->remote = peer;
	p->remote.len = 2 * c->region_len;
	rem = (struct gdr_xremote){.addr = peer.addr, .len = peer.len, .key = peer.key};
	for (uint32_t q = 0; q < c->nqp; q++)
		if (c->xp->connect(p->ep[q], peer.ep[q].b, peer.ep[q].len, &rem))
			return -1;
	p->inline_max = c->xp->caps & GDR_XC_INLINE ? o->inline_size : 0;
	if (!c->is_server)
		snprintf(c->peer_host, sizeof(c->peer_host), "%s", peer.host);
	return 0;
}

void gdr_xpath_close(struct gdr_conn *c)
{
	if (!c->xd)
		return;
	for (uint32_t k = 0; k < GDR_MAX_PATHS; k++) {
		struct gdr_path *p = &c->path[k];

		for (uint32_t q = 0; q < GDR_MAX_QPS; q++) {
			if (p->ep[q])
				c->xp->ep_close(p->ep[q]);
			p->ep[q] = NULL;
		}
		if (p->xmr)
			c->xp->dereg(p->xmr);
		p->xmr = NULL;
	}
	c->xp->close(c->xd);
	c->xd = NULL;
}
