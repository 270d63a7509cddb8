/* SPDX-License-Identifier: MIT */
/*
 * --rails outside cluster mode (see rails.h): the rails it names, their
 * listening ports held, a server and client process per rail, the launcher's
 * loop (rows up the pipes, the barrier before each size, a stop forwarded),
 * then every row through the reporters.
 */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "affinity.h"
#include "clock.h"
#include "exitcode.h"
#include "log.h"
#include "oob.h"
#include "rails_int.h"
#include "run_header.h"
#include "verbs_api.h"
#include "stop.h"

/*
 * The rails --rails names: a list of devices present, or every ACTIVE port (skipped ones
 * said). The count, or -1 (the list is wrong) or -2 (nothing of it to test on this host).
 */
static int pick(const struct gdr_opts *o, struct gdr_rail *id)
{
	if (!strcmp(o->rails, "all")) {
		static struct ib_port_info p[GDR_MAX_RAILS * 4];
		char root[PATH_MAX], skipped[1024];
		int np, n;

		gdr_host_root(root, sizeof(root));
		np = ib_ports_scan(root, p, (int)(sizeof(p) / sizeof(p[0])));
		n = gdr_rails_all(p, np, id, GDR_MAX_RAILS, skipped, sizeof(skipped));
		if (n > 0 && skipped[0])
			gdr_info("--rails=all: every ACTIVE port; skipped %s", skipped);
		return n > 0 ? n : -2; /* no port to test: the host, not the command line */
	}
	return gdr_rails_named(o->rails, id, GDR_MAX_RAILS, "--rails");
}

/*
 * Every port of id[0..n) is a port its device has (phys_port_cnt): 0, or -2 with one line
 * ("rxe0 has 1 port: port 2 does not exist"), before any process starts.
 */
static int ports_exist(const struct gdr_rail *id, int n, const char *opt)
{
	for (int i = 0; i < n; i++) {
		int ports = gdr_vx_dev_ports(id[i].dev);

		if (ports < 0) /* not known here: the cell's own open says why */
			continue;
		if (id[i].port > ports) {
			gdr_err("%s: %s has %d port%s: port %d does not exist", opt, id[i].dev,
				ports, ports == 1 ? "" : "s", id[i].port);
			return -2;
		}
	}
	return 0;
}

int gdr_rails_named(const char *list, struct gdr_rail *id, int max, const char *opt)
{
	char buf[GDR_MAX_RAILS * 4][64];
	const char *names[GDR_MAX_RAILS * 4] = {0};
	int nn = gdr_vx_dev_names(buf, GDR_MAX_RAILS * 4), n;

	for (int i = 0; i < nn; i++)
		names[i] = buf[i];
	n = gdr_rails_parse(list, names, nn, id, max, opt);
	if (n > 0 && ports_exist(id, n, opt))
		n = -2;
	return n;
}

/*
 * Loopback: every rail's TCP port held before any client starts, so a rail's
 * client reaches its own server only (a port another process holds is
 * refused here, in one line). 0 or -1.
 */
int gdr_rails_hold(const struct gdr_opts *o, struct rail *r, int n)
{
	const char *bind = "127.0.0.1", *base = gdr_prog();
	static char prog[160];

	if (o->server)
		return 0;
	for (int i = 0; i < n; i++) {
		int port = o->port + i;

		if (port > 65535) {
			gdr_err("--rails: rail %s would listen on TCP port %d: give a lower -p",
				r[i].name, port);
			return -1;
		}
		snprintf(prog, sizeof(prog), "%s --rails: rail %s", base, r[i].name);
		gdr_set_prog(prog); /* its one error line names the rail */
		r[i].lfd = gdr_oob_tcp_listen(bind, (uint16_t)port);
		gdr_set_prog(base);
		if (r[i].lfd < 0)
			return -1;
	}
	return 0;
}

/* --samples: every rail's own file writable before any process starts. 0 or -1. */
static int samples_ok(const struct gdr_opts *o, const struct rail *r, int n)
{
	char name[PATH_MAX];

	for (int i = 0; o->samples_file && i < n; i++) {
		FILE *f;

		gdr_rails_samples_name(o->samples_file, &r[i].id, name, sizeof(name));
		f = fopen(name, "w");
		if (!f) {
			gdr_err("--samples: cannot write %s (rail %s): %s", name, r[i].name,
				strerror(errno));
			return -1;
		}
		fclose(f);
	}
	return 0;
}

int gdr_rails_start(const struct gdr_opts *o, const struct gdr_test *t, struct rail *r, int n)
{
	fflush(NULL);
	for (int i = 0; i < n; i++) {
		int up[2], down[2];

		if (pipe(up) < 0 || pipe(down) < 0) {
			gdr_err("--rails: pipe: %s", strerror(errno));
			return -1;
		}
		if (!o->server) {
			r[i].srv = gdr_rail_server(o, t, r, n, i);
			close(r[i].lfd); /* the server has it now */
			r[i].lfd = -1;
		}
		r[i].cli = gdr_rail_client(o, t, r, n, i, up[1], down[0]);
		close(up[1]);
		close(down[0]);
		r[i].up = up[0];
		r[i].down = down[1];
		if (r[i].cli < 0 || r[i].srv < 0)
			return -1;
	}
	return 0;
}

static void close_rail(struct rail *r)
{
	if (r->up >= 0)
		close(r->up);
	if (r->down >= 0)
		close(r->down);
	r->up = r->down = -1;
	r->waiting = false;
}

/* Every rail still running is at the barrier: let them all start the size. */
static void release(struct rail *r, int n)
{
	int live = 0, waiting = 0;

	for (int i = 0; i < n; i++) {
		live += r[i].up >= 0;
		waiting += r[i].up >= 0 && r[i].waiting;
	}
	if (!live || waiting < live)
		return;
	for (int i = 0; i < n; i++)
		if (r[i].up >= 0) {
			r[i].waiting = false;
			if (write(r[i].down, "g", 1) != 1)
				close_rail(&r[i]);
		}
}

/* Rows up the pipes until every client's pipe ends; the barrier; a stop. */
static void collect(struct rail *r, int n, size_t nsizes, char *stopped, size_t len)
{
	uint64_t stop_ns = 0, killed_ns = 0;

	for (;;) {
		struct pollfd p[GDR_MAX_RAILS];
		int idx[GDR_MAX_RAILS], m = 0;

		for (int i = 0; i < n; i++)
			if (r[i].up >= 0) {
				p[m] = (struct pollfd){r[i].up, POLLIN, 0};
				idx[m++] = i;
			}
		if (!m)
			return;
		if (poll(p, (nfds_t)m, 200) < 0 && errno != EINTR)
			return;
		if (gdr_stop_requested() && !stopped[0]) {
			stop_ns = gdr_now_ns();
			gdr_rails_stop(r, n, nsizes, stopped, len);
			for (int i = 0; i < n; i++) /* a client at the barrier ends at once */
				if (r[i].down >= 0) {
					close(r[i].down);
					r[i].down = -1;
				}
		}
		if (stop_ns && !killed_ns &&
		    (gdr_stop_hurried() ||
		     gdr_now_ns() - stop_ns > GDR_RAILS_GRACE_S * 1000000000ull)) {
			gdr_rails_kill(r, n);
			killed_ns = gdr_now_ns();
		}
		if (killed_ns && gdr_now_ns() - killed_ns > 500000000ull) {
			for (int i = 0; i < n; i++) /* a process that outlives SIGKILL (D state) */
				close_rail(&r[i]);
			return;
		}
		for (int k = 0; k < m; k++)
			if (p[k].revents && gdr_rail_read(&r[idx[k]]) <= 0)
				close_rail(&r[idx[k]]);
		if (!stopped[0])
			release(r, n);
	}
}

void gdr_rails_wait(struct rail *r, int n, size_t nsizes, char *stopped, size_t len)
{
	collect(r, n, nsizes, stopped, len);
	gdr_rails_reap(r, n, stopped[0] != '\0');
}

static void say_rails(const struct gdr_opts *o, const struct rail *r, int n)
{
	char names[512] = "";

	for (int i = 0; i < n; i++) {
		size_t k = strlen(names);

		snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "", r[i].name);
	}
	gdr_info("%d rail%s at once%s: %s", n, n == 1 ? "" : "s", o->server ? "" : " in loopback",
		 names);
}

/* With a server address the user gives the token (gdr_rails_precheck). */
void gdr_rails_own_token(struct gdr_opts *o)
{
	static char token[32];

	if (o->run_token)
		return;
	snprintf(token, sizeof(token), "rails.%x.%llx", (unsigned)getpid(),
		 (unsigned long long)gdr_now_ns());
	o->run_token = token;
}

int gdr_rails_main(const struct gdr_opts *o, const struct gdr_test *t)
{
	static struct rail r[GDR_MAX_RAILS];
	struct gdr_rail id[GDR_MAX_RAILS];
	struct gdr_report_files files = gdr_run_report_files(o); /* the files a pair writes */
	struct gdr_opts copy;
	struct gdr_reports rs = {0};
	char stopped[320] = "";
	uint64_t *sizes = NULL;
	size_t nsizes = 0;
	int n, rc = GDR_EXIT_ERROR;
	bool start_failed;

	/* what needs no device first: -D over the server's limit fails on any host */
	if (gdr_rails_precheck(o))
		return GDR_EXIT_USAGE;
	n = pick(o, id);
	if (n < 0)
		return n == -2 ? GDR_EXIT_ERROR : GDR_EXIT_USAGE;
	if (gdr_opts_sizes(o, &sizes, &nsizes))
		return GDR_EXIT_USAGE;
	free(sizes);
	for (int i = 0; i < n; i++) {
		r[i] = (struct rail){.id = id[i], .up = -1, .down = -1, .lfd = -1, .status = -1};
		snprintf(r[i].name, sizeof(r[i].name), "%.63s:%d", id[i].dev, id[i].port);
	}
	/* a Ctrl-C stops every rail (what completed is written; a second kills the rails) */
	if (gdr_stop_on_signals_hurry() || samples_ok(o, r, n) || gdr_rails_hold(o, r, n) ||
	    gdr_reports_open(&rs, &files))
		goto out;
	copy = *o;
	gdr_rails_own_token(&copy);
	start_failed = gdr_rails_start(&copy, t, r, n) != 0;
	say_rails(o, r, n);
	gdr_rails_wait(r, n, nsizes, stopped, sizeof(stopped));
	rc = gdr_rails_status(r, n, start_failed, stopped);
	gdr_rails_report(o, &rs, r, n, stopped, &rc);
	if (stopped[0])
		gdr_err("%s (their rows are above and in the CSV/JSON files)", stopped);
out:
	gdr_reports_close(&rs);
	gdr_rails_free(r, n);
	return rc;
}

void gdr_rails_free(struct rail *r, int n)
{
	for (int i = 0; i < n; i++) {
		close_rail(&r[i]);
		if (r[i].lfd >= 0)
			close(r[i].lfd);
		r[i].lfd = -1;
		free(r[i].rows);
		for (int k = 0; k < r[i].nrow; k++)
			free(r[i].cnts[k]);
		free(r[i].cnts);
		r[i].rows = NULL;
		r[i].cnts = NULL;
		r[i].nrow = 0;
	}
}
