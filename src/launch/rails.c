/* SPDX-License-Identifier: MIT */
/* --rails outside cluster mode: see rails.h. */
#include "config.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "clock.h"
#include "log.h"
#include "rails.h"
#include "run.h"

int gdr_rails_parse(const char *list, const char *const *names, int n, struct gdr_rail *r, int max)
{
	char buf[1024], *tok, *save = NULL;
	int k = 0;

	if (!strcmp(list, "all")) {
		if (!n) {
			gdr_err("--rails=all: this host has no RDMA device");
			return -1;
		}
		for (k = 0; k < n && k < max; k++) {
			snprintf(r[k].dev, sizeof(r[k].dev), "%s", names[k]);
			r[k].port = 1;
		}
		return k;
	}
	if (strlen(list) >= sizeof(buf) || !*list || strstr(list, ",,") || list[0] == ',' ||
	    list[strlen(list) - 1] == ',') {
		gdr_err("--rails: '%s' is not a list DEV[:PORT],... or all", list);
		return -1;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end;
		long port = 1;
		int i;

		if (colon) {
			*colon = '\0';
			port = strtol(colon + 1, &end, 10);
			if (!colon[1] || *end || port < 1 || port > 255) {
				gdr_err("--rails: '%s' is not a port (1..255) of %s", colon + 1,
					tok);
				return -1;
			}
		}
		for (i = 0; i < n && strcmp(names[i], tok); i++)
			;
		if (i == n) {
			gdr_err("--rails: no RDMA device '%s' on this host (%d device%s here)", tok,
				n, n == 1 ? "" : "s");
			return -1;
		}
		for (i = 0; i < k; i++)
			if (!strcmp(r[i].dev, tok) && r[i].port == port) {
				gdr_err("--rails: %s port %ld is named twice", tok, port);
				return -1;
			}
		if (k == max) {
			gdr_err("--rails: more than %d rails", max);
			return -1;
		}
		snprintf(r[k].dev, sizeof(r[k].dev), "%s", tok);
		r[k++].port = (int)port;
	}
	return k;
}

/* What a rail's client sends its parent per row. */
struct rail_row {
	uint64_t bytes, iters;
	double duration_s, bw_Bps, pps;
	int verdict;
	char path[12];
};

static int pipe_begin(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx;
	(void)ri;
	return 0;
}

static int pipe_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct rail_row w = {r->bytes,	 r->iters, r->duration_s, r->bw_avg_Bps, r->msg_rate_pps,
			     r->verdict, ""};
	int fd = *(int *)ctx;

	(void)ri;
	if (fd < 0) /* a server's rows: its client reports the rail */
		return 0;
	snprintf(w.path, sizeof(w.path), "%s", r->path ? r->path : "");
	return write(fd, &w, sizeof(w)) == (ssize_t)sizeof(w) ? 0 : -1;
}

static int pipe_end(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx;
	(void)ri;
	return 0;
}

static void pipe_destroy(void *ctx)
{
	(void)ctx;
}

static const struct gdr_reporter_ops pipe_ops = {"rail", pipe_begin, pipe_row, pipe_end,
						 pipe_destroy, NULL};

/*
 * One side of one rail in a child process (rows to fd; -1: none; it closes
 * other, the rail's pipe it must not hold open); the child's pid, -1 on error.
 */
static pid_t side(const struct gdr_opts *base, const struct gdr_test *t, const struct gdr_rail *r,
		  int i, bool server, int fd, int other)
{
	pid_t pid = fork();

	if (pid < 0)
		gdr_err("--rails: cannot start %s's %s: %s", r->dev, server ? "server" : "client",
			strerror(errno));
	if (pid)
		return pid;
	close(other);
	struct gdr_opts o = *base;
	struct gdr_oob oob = {0};
	struct gdr_reporter rep = {&pipe_ops, &fd};
	struct gdr_run_hooks h = {&oob, server, &rep};
	static char prog[128];

	snprintf(prog, sizeof(prog), "%s %s%s", gdr_prog(), r->dev, server ? " server" : "");
	gdr_set_prog(prog);
	o.dev_name = (char *)r->dev;
	o.ib_port = r->port;
	o.port = (uint16_t)(base->port + i);
	o.rails = NULL;
	if (server) {
		gdr_quiet = 1;
		o.server = NULL;
		o.bind_addr = base->server ? base->bind_addr : (char *)"127.0.0.1";
		o.listen_timeout = o.timeout + o.connect_timeout + 30;
	} else {
		o.server = base->server ? base->server : (char *)"127.0.0.1";
		if (!base->server && o.connect_timeout < 10)
			o.connect_timeout = 10; /* this rail's server is starting beside it */
	}
	_exit(gdr_run(&o, t, &h));
}

static void print_row(const char *rail, const struct gdr_opts *o, const struct rail_row *w,
		      const char *verdict)
{
	double bw = o->report_gbits ? w->bw_Bps * 8 / 1e9 : w->bw_Bps / 1048576.0;

	printf(" %-12s %-10llu %-8s %-18.2f %-14.6f %s\n", rail, (unsigned long long)w->bytes,
	       w->path, bw, w->pps / 1e6, verdict);
}

int gdr_rails_main(const struct gdr_opts *o, const struct gdr_test *t)
{
	struct gdr_rail r[GDR_MAX_RAILS];
	struct rail_row *rows[GDR_MAX_RAILS] = {0};
	int nrow[GDR_MAX_RAILS] = {0}, fds[GDR_MAX_RAILS][2], nr, ndev = 0, failed = 0;
	pid_t cli[GDR_MAX_RAILS] = {0}, srv[GDR_MAX_RAILS] = {0};
	const char *names[GDR_MAX_RAILS * 4] = {0};
	struct ibv_device **list = ibv_get_device_list(&ndev);
	int nn = 0;

	while (list && nn < ndev && nn < (int)(sizeof(names) / sizeof(names[0]))) {
		names[nn] = ibv_get_device_name(list[nn]);
		nn++;
	}
	nr = gdr_rails_parse(o->rails, names, nn, r, GDR_MAX_RAILS);
	if (list)
		ibv_free_device_list(list);
	if (nr < 0)
		return 1;
	if (o->rdma_cm) {
		gdr_err("--rails: the rails exchange over TCP; leave out -R");
		return 1;
	}
	if (o->csv_file || o->json_file || o->prom_file || o->samples_file) {
		gdr_err(
		    "--rails prints its table only; --csv, --json, --prom and --samples are for "
		    "one pair");
		return 1;
	}
	fflush(NULL);
	for (int i = 0; i < nr; i++) {
		if (pipe(fds[i]) < 0) {
			gdr_err("--rails: pipe: %s", strerror(errno));
			return 1;
		}
		if (!o->server)
			srv[i] = side(o, t, &r[i], i, true, -1, fds[i][1]);
		cli[i] = side(o, t, &r[i], i, false, fds[i][1], fds[i][0]);
		failed += cli[i] < 0 || srv[i] < 0;
		close(fds[i][1]);
	}
	{
		char names_s[512] = "";

		for (int i = 0; i < nr; i++) {
			size_t k = strlen(names_s);

			snprintf(names_s + k, sizeof(names_s) - k, "%s%.63s:%d", i ? ", " : "",
				 r[i].dev, r[i].port);
		}
		gdr_info("%d rail%s at once%s: %s", nr, nr == 1 ? "" : "s",
			 o->server ? "" : " in loopback", names_s);
	}
	/* the clients' rows, as they come (a pipe holds far more than a run's rows) */
	for (int i = 0; i < nr; i++) {
		struct rail_row w;
		int st;

		while (read(fds[i][0], &w, sizeof(w)) == (ssize_t)sizeof(w)) {
			struct rail_row *m = realloc(rows[i], (size_t)(nrow[i] + 1) * sizeof(w));

			if (!m)
				break;
			rows[i] = m;
			rows[i][nrow[i]++] = w;
		}
		close(fds[i][0]);
		if (cli[i] > 0 && waitpid(cli[i], &st, 0) == cli[i] &&
		    !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			gdr_err("rail %s port %d failed", r[i].dev, r[i].port);
			failed++;
		}
	}
	for (int i = 0; i < nr; i++) /* a server whose client is gone ends by itself; bounded */
		if (srv[i] > 0) {
			int st, k;

			for (k = 0; k < 100 && waitpid(srv[i], &st, WNOHANG) == 0; k++)
				usleep(100000);
			if (k == 100) {
				kill(srv[i], SIGTERM);
				waitpid(srv[i], &st, 0);
			}
		}
	printf(" %-12s %-10s %-8s %-18s %-14s %s\n", "#rail", "#bytes", "path",
	       o->report_gbits ? "BW average[Gb/s]" : "BW average[MiB/s]", "MsgRate[Mpps]",
	       "verdict");
	for (int k = 0; nr && k < nrow[0]; k++) {
		struct rail_row all = rows[0][k];
		double bytes = 0, wall = 0, msgs = 0;
		int have = 0, bad = 0;

		for (int i = 0; i < nr; i++) {
			char name[80];
			const struct rail_row *w;

			if (k >= nrow[i])
				continue;
			w = &rows[i][k];
			snprintf(name, sizeof(name), "%.63s:%d", r[i].dev, r[i].port);
			print_row(name, o, w,
				  w->verdict == 2   ? "FAIL"
				  : w->verdict == 1 ? "PASS"
						    : "-");
			bytes += (double)w->bytes * (double)w->iters;
			msgs += (double)w->iters;
			wall = w->duration_s > wall ? w->duration_s : wall;
			have++;
			bad += w->verdict == 2;
		}
		all.bw_Bps = wall > 0 ? bytes / wall : 0;
		all.pps = wall > 0 ? msgs / wall : 0;
		if (have == nr)
			print_row("all", o, &all, bad ? "FAIL" : "-"); /* a rail below its limit */
	}
	for (int i = 0; i < nr; i++)
		free(rows[i]);
	fflush(stdout);
	return failed ? 1 : 0;
}
