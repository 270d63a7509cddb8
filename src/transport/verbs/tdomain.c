/* SPDX-License-Identifier: MIT */
/*
 * Lock-free provider paths: every QP and CQ of a gdrperf process is used by
 * one thread, so the QPs are created in a thread domain (a parent domain
 * holding an ibv_td: libmlx5 then posts without the QP locks) and the CQs
 * with the single-threaded flag. That flag only selects the lock-free
 * variants of the extended poll API (ibv_start_poll); ibv_poll_cq, which
 * the engines use, still takes libmlx5's CQ lock (it is lifted only by the
 * environment variable MLX5_SINGLE_THREADED). Providers that know neither
 * (rxe) keep their locked paths; the header says what applies.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "conn.h"
#include "log.h"
#include "verbs.h"

void gdr_td_open(struct gdr_conn *c)
{
	struct ibv_td_init_attr ta = { 0 };
	struct ibv_parent_domain_init_attr pa = { 0 };

	c->v->qpd = c->v->pd;
	c->v->td = ibv_alloc_td(c->v->vctx, &ta);
	if (!c->v->td) {
		snprintf(c->td_desc, sizeof(c->td_desc), "no thread domain (provider: %.40s)",
			 strerror(errno));
		return;
	}
	pa.pd = c->v->pd;
	pa.td = c->v->td;
	c->v->parent = ibv_alloc_parent_domain(c->v->vctx, &pa);
	if (!c->v->parent) {
		snprintf(c->td_desc, sizeof(c->td_desc), "no parent domain (provider: %.40s)",
			 strerror(errno));
		ibv_dealloc_td(c->v->td);
		c->v->td = NULL;
		return;
	}
	c->v->qpd = c->v->parent;
	snprintf(c->td_desc, sizeof(c->td_desc), "thread domain (lock-free QPs)");
}

struct ibv_cq *gdr_cq_create(struct gdr_conn *c, int cqe)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = (uint32_t)cqe,
		.channel = c->v->cch, /* -e: completion events */
		.wc_flags = IBV_WC_STANDARD_FLAGS,
		.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
		.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED,
	};
	struct ibv_cq_ex *cq;

	if (c->v->parent) {
		a.comp_mask |= IBV_CQ_INIT_ATTR_MASK_PD;
		a.parent_domain = c->v->parent;
	}
	cq = ibv_create_cq_ex(c->v->vctx, &a);
	if (cq) {
		c->cq_single = true;
		return ibv_cq_ex_to_cq(cq);
	}
	c->cq_single = false;
	return ibv_create_cq(c->v->vctx, cqe, NULL, c->v->cch, 0);
}

const char *gdr_cq_describe(bool single)
{
	return single ? "CQs single-threaded for the extended poll API only (ibv_poll_cq, used "
			"here, keeps the provider's CQ lock)"
		      : "CQs with the provider's lock";
}

const char *gdr_td_describe(const struct gdr_conn *c)
{
	if (!c->td_desc[0])
		return "locked provider paths";
	return c->td_desc;
}

void gdr_td_close(struct gdr_conn *c)
{
	if (c->v->parent)
		ibv_dealloc_pd(c->v->parent);
	if (c->v->td)
		ibv_dealloc_td(c->v->td);
	c->v->parent = NULL;
	c->v->td = NULL;
	c->v->qpd = NULL;
}
