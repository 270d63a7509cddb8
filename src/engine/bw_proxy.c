/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy path's bandwidth loop on the requester (gdr_bw_proxy, bw.h):
 * the kernel of src/gproxy writes a descriptor per message, at most tx_depth
 * outstanding per QP (one producer and one proxy thread per QP, -q up to
 * GDR_GP_MAX_Q); the proxy thread posts the work request the descriptor names,
 * one of the direct path's ring built once per size (bw_ring.c: the same WRs,
 * one in cq_mod signalled, the last marked), reaps the send completions and
 * hands their count back to the kernel. The row is timed as the direct
 * path's, on the host clock from the first post to the last completion; the
 * kernel's own time (globaltimer) is said in an info line.
 */
#include "config.h"
#include <pthread.h>
#include <string.h>
#include "bw.h"
#include "bw_ring.h"
#include "clock.h"
#include "gproxy.h"
#include "log.h"

/*
 * With -q N, N proxy threads (one per QP, each its kernel producer's queue)
 * share the bandwidth state and the send CQ: posts and polls take turns under
 * one lock, and each thread takes the completions of its own QP.
 */
struct proxy_ctx {
	struct gdr_bw_state *s;
	pthread_mutex_t lock;
	uint64_t reported[GDR_GP_MAX_Q]; /* QP q's completions handed to its thread */
};

static int post_locked(struct gdr_bw_state *s, unsigned int q, const struct gdr_gp_desc *d);

static int proxy_post(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	struct proxy_ctx *x = ctx;
	int rc;

	pthread_mutex_lock(&x->lock);
	rc = post_locked(x->s, q, d);
	pthread_mutex_unlock(&x->lock);
	return rc;
}

/* The descriptor names ring entry d->idx of QP q: the next one, or the kernel went astray. */
static int post_locked(struct gdr_bw_state *s, unsigned int q, const struct gdr_gp_desc *d)
{
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

/* Reap the send CQ (any QP's completions) and hand QP q's new ones to its thread. */
static int proxy_poll(void *ctx, unsigned int q)
{
	struct proxy_ctx *x = ctx;
	struct gdr_bw_state *s = x->s;
	uint64_t msgs = 0, k;
	int rc = 0;

	pthread_mutex_lock(&x->lock);
	if (gdr_bw_poll_send(s, &msgs) < 0) {
		rc = -1;
	} else {
		if (msgs)
			s->t_last_tx = gdr_now_ns();
		k = s->qp[q].completed - x->reported[q];
		x->reported[q] = s->qp[q].completed;
		rc = (int)k;
	}
	pthread_mutex_unlock(&x->lock);
	return rc;
}

int gdr_bw_proxy(struct gdr_bw_state *s)
{
	struct gdr_conn *c = s->c;
	/* static: a proxy thread left stuck in a post (gdr_gproxy_run) still holds it */
	static struct proxy_ctx x = {.lock = PTHREAD_MUTEX_INITIALIZER};
	struct gdr_gp_backend be = {.post = proxy_post, .poll = proxy_poll, .ctx = &x};
	struct gdr_gp_params p;
	struct gdr_gp_result r;
	char why[256];
	int rc;

	if (c->nqp > GDR_GP_MAX_Q || s->per_qp > UINT32_MAX || !s->tx_active) {
		gdr_err("gpu-proxy: up to %d QPs, an iteration count and a requester only",
			GDR_GP_MAX_Q);
		return -1;
	}
	x.s = s;
	memset(x.reported, 0, sizeof(x.reported));
	if (!c->gp &&
	    gdr_gproxy_open(&c->gp, &c->data, (uint64_t)(c->o->timeout * 1e9), why, sizeof(why))) {
		gdr_err("gpu-proxy: %s", why);
		return -1;
	}
	if (gdr_bw_ring_build(s))
		return -1;
	s->post_list = 1; /* one WR per descriptor */
	p = (struct gdr_gp_params){.mode = GDR_GP_RATE,
				   .queues = c->nqp,
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
