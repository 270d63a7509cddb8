/* SPDX-License-Identifier: MIT */
/*
 * The driver's entry: one run, or on a server the runs of clients one after
 * another (--persistent; a client that failed while setting up the test).
 */
#include "config.h"
#include <stdlib.h>
#include <unistd.h>
#include "admit.h"
#include "clock.h"
#include "exitcode.h"
#include "log.h"
#include "run.h"
#include "run_exit.h"
#include "stop.h"
#include "xport_pick.h"
#include "xport_fit.h"

static void no_client(const struct gdr_opts *o)
{
	gdr_err("no client connected within %g s (start the client, or raise --listen_timeout)",
		o->listen_timeout);
}

/* A server's state for its next client: the listening socket and --allow stay. */
static void next_client(struct gdr_run *run, struct gdr_reports *rs)
{
	gdr_run_end(run, rs);
	*run = (struct gdr_run){.c = {.o = &run->o, .is_server = true},
				.base = run->base,
				.lfd = run->lfd,
				.allow = run->allow};
	*rs = (struct gdr_reports){0};
}

/* --persistent: serve clients one after another until none comes within --listen_timeout. */
static int serve_on(struct gdr_run *run, const struct gdr_test *t, struct gdr_reports *rs)
{
	const struct gdr_opts *o = run->base;
	unsigned long served = 0, failed = 0;
	int r;

	for (;;) {
		r = gdr_run_once(run, t, rs, NULL);
		if (r == -2 || r == -3)
			break;
		served++;
		failed += r != 0;
		gdr_run_finish(run, rs, gdr_run_exit_status(r, false));
		next_client(run, rs);
		gdr_info("served %lu client%s (%lu failed); waiting for the next", served,
			 served == 1 ? "" : "s", failed);
	}
	if (r == -3)
		return 1;
	if (!served) {
		no_client(o);
		return 1;
	}
	gdr_info("no client for %g s: stopping after %lu client%s (%lu failed)", o->listen_timeout,
		 served, served == 1 ? "" : "s", failed);
	return 0;
}

int gdr_run(const struct gdr_opts *op, const struct gdr_test *t, const struct gdr_run_hooks *h)
{
	struct gdr_run run = {.base = op, .o = *op, .lfd = -1};
	struct gdr_conn *c = &run.c;
	struct gdr_reports rs = {0};
	int ret;

	c->o = &run.o;
	c->is_server = h ? h->is_server : !op->server;
	run.lfd = h && h->listen_fd > 0 ? h->listen_fd : -1;
	run.hooks = h;
	if (h)
		c->oob = *h->oob;
	srand48((long)(getpid() ^ gdr_now_ns()));
	ret = GDR_EXIT_USAGE;
	/* a transport this build lacks, or options it cannot honour: before any network step */
	if (gdr_check_combination(op) || gdr_xport_pick(op->transport, &c->xp) ||
	    gdr_xport_fit(op, c->xp, NULL, c->is_server))
		goto out;
	/* a client's Ctrl-C ends its run cleanly (what completed is written; a second one kills) */
	if (!c->is_server && (op->run_infinitely || !h) && gdr_stop_on_signals()) {
		ret = GDR_EXIT_ERROR;
		goto out;
	}
	if (!c->is_server && gdr_test_req_of(&run.req, op)) /* the test it asks for */
		goto out;
	if (c->is_server && gdr_allow_parse(&run.allow, op->allow))
		goto out;
	if (c->is_server && op->persistent) {
		ret = serve_on(&run, t, &rs) ? GDR_EXIT_ERROR : GDR_EXIT_OK;
		goto out;
	}
	ret = gdr_run_once(&run, t, &rs, h);
	/*
	 * A client that failed before its first size (it went away or refused
	 * during the setup, e.g. a bad -x) does not end the server: it waits for
	 * the next one, until one run ends or none comes within --listen_timeout
	 * (then exit 2). The server's own failures still end it.
	 */
	for (unsigned long failed = 1; ret == -1 && c->is_server && !h && run.admitted &&
				       !run.sizes_started && c->oob.peer_failed;
	     failed++) {
		gdr_info("that client failed while setting up the test; still waiting for a client "
			 "(%lu failed so far)",
			 failed);
		next_client(&run, &rs);
		ret = gdr_run_once(&run, t, &rs, h);
		if (ret == -2) { /* the failure above was the error: this is why it stops now */
			gdr_info("no other client came within %g s (--listen_timeout): stopping "
				 "with no completed run",
				 op->listen_timeout);
			ret = -1;
		}
	}
	if (ret == -2)
		no_client(op);
	if (ret && !c->is_server && gdr_stop_requested() && !run.stop.reported)
		gdr_err("interrupted by %s while setting up the test: no size ran",
			gdr_stop_signal_name());
	ret = gdr_run_exit_status(ret, !c->is_server && gdr_stop_requested());
	ret = gdr_run_finish(&run, &rs, ret); /* --prom says how it ended, failed runs too */
out:
	gdr_run_end(&run, &rs);
	if (run.lfd >= 0)
		close(run.lfd);
	return ret;
}
