/* SPDX-License-Identifier: MIT */
/* The server's admission: it says what it waits for, then checks each client's request. */
#include "config.h"
#include <string.h>
#include "admit.h"
#include "clock.h"
#include "log.h"
#include "path_setup.h"
#include "path_xport.h"
#include "server_limits.h"
#include "session.h"
#include "verbs_api.h"

#define GDR_HELLO_MS 5000 /* a new connection has this long to send its request */

/* Combinations the tests do not have. */
int gdr_check_combination(const struct gdr_opts *o)
{
	if (gdr_paths_plan(o, false).staged && o->kind == GDR_KIND_BW &&
	    gdr_verb_def(o->verb)->target_recvs && o->rx_depth < 2) {
		gdr_err("-r %u: the staged send path needs -r 2 or more", o->rx_depth);
		return -1;
	}
	if (o->kind != GDR_KIND_LAT)
		return 0;
	if (o->num_qps > 1) {
		gdr_err("-q %u: latency tests run on one QP", o->num_qps);
		return -1;
	}
	if (o->bidir) {
		gdr_err("-b: latency tests are ping-pong already; -b is for bandwidth tests");
		return -1;
	}
	return 0;
}

/* "10.9.0.1" for a RoCE GID that holds an IPv4 address, else the bind address or host name. */
static void this_host(const struct gdr_conn *c, char *buf, size_t len)
{
	const uint8_t *g = gdr_vx_gid(c); /* the verbs transport's, zero without it */
	static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (c->o->bind_addr)
		snprintf(buf, len, "%s", c->o->bind_addr);
	else if (!memcmp(g, v4, sizeof(v4)))
		snprintf(buf, len, "%u.%u.%u.%u", g[12], g[13], g[14], g[15]);
	else
		gdr_hostname(buf, len);
}

/* The server says at once what it is doing, and how to start its client. */
void gdr_announce(const struct gdr_conn *c, const char *prog)
{
	const struct gdr_opts *o = c->o;
	char host[96], given[128], limit[32] = "", token[48] = "", dev[160], xport[64] = "";

	this_host(c, host, sizeof(host));
	if (o->listen_timeout >= 0)
		snprintf(limit, sizeof(limit), " for %g s", o->listen_timeout);
	if (gdr_xpath_on(c)) /* the transport's own words: its name and device, no GID */
		snprintf(dev, sizeof(dev), "the %s transport on %s", c->xp->name, c->dev_name);
	else
		snprintf(dev, sizeof(dev), "%s port %d, GID index %d", c->dev_name, c->port,
			 c->gid_index);
	gdr_info("waiting%s for a client on TCP port %u (%s%s, %s) with %s", limit, o->port,
		 o->bind_addr ? "address " : "all addresses", o->bind_addr ? o->bind_addr : "",
		 o->allow ? "--allow limits the peers" : "any peer may connect", dev);
	if (o->run_token) /* only a client with it is served */
		snprintf(token, sizeof(token), " --run_token=%s", o->run_token);
	if (gdr_xpath_on(c)) /* both sides give the same transport (and provider) */
		snprintf(xport, sizeof(xport), " --transport=%s%s", c->xp->name,
			 o->provider ? " --provider=NAME" : "");
	gdr_info("start the client with: %s%s%s%s%s [test options] %s",
		 o->persistent ? "any gdr_*_bw/_lat" : prog, xport,
		 c->dev_name[0] && !xport[0] ? " -d DEV" : "",
		 o->port != GDR_DEFAULT_PORT ? " -p PORT" : "", token, host);
	gdr_opts_test_given(o, given, sizeof(given));
	if (given[0])
		gdr_info("note: %s: the client decides the test; given here, these only have to "
			 "match the client's",
			 given);
}

/* A client's request, checked: 0 accepted, else GDR_REFUSED(_FATAL) (REJECT sent). */
int gdr_admit(struct gdr_run *run, const struct gdr_msg *m)
{
	struct gdr_conn *c = &run->c;
	int r;

	run->o = *run->base; /* each request meets the server's own options */
	r = gdr_session_server_hello(c, m, &run->req);
	if (r)
		return r;
	gdr_test_req_apply(&run->req, &run->o);
	gdr_role_fill(&c->role, &run->o, c->is_server); /* the test is known now */
	c->client_gpu = run->req.client_gpu;
	c->inline_explicit = run->req.inline_set;
	snprintf(c->peer_host, sizeof(c->peer_host), "%s", run->req.host);
	if (gdr_check_combination(c->o)) {
		gdr_session_refuse(c, true, "the server cannot run this test");
		return GDR_REFUSED;
	}
	c->nqp = c->o->num_qps;
	gdr_size_buffers(c, &run->req);
	return gdr_server_limits(c, run->req.nsizes) ? GDR_REFUSED : 0;
}

/*
 * Server: wait for a client whose request is valid and within the limits.
 * Connections that send garbage, another protocol version or nothing in time
 * are dropped side by side (oob_gate.c); a refused request is answered with
 * a REJECT and the server waits for the next client. Once a test is
 * accepted, further clients are refused by the busy responder.
 * 0, -1 (error printed), -2 nobody came within --listen_timeout (not printed).
 */
int gdr_await_client(struct gdr_run *run)
{
	struct gdr_conn *c = &run->c;
	const struct gdr_opts *o = c->o;
	uint64_t deadline =
	    o->listen_timeout < 0 ? 0 : gdr_now_ns() + (uint64_t)(o->listen_timeout * 1e9);
	int hello_ms =
	    gdr_ms(o->timeout) < GDR_HELLO_MS ? gdr_ms(o->timeout) : GDR_HELLO_MS;
	char why[200];
	struct gdr_msg m;

	for (;;) {
		uint64_t now = gdr_now_ns();
		int wait = deadline ? (now < deadline ? (int)((deadline - now) / 1000000) : 0) : -1;
		int r = gdr_oob_tcp_await(&c->oob, &m, run->lfd, &run->allow, wait, hello_ms,
					  gdr_ms(o->timeout));

		if (r)
			return r;
		c->oob.role = "client";
		gdr_oob_phase(&c->oob, "while setting up the test");
		r = gdr_admit(run, &m);
		if (r == 0)
			break;
		gdr_oob_close(&c->oob);
		if (r == GDR_REFUSED_FATAL)
			return -1;
		gdr_info("refused that client; still waiting for a client");
	}
	snprintf(why, sizeof(why), "server busy: running %s_%s for %s; try again later",
		 gdr_verb_name(o->verb), gdr_kind_name(o->kind), c->oob.peer);
	run->busy.allow = &run->allow;
	gdr_busy_start(&run->busy, run->lfd, why);
	return 0;
}
