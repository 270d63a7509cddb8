/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy path's bandwidth loop on the requester (gdr_bw_proxy, bw.h):
 * the kernel of src/gproxy writes a descriptor per message, at most tx_depth
 * outstanding; its proxy thread posts the work request the descriptor names,
 * one of the direct path's ring built once per size (bw_ring.c: the same WRs,
 * one in cq_mod signalled, the last marked), reaps the send completions and
 * hands their count back to the kernel. The row is timed as the direct
 * path's, on the host clock from the first post to the last completion; the
 * kernel's own time (globaltimer) is said in an info line.
 */
#include "config.h"
#include <string.h>
#include "bw.h"
#include "bw_ring.h"
#include "clock.h"
#include "gproxy.h"
#include "log.h"

/* The descriptor names ring entry d->idx of QP q: the next one, or the kernel went astray. */
static int proxy_post(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	struct gdr_bw_state *s = ctx;
	struct gdr_bw_qp *p = &s->qp[q];
	uint64_t before = p->posted;

	if (d->idx != p->head || d->len != s->size) {
		gdr_err("gpu-proxy: descriptor %u names work request %u of %u bytes; the next is "
			"%u of %llu",
			d->seq, d->idx, d->len, p->head, (unsigned long long)s->size);
		return -1;
	}
	if (gdr_bw_post(s, q))
		return -1;
	if (p->posted == before) {
		gdr_err("gpu-proxy: descriptor %u with QP %u's queue full (%llu outstanding)",
			d->seq, q, (unsigned long long)(p->posted - p->completed));
		return -1;
	}
	return 0;
}

static int proxy_poll(void *ctx, unsigned int q)
{
	struct gdr_bw_state *s = ctx;
	uint64_t msgs = 0;

	(void)q; /* one QP: every send completion is its */
	if (gdr_bw_poll_send(s, &msgs) < 0)
		return -1;
	if (msgs)
		s->t_last_tx = gdr_now_ns();
	return (int)msgs;
}

int gdr_bw_proxy(struct gdr_bw_state *s)
{
	struct gdr_conn *c = s->c;
	struct gdr_gp_backend be = {.post = proxy_post, .poll = proxy_poll, .ctx = s};
	struct gdr_gp_params p;
	struct gdr_gp_result r;
	char why[256];
	int rc;

	if (c->nqp != 1 || s->per_qp > UINT32_MAX || !s->tx_active) {
		gdr_err("gpu-proxy: one QP, an iteration count and a requester only");
		return -1;
	}
	if (!c->gp &&
	    gdr_gproxy_open(&c->gp, &c->data, (uint64_t)(c->o->timeout * 1e9), why, sizeof(why))) {
		gdr_err("gpu-proxy: %s", why);
		return -1;
	}
	if (gdr_bw_ring_build(s))
		return -1;
	s->post_list = 1; /* one WR per descriptor */
	p = (struct gdr_gp_params){.mode = GDR_GP_RATE,
				   .queues = 1,
				   .n = (unsigned int)s->per_qp,
				   .window = s->depth < GDR_GP_RING ? s->depth : GDR_GP_RING,
				   .batch = 1,
				   .slots = s->ring,
				   .len = (uint32_t)s->size};
	rc = gdr_gproxy_run(c->gp, &p, &be, &r);
	gdr_bw_ring_free(s);
	if (rc)
		return -1;
	gdr_peak_finish(&s->peak, s->t_last_tx, s->tx_done);
	if (r.gpu_ns && s->t_last_tx > s->t_start)
		gdr_info(
		    "%llu bytes, gpu-proxy: %.0f messages/s on the GPU's clock (the kernel's "
		    "first descriptor to its last completion seen), %.0f on the host's (the row)",
		    (unsigned long long)s->size, (double)r.n * 1e9 / (double)r.gpu_ns,
		    (double)s->tx_done * 1e9 / (double)(s->t_last_tx - s->t_start));
	return 0;
}
