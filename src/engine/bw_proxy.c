/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy path's bandwidth loop on the requester (gdr_bw_proxy, bw.h):
 * the kernel of src/gproxy writes a descriptor per message, at most tx_depth
 * outstanding per QP (one producer and one proxy thread per QP, -q up to
 * GDR_GP_MAX_Q); the proxy thread posts the work request the descriptor names,
 * one of the direct path's ring built once per size (bw_ring.c: the same WRs,
 * one in cq_mod signalled, the last marked), reaps the send completions and
 * hands their count back to the kernel. The row is timed as the direct
 * path's, on the host clock from the first post to the last completion (-D:
 * the last before the deadline, after which the kernel is stopped); the
 * kernel's own time (globaltimer, -n only) is said in an info line.
 */
#include "config.h"
#include <pthread.h>
#include <string.h>
#include "bw.h"
#include "bw_ring.h"
#include "clock.h"
#include "gproxy.h"
#include "log.h"
#include "session.h"

/*
 * With -q N, N proxy threads (one per QP, each its kernel producer's queue)
 * share the bandwidth state and the send CQ: posts and polls take turns under
 * one lock, and each thread takes the completions of its own QP.
 */
struct proxy_ctx {
	struct gdr_bw_state *s;
	pthread_mutex_t lock;
	uint64_t reported[GDR_GP_MAX_Q]; /* QP q's completions handed to its thread */
	uint64_t deadline;		 /* -D: when the row's measured part ends; 0: -n */
	int due;			 /* the deadline passed (proxy_tick) */
	int err;			 /* -D's last post failed (printed) */
};

/*
 * -D's deadline, as the direct loop's (bw.c): the row counts what completed
 * before it; each QP then posts one more message, marked last (a send
 * target ends on it), and its run ends once that and the rest completed.
 */
static void stop_at_deadline(struct gdr_bw_state *s)
{
	s->stop = true;
	for (uint32_t q = 0; q < s->c->nqp; q++)
		s->qp[q].final_pending = true;
	s->stop_tx_done = s->tx_done;
	s->stop_t_tx = s->t_last_tx;
}

static int post_locked(struct gdr_bw_state *s, unsigned int q, const struct gdr_gp_desc *d);

static int proxy_post(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	struct proxy_ctx *x = ctx;
	int rc = 0;

	pthread_mutex_lock(&x->lock);
	if (!x->s->stop) /* past -D's deadline the kernel's descriptors are not sent */
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
	if (gdr_bw_post(s, q) < 0)
		return -1;
	if (p->posted == before) {
		gdr_err("gpu-proxy: descriptor %u with QP %u's queue full (%llu outstanding)",
			d->seq, q, (unsigned long long)(p->posted - p->completed));
		return -1;
	}
	return 0;
}

/*
 * The run's own thread, every 10 ms or so: -D's deadline (said to the proxy
 * threads, which stop at their next poll), and the heartbeat a run longer
 * than half of --timeout sends (the target waits for our word; only this
 * thread uses the out-of-band connection meanwhile). No lock: a proxy thread
 * stuck in a post holds it (gproxy.c says so), and a preempted one would
 * delay the deadline. 0, or -1 (printed).
 */
static int proxy_tick(void *ctx)
{
	struct proxy_ctx *x = ctx;
	struct gdr_bw_state *s = x->s;
	uint64_t now = gdr_now_ns();

	if (x->deadline && now >= x->deadline)
		__atomic_store_n(&x->due, 1, __ATOMIC_RELEASE);
	if (now - s->t_go >= s->hb_after_ns && gdr_heartbeat(s->c, now))
		return -1;
	return 0;
}

/* -D: QP q's run is over once its last message was posted and everything completed. */
static bool proxy_ended(void *ctx, unsigned int q)
{
	struct proxy_ctx *x = ctx;
	struct gdr_bw_state *s = x->s;
	struct gdr_bw_qp *p = &s->qp[q];
	bool ended = false;

	pthread_mutex_lock(&x->lock);
	if (s->stop) {
		/* the last message is the loop's own (room permitting), as in bw.c */
		if (p->final_pending && gdr_bw_post(s, q) < 0)
			x->err = -1;
		ended = x->err || (!p->final_pending && p->completed == p->posted);
	}
	pthread_mutex_unlock(&x->lock);
	return ended;
}

/* Reap the send CQ (any QP's completions) and hand QP q's new ones to its thread. */
static int proxy_poll(void *ctx, unsigned int q)
{
	struct proxy_ctx *x = ctx;
	struct gdr_bw_state *s = x->s;
	uint64_t msgs = 0, k;
	int rc = 0;

	pthread_mutex_lock(&x->lock);
	if (!s->stop && __atomic_load_n(&x->due, __ATOMIC_ACQUIRE))
		stop_at_deadline(s); /* before this poll: what it reaps is past the deadline */
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
	struct gdr_gp_backend be = {.post = proxy_post,
				    .poll = proxy_poll,
				    .ended = proxy_ended,
				    .tick = proxy_tick,
				    .ctx = &x};
	bool timed = c->o->duration > 0;
	struct gdr_gp_params p;
	struct gdr_gp_result r;
	char why[256];
	int rc;

	if (c->nqp > GDR_GP_MAX_Q || (!timed && s->per_qp >= UINT32_MAX) || !s->tx_active) {
		gdr_err("gpu-proxy: up to %d QPs, an iteration count below 2^32 or -D, and a "
			"requester only",
			GDR_GP_MAX_Q);
		return -1;
	}
	if (gdr_gproxy_stuck(c->gp)) { /* its thread still holds x */
		gdr_err("gpu-proxy: a proxy thread of an earlier size is stuck: no new run");
		return -1;
	}
	x.s = s;
	memset(x.reported, 0, sizeof(x.reported));
	x.err = 0;
	x.due = 0;
	if (!c->gp &&
	    gdr_gproxy_open(&c->gp, &c->data, (uint64_t)(c->o->timeout * 1e9), why, sizeof(why))) {
		gdr_err("gpu-proxy: %s", why);
		return -1;
	}
	s->t_go = gdr_now_ns();
	s->hb_after_ns = (uint64_t)(c->o->timeout * 1e9) / 2;
	x.deadline = timed ? s->t_go + (uint64_t)(c->o->duration * 1e9) : 0;
	if (gdr_bw_ring_build(s))
		return -1;
	s->post_list = 1; /* one WR per descriptor */
	p = (struct gdr_gp_params){.mode = GDR_GP_RATE,
				   .queues = c->nqp,
				   /* -D: "until stopped", the deadline ends it first */
				   .n = timed ? UINT32_MAX - 1 : (unsigned int)s->per_qp,
				   .window = s->depth < GDR_GP_RING ? s->depth : GDR_GP_RING,
				   .batch = 1,
				   .slots = s->ring,
				   .len = (uint32_t)s->size};
	rc = gdr_gproxy_run(c->gp, &p, &be, &r);
	if (!gdr_gproxy_stuck(c->gp)) /* a stuck post may still read its work requests */
		gdr_bw_ring_free(s);
	if (rc || x.err)
		return -1;
	/* the kernel's own rate in the row's shape (once per run, after the row): its bound */
	s->gp_kernel_rate = gdr_gproxy_kernel_rate(c->gp, p.queues, p.window);
	if (timed) { /* the measured part: up to the deadline, not the drain after it */
		s->tx_done = s->stop_tx_done;
		s->t_last_tx = s->stop_t_tx;
	}
	gdr_peak_finish(&s->peak, s->t_last_tx, s->tx_done);
	if (r.gpu_ns && s->t_last_tx > s->t_start)
		gdr_info(
		    "%llu bytes, gpu-proxy: %.0f messages/s on the GPU's clock (the kernel's "
		    "first descriptor to its last completion seen), %.0f on the host's (the row); "
		    "the kernel alone %.0f (null NIC, a fence each: the row's kernel bound)",
		    (unsigned long long)s->size, (double)r.n * 1e9 / (double)r.gpu_ns,
		    (double)s->tx_done * 1e9 / (double)(s->t_last_tx - s->t_start),
		    s->gp_kernel_rate);
	return 0;
}
