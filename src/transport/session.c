/* SPDX-License-Identifier: MIT */
/*
 * The exchange protocol on top of the out-of-band channel:
 *   client HELLO -> server ACCEPT | REJECT
 *   --compare: both SYNC MEM_GPU (is this side's memory GPU memory?)
 *   both QPINFO (each QP's address blob, the buffer and its key, MTU, memory kind), per path
 *   --staged/--compare: both SYNC GPU_ID (staging/peer_gpu.c); one GPU for both
 *     sides and --stage_copy=auto: server SYNC PROBED after its probes
 *   per size: [--compare: both SYNC COPY_RATE] server SYNC READY -> client SYNC GO
 *     -> run [-c UD/UC send_bw: sender SYNC SENT as its loop ends; after it,
 *     receiver SYNC RECEIVED, RX_MEAS, RX_NS] -> both RESULT
 *   client BYE
 * Active sides send SYNC HEARTBEAT once a second; waits skip them, so a
 * wait times out only after --timeout seconds without any sign of life.
 */
#include "config.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "conn.h"
#include "log.h"
#include "qp_attrs.h"
#include "session.h"
#include "stop.h"
#include "verbs_api.h"

_Static_assert(GDR_XADDR_MAX <= GDR_WIRE_ADDR_MAX, "an endpoint's address fits QPINFO's blob");

__attribute__((format(printf, 3, 0))) static void refuse(struct gdr_conn *c, bool soft,
							 const char *fmt, va_list ap)
{
	char reason[256];

	vsnprintf(reason, sizeof(reason), fmt, ap);
	if (soft)
		gdr_warn("%s", reason);
	else
		gdr_err("%s", reason);
	if (c->oob.ops)
		gdr_oob_reject(&c->oob, "%s", reason);
}

void gdr_session_reject(struct gdr_conn *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refuse(c, false, fmt, ap);
	va_end(ap);
}

void gdr_session_refuse(struct gdr_conn *c, bool soft, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refuse(c, soft, fmt, ap);
	va_end(ap);
}

int gdr_session_expect(struct gdr_conn *c, struct gdr_msg *m, uint16_t type)
{
	for (;;) {
		if (gdr_xp_recv(c, m)) /* the transport's traffic moved meanwhile */
			return -1;
		if (m->type == GDR_MSG_SYNC && m->u.sync.step == GDR_STEP_HEARTBEAT)
			continue;
		if (m->type == GDR_MSG_REJECT) {
			m->u.reason[sizeof(m->u.reason) - 1] = 0;
			gdr_err("%s: %s", c->is_server ? "client" : "server", m->u.reason);
			return -1;
		}
		if (m->type != type) {
			gdr_err("protocol error: expected %s from %s, got %s",
				gdr_msg_type_name(type), c->oob.peer,
				gdr_msg_type_name(m->type));
			return -1;
		}
		return 0;
	}
}

int gdr_sync_send(struct gdr_conn *c, uint32_t step, uint64_t value)
{
	struct gdr_msg m = { .type = GDR_MSG_SYNC, .u.sync = { .step = step, .value = value } };

	return gdr_oob_send(&c->oob, &m);
}

int gdr_sync_expect(struct gdr_conn *c, uint32_t step, uint64_t *value)
{
	struct gdr_msg m;

	if (gdr_session_expect(c, &m, GDR_MSG_SYNC))
		return -1;
	if (m.u.sync.step != step) {
		gdr_err("protocol error: %s is at step %u, expected %u", c->oob.peer,
			m.u.sync.step, step);
		return -1;
	}
	if (value)
		*value = m.u.sync.value;
	return 0;
}

void gdr_hostname(char *buf, size_t len)
{
	if (gethostname(buf, len - 1) || !buf[0] || !strcmp(buf, "(none)"))
		snprintf(buf, len, "unknown");
	buf[len - 1] = 0;
}

int gdr_heartbeat(struct gdr_conn *c, uint64_t now_ns)
{
	if (now_ns - c->hb_last_ns < 1000000000ULL)
		return 0;
	c->hb_last_ns = now_ns;
	return gdr_sync_send(c, GDR_STEP_HEARTBEAT, 0);
}

bool gdr_interrupted(const struct gdr_conn *c, struct gdr_stop_at *at, uint64_t done,
		     uint64_t total)
{
	if (c->o->run_infinitely || !gdr_stop_requested())
		return false;
	*at = (struct gdr_stop_at){.in_loop = true, .done = done, .total = total};
	return true;
}

int gdr_peer_check(struct gdr_conn *c, uint64_t now_ns)
{
	if (now_ns - c->peer_check_ns < GDR_PEER_CHECK_NS)
		return 0;
	c->peer_check_ns = now_ns;
	return gdr_oob_gone(&c->oob) ? -1 : 0;
}

int gdr_session_client_hello(struct gdr_conn *c, const struct gdr_test_req *req)
{
	struct gdr_msg m = {.type = GDR_MSG_HELLO};

	gdr_test_req_to_hello(req, &m.u.hello);
	gdr_hostname(m.u.hello.host, sizeof(m.u.hello.host));
	if (gdr_oob_send(&c->oob, &m))
		return -1;
	return gdr_session_expect(c, &m, GDR_MSG_ACCEPT);
}

/* A test option given on the server too must agree with the client's. */
#define MISMATCH(field, name, theirs)                                                           \
	do {                                                                                    \
		if (gdr_opts_is_set(o, &o->field) && (double)o->field != (double)(theirs)) {     \
			gdr_session_refuse(c, o->persistent,                                    \
					   "mismatched options: server has %s %g, client %g "   \
					   "(the server learns the test from the client: "      \
					   "drop it on the server)",                            \
					   name, (double)o->field, (double)(theirs));           \
			return -1;                                                              \
		}                                                                               \
	} while (0)

/* Test options given on the server too must agree; the server's memory must allow them. */
static int server_checks(struct gdr_conn *c, const struct gdr_opts *o, const struct gdr_hello *h)
{
	if (o->size && !o->all_sizes && !o->sizes_set && gdr_opts_is_set(o, &o->size) &&
	    (h->nsizes != 1 || h->sizes[0] != o->size)) {
		gdr_session_refuse(c, o->persistent,
				   "mismatched options: server has -s %llu, client asks %s%llu",
				   (unsigned long long)o->size, h->nsizes > 1 ? "a sweep from " : "",
				   (unsigned long long)h->sizes[0]);
		return -1;
	}
	MISMATCH(iters, "-n", h->iters);
	MISMATCH(num_qps, "-q", h->num_qps);
	MISMATCH(bidir, "-b", !!(h->flags & GDR_HF_BIDIR));
	MISMATCH(tx_depth, "-t", h->tx_depth);
	MISMATCH(duration, "-D", h->duration);
	MISMATCH(stage_chunk, "--stage_chunk", h->stage_chunk);
	if ((h->flags & GDR_HF_RDMA_CM) && gdr_opts_is_set(o, &o->mtu)) {
		gdr_session_refuse(c, o->persistent,
				   "mismatched options: server has -m %u, but the client connects "
				   "through rdma_cm (-R), which takes the path MTU from the route "
				   "(drop -m on the server)",
				   o->mtu);
		return -1;
	}
	if (h->inline_size && gdr_mem_on_device(&c->data)) {
		gdr_session_refuse(c, o->persistent,
				   "the server's buffers are in GPU memory: inline data (-I) "
				   "is impossible there");
		return -1;
	}
	return 0;
}

/* The client's test on -c: refused by a scratch copy of the options (they stay the server's). */
static int conn_refused(struct gdr_conn *c, const struct gdr_test_req *req)
{
	struct gdr_opts t = *c->o;

	gdr_test_req_apply(req, &t);
	if (!gdr_conn_refusal(&t))
		return 0;
	gdr_session_reject(c, "refused a request from %s: -c %s: %s", c->oob.peer,
			   gdr_conn_name(t.conn), gdr_conn_refusal(&t));
	return GDR_REFUSED;
}

/* Every field of the request within the ranges the client's own options have. */
static int in_ranges(struct gdr_conn *c, const struct gdr_hello *h)
{
	const struct {
		const char *opt;
		double v;
	} f[] = {
	    {"qp", h->num_qps},	       {"tx-depth", h->tx_depth}, {"rx-depth", h->rx_depth},
	    {"cq-mod", h->cq_mod},     {"inline_size", h->inline_size},
	    {"iters", (double)h->iters}, {"warmup", (double)h->warmup},
	};
	char why[160];

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (gdr_opt_check(f[i].opt, f[i].v, why, sizeof(why)))
			goto bad;
	if (h->duration > 0 && gdr_opt_check("duration", h->duration, why, sizeof(why)))
		goto bad;
	for (uint32_t i = 0; i < h->nsizes; i++)
		if (gdr_opt_check("size", (double)h->sizes[i], why, sizeof(why)))
			goto bad;
	return 0;
bad:
	gdr_session_refuse(c, true,
			   "refused a request from %s: %s (a corrupted or foreign request?)",
			   c->oob.peer, why);
	return -1;
}

/* How to start the program of test (v, k): "gdr_write_bw --write_with_imm" for a variant. */
static void started_as(enum gdr_verb v, enum gdr_kind k, char *buf, size_t n)
{
	const struct gdr_verb_def *d = gdr_verb_def(v), *base = d;

	for (int i = 0; d && d->flag && i < GDR_NVERBS; i++)
		if (!gdr_verb_defs[i].flag && gdr_verb_defs[i].tests[k] == d->tests[k])
			base = &gdr_verb_defs[i];
	snprintf(buf, n, "gdr_%s_%s%s%s", base ? base->name : "unknown", gdr_kind_name(k),
		 d && d->flag ? " --" : "", d && d->flag ? d->flag : "");
}

/*
 * Without --persistent, a server runs the test it was started as; a plain
 * server also runs its tests' variant (write_imm for gdr_write_bw: the
 * client's flag decides), one given the variant's flag runs that alone.
 */
static int same_test(struct gdr_conn *c, const struct gdr_opts *o, const struct gdr_hello *h)
{
	const struct gdr_verb_def *mine = gdr_verb_def(o->verb), *theirs = gdr_verb_def(h->verb);
	char server[64], client[64];

	if (o->persistent || (h->verb == o->verb && h->kind == o->kind))
		return 0;
	if (h->kind == o->kind && mine && theirs && !mine->flag &&
	    mine->tests[o->kind] == theirs->tests[h->kind])
		return 0;
	started_as(o->verb, o->kind, server, sizeof(server));
	started_as((enum gdr_verb)h->verb, (enum gdr_kind)h->kind, client, sizeof(client));
	gdr_session_refuse(c, o->persistent,
			   "wrong test: the client runs %s_%s, this server was started as "
			   "%s (start it as %s, or with --persistent to serve any test)",
			   gdr_verb_name((enum gdr_verb)h->verb),
			   gdr_kind_name((enum gdr_kind)h->kind), server, client);
	return -1;
}

/*
 * --run_token: a client of another run (a rail's client that reached a port this server
 * holds) is refused before anything of its test is looked at; the server goes on waiting.
 */
static int token_refused(struct gdr_conn *c, const char *mine, const char *theirs)
{
	char given[48] = "no --run_token";

	if (!strcmp(mine, theirs))
		return 0;
	if (theirs[0])
		snprintf(given, sizeof(given), "--run_token=%s", theirs);
	gdr_session_refuse(c, true,
			   "not this server's run: the client (%s) gives %s, this server %s; "
			   "the server goes on waiting for its own client",
			   c->oob.peer, given, mine[0] ? "another --run_token" : "none");
	return -1;
}

/* The client's --transport must be this server's: refused before any QP exists. */
static int xport_refused(struct gdr_conn *c, const struct gdr_opts *o, const char *theirs)
{
	const char *mine = o->transport ? o->transport : GDR_XPORT_DEFAULT;

	if (!strcmp(mine, theirs))
		return 0;
	gdr_session_refuse(c, o->persistent,
			   "mismatched transports: the client (%s) uses --transport=%s, this "
			   "server --transport=%s (give both sides the same)",
			   c->oob.peer, theirs, mine);
	return -1;
}

int gdr_session_server_hello(struct gdr_conn *c, const struct gdr_msg *m, struct gdr_test_req *req)
{
	const struct gdr_opts *o = c->o;
	const struct gdr_hello *h = &m->u.hello;

	/* a refusal before the test is known, or of a test a --persistent server may not run, is soft */
	if (m->type != GDR_MSG_HELLO) {
		gdr_session_refuse(c, true, "expected a HELLO from %s, got %s", c->oob.peer,
				   gdr_msg_type_name(m->type));
		return GDR_REFUSED;
	}
	if (token_refused(c, o->run_token ? o->run_token : "", h->token) || in_ranges(c, h))
		return GDR_REFUSED;
	if (xport_refused(c, o, h->xport) || same_test(c, o, h) || server_checks(c, o, h))
		return o->persistent ? GDR_REFUSED : GDR_REFUSED_FATAL;
	gdr_test_req_from_hello(req, h);
	return conn_refused(c, req);
}

int gdr_session_accept(struct gdr_conn *c)
{
	struct gdr_msg m = { .type = GDR_MSG_ACCEPT };

	return gdr_oob_send(&c->oob, &m);
}

int gdr_session_qpinfo(struct gdr_conn *c, struct gdr_path *p)
{
	struct gdr_msg m = { .type = GDR_MSG_QPINFO };
	struct gdr_qpinfo *q = &m.u.qpinfo;

	if (gdr_vx_path_local(c, p, q)) /* the verbs transport's blobs, key and MTU */
		return -1;
	q->addr = (uint64_t)(uintptr_t)p->mem->addr;
	q->len = 2 * c->region_len;
	q->rd_atomic = c->max_rd_atomic;
	gdr_hostname(q->host, sizeof(q->host));
	snprintf(q->mem_kind, sizeof(q->mem_kind), "%s", c->data.ops->kind);
	if (gdr_oob_send(&c->oob, &m) || gdr_session_expect(c, &m, GDR_MSG_QPINFO))
		return -1;
	if (q->nqp != c->nqp || q->len != 2 * c->region_len) {
		gdr_err("protocol error: %s has %u QPs and a %llu-byte buffer, expected %u and %zu",
			c->oob.peer, q->nqp, (unsigned long long)q->len, c->nqp,
			2 * c->region_len);
		return -1;
	}
	p->remote = *q;
	if (gdr_vx_path_remote(c, p)) /* the verbs transport reads the blobs */
		return -1;
	/* what rdma_cm negotiates on -R, and what gdr_qps_connect sets otherwise */
	c->init_depth = gdr_init_depth(c->max_rd_atomic, q->rd_atomic);
	if (p == &c->path[0])
		gdr_vx_warn_subnets(c, p);
	if (!c->is_server)
		snprintf(c->peer_host, sizeof(c->peer_host), "%s", q->host);
	return 0;
}

int gdr_session_results(struct gdr_conn *c, struct gdr_result_wire *mine,
			struct gdr_result_wire *peer, gdr_check_fn check, void *arg)
{
	struct gdr_msg m = { .type = GDR_MSG_RESULT }, in;
	char note[128];

	if (c->is_server) {
		if (gdr_session_expect(c, &in, GDR_MSG_RESULT))
			return -1;
		if (check && check(c, arg, mine->note, sizeof(mine->note)))
			mine->status = 1;
		m.u.result = *mine;
		if (gdr_oob_send(&c->oob, &m))
			return -1;
		*peer = in.u.result;
		if (mine->status)
			gdr_err("%s", mine->note);
		return mine->status ? -1 : 0;
	}
	m.u.result = *mine;
	if (gdr_oob_send(&c->oob, &m) || gdr_session_expect(c, &in, GDR_MSG_RESULT))
		return -1;
	*peer = in.u.result;
	if (peer->status) {
		peer->note[sizeof(peer->note) - 1] = 0;
		gdr_err("server: %s", peer->note);
		return -1;
	}
	if (check && check(c, arg, note, sizeof(note))) {
		gdr_session_reject(c, "client: %s", note);
		return -1;
	}
	return 0;
}
