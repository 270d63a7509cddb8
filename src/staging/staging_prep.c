/* SPDX-License-Identifier: MIT */
/* The staged path's setup: per-size state, buffer sizing, standing receives, per-size staging. */
#include "config.h"
#include <string.h>
#include "log.h"
#include "staging.h"
#include "verb_def.h"

static void plan_size(const struct gdr_conn *c, uint64_t size, struct gdr_stage_plan *p)
{
	const struct gdr_opts *o = c->o;
	struct gdr_stage_in in = {
	    .size = size,
	    /* a KV run: size is a batch's bytes, copied as one run (struct gdr_stage_kv) */
	    .chunk = o->kv_nblocks ? size : o->stage_chunk,
	    .tx_depth = o->tx_depth,
	    .rx_depth = o->rx_depth,
	    .nqp = c->nqp ? c->nqp : 1,
	    .send = gdr_verb_def(o->verb)->target_recvs,
	    .lat = o->kind == GDR_KIND_LAT,
	};

	gdr_stage_plan(p, &in);
}

uint64_t gdr_staging_region_need(const struct gdr_conn *c, uint64_t size)
{
	struct gdr_stage_plan p;

	plan_size(c, size, &p);
	return gdr_stage_ring_bytes(&p) > gdr_stage_data_bytes(&p) ? gdr_stage_ring_bytes(&p)
								    : gdr_stage_data_bytes(&p);
}

void gdr_staging_begin_plan(struct gdr_staging *s, const struct gdr_conn *c, uint64_t size)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	plan_size(c, size, &s->plan);
	s->chunk = s->plan.per_msg > 1 ? s->plan.stride : s->plan.run * size;
}

int gdr_staging_begin(struct gdr_staging *s, struct gdr_conn *c, uint64_t size,
		      enum gdr_copier_kind k)
{
	char why[160];

	gdr_staging_begin_plan(s, c, size);
	/* latency: one copy per message, waited for; bandwidth: every lane (run_copier.c) */
	if (gdr_staging_take(s, c, k == GDR_COPIER_AUTO ? gdr_copier_default(&c->data) : k, why,
			     sizeof(why))) {
		gdr_err("staging: %s", why);
		gdr_staging_close_run();
		return -1;
	}
	return 0;
}

/* Write: one receive (no data) per run's immediate; a pool per QP, reposted as used. */
int gdr_staged_prepost(struct gdr_conn *c, struct gdr_path *p)
{
	const struct gdr_opts *o = c->o;
	bool recv = !c->role.def->fetches && (c->role.lat || c->role.target);

	gdr_ctrl(c)->credit = 0;
	if (!recv || (!c->role.lat && c->role.def->target_recvs))
		return 0;
	if (o->kind == GDR_KIND_LAT)
		return gdr_post_rx(c, p, 0, o->rx_depth, c->recv_len);
	for (uint32_t q = 0; q < c->nqp; q++)
		if (gdr_post_rx(c, p, q, o->rx_depth, 0))
			return -1;
	return 0;
}

/* Queue one device->host copy through the copier, waiting (bounded) for a free lane. */
static int to_ring(struct gdr_copier *cp, size_t off, void *host, size_t len)
{
	if (!gdr_copier_room(cp, GDR_TO_HOST) && gdr_copier_drain(cp, GDR_TO_HOST))
		return -1;
	return gdr_copier_submit(cp, GDR_TO_HOST, off, host, len);
}

int gdr_staged_stage_tx(struct gdr_conn *c, struct gdr_copier *cp, size_t len)
{
	return to_ring(cp, 0, c->bounce.addr, len) || gdr_copier_drain(cp, GDR_TO_HOST);
}

int gdr_staged_post_run_recvs(struct gdr_conn *c, const struct gdr_path *path,
			      const struct gdr_stage_plan *p, uint64_t run)
{
	struct gdr_xep *ep = path->ep[run % c->nqp];

	/* each unit's receive at its slot of the rx ring, its ctx the unit */
	for (uint64_t j = run * p->run; j < (run + 1) * p->run; j++)
		if (c->xp->post_recv(ep, path->xmr, c->region_len + gdr_stage_ring_off(p, j),
				     (uint32_t)gdr_stage_unit_len(p, j), 1, j))
			return -1;
	return 0;
}

int gdr_staged_prepare(struct gdr_conn *c, const struct gdr_path *path, struct gdr_staging *s)
{
	const struct gdr_stage_plan *p = &s->plan;
	bool target = c->role.target;

	/* read: the target writes its first count right after GO, maybe before we are there */
	gdr_ctrl(c)->credit = gdr_ctrl(c)->staged = 0;
	if (c->role.def->target_recvs && target)
		for (uint64_t r = 0; r < p->window; r++)
			if (gdr_staged_post_run_recvs(c, path, p, r))
				return -1;
	return 0;
}
