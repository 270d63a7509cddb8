/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy path's latency (gdr_lat_proxy, lat.h): the kernel of
 * src/gproxy makes each message, its proxy thread posts the direct path's
 * work request for it (lat.c's, one signalled per message) and reaps it.
 *   read:       the client's kernel in GDR_GP_LAT mode, one descriptor at a
 *               time, each timed from its store to its completion seen (the
 *               full round trip); the server is passive.
 *   write/send: both kernels ping-pong in GDR_GP_PING mode (gp_proto.h):
 *               each watches its receive slot's last byte in GPU memory for
 *               the peer's marker and answers by writing its own into its
 *               send slot's and storing a descriptor; a plain RDMA write (no
 *               immediate) or a send. The client starts and times each
 *               round trip; the row is half of it, as lat.c's.
 * The row is the kernel's time (globaltimer); an info line gives the proxy's
 * (host clock) beside it.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "gproxy.h"
#include "lat.h"
#include "log.h"
#include "stats.h"
#include "verb.h"

#define PING_WINDOW (GDR_LAT_MAX_OUTSTANDING * GDR_LAT_SIGNAL_EVERY) /* sends not reaped */

struct lp {
	struct gdr_lat *l;
	bool recvs;	   /* send: receives to reap and post again */
	uint64_t received; /* receive completions reaped */
};

/* The descriptor's message is this size's one operation: post it, signalled. */
static int lp_post(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	struct gdr_lat *l = ((struct lp *)ctx)->l;
	uint64_t sig = 1; /* every post signalled */

	(void)q;
	if (d->idx || d->len != l->size) {
		gdr_err("gpu-proxy: descriptor %u names slot %u of %u bytes; the message is slot 0 "
			"of %llu",
			d->seq, d->idx, d->len, (unsigned long long)l->size);
		return -1;
	}
	return l->c->xp->post(l->p->ep[0], 0, 1, &sig, 0, 0);
}

/* Receive completions (send): each one's receive posted again at once. */
static int lp_reap_recvs(struct lp *x)
{
	struct gdr_lat *l = x->l;
	struct gdr_xcqe e[8];
	int n = gdr_lat_reap(l, GDR_XCQ_RECV, e, 8);

	if (n < 0)
		return -1;
	if (n && gdr_post_rx(l->c, l->p, 0, (uint32_t)n, l->c->recv_len))
		return -1;
	x->received += (uint64_t)n;
	return n;
}

/* Send completions since the last call (every post is signalled). */
static int lp_poll(void *ctx, unsigned int q)
{
	struct lp *x = ctx;
	struct gdr_xcqe e[8];

	(void)q;
	if (x->recvs && lp_reap_recvs(x) < 0)
		return -1;
	return gdr_lat_reap(x->l, GDR_XCQ_SEND, e, 8);
}

/* The peer's last sends may complete here after the kernel ended: reap them (bounded). */
static int lp_drain(struct lp *x, uint64_t want)
{
	uint64_t start = 0;

	for (uint32_t spin = 0; x->recvs && x->received < want; spin++) {
		if (lp_reap_recvs(x) < 0)
			return -1;
		if ((spin & 1023) == 1023 && gdr_lat_idle(x->l, &start))
			return -1;
	}
	return 0;
}

/* The client's samples: the last iters of the kernel's, in usec; the host clock's median said. */
static int record(struct gdr_lat *l, const struct gdr_gp_result *r)
{
	uint64_t skip = r->nlat - l->iters;
	struct gdr_lat_stats st;
	double *host;

	for (uint64_t i = skip; i < r->nlat; i++)
		gdr_lat_record(l, (double)r->gpu[i] * 1e-3 / l->divisor);
	host = malloc(l->iters * sizeof(*host));
	if (!host) {
		gdr_err("out of memory for %llu samples", (unsigned long long)l->iters);
		return -1;
	}
	for (uint64_t i = 0; i < l->iters; i++)
		host[i] = (double)r->host[skip + i] * 1e-3 / l->divisor;
	if (!gdr_stats_compute(host, l->iters, NULL, 0, &st))
		gdr_info(
		    "%llu bytes, gpu-proxy: median %.2f us on the host's clock (the proxy: one "
		    "descriptor to the next%s), the row is the GPU's (globaltimer)",
		    (unsigned long long)l->size, st.median, l->divisor == 2.0 ? ", halved" : "");
	free(host);
	return 0;
}

/* Where the proxy is read on every side once: the GPU's ordering of the NIC's writes. */
static void say_order(const struct gdr_lat *l)
{
	static bool said;

	if (said || !l->ping || gdr_gproxy_nic_order(l->c->gp) >= GDR_GP_NIC_ORDER_OWNER)
		return;
	said = true;
	gdr_info("note: gpu-proxy: this GPU does not order GPUDirect RDMA writes for its own "
		 "kernels (CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING %d, below OWNER): "
		 "the kernel may see a message's last byte before the bytes ahead of it (the row "
		 "times the last byte; --validate flushes before it reads: docs/compare.md)",
		 gdr_gproxy_nic_order(l->c->gp));
}

int gdr_lat_proxy(struct gdr_lat *l)
{
	struct gdr_conn *c = l->c;
	/* static: a proxy thread left stuck in the backend (gproxy.c) may still read it */
	static struct lp x;
	struct gdr_gp_backend be = {.post = lp_post, .poll = lp_poll, .ctx = &x};
	uint64_t n = l->warmup + l->iters + 1; /* the kernel's first sample is dropped */
	struct gdr_gp_params p = {.mode = l->ping ? GDR_GP_PING : GDR_GP_LAT,
				  .queues = 1,
				  .n = (unsigned int)n,
				  .window = l->ping ? PING_WINDOW : 1,
				  .batch = 1,
				  .slots = 1,
				  .len = (uint32_t)l->size};
	struct gdr_gp_result r;

	if (!c->gp || n > UINT32_MAX || c->nqp != 1) {
		gdr_err("gpu-proxy: %s", !c->gp ? "its kernel is not open here"
						: "one QP and an iteration count only");
		return -1;
	}
	if (gdr_gproxy_stuck(c->gp)) { /* its thread still holds x */
		gdr_err("gpu-proxy: a proxy thread of an earlier size is stuck: no new run");
		return -1;
	}
	x = (struct lp){.l = l, .recvs = l->ping && c->o->verb == GDR_VERB_SEND};
	gdr_lat_build_op(l);
	l->op.inline_ok = false; /* never inline: the CPU reads no GPU memory */
	if (l->ping) {
		/* the ping-pong's markers: no immediate, the kernels read the last byte */
		if (c->o->verb == GDR_VERB_WRITE)
			l->op.kind = GDR_XOP_WRITE;
		p.rx = (uint64_t)(uintptr_t)(gdr_rx(c, l->p) + gdr_rx_off(c->o) + l->size - 1);
		p.tx = (uint64_t)(uintptr_t)(gdr_tx(l->p) + l->size - 1);
		p.first = !c->is_server;
	}
	if (gdr_lat_prep(l))
		return -1;
	say_order(l);
	if (gdr_gproxy_run(c->gp, &p, &be, &r) || lp_drain(&x, n))
		return -1;
	return c->is_server ? 0 : record(l, &r);
}
