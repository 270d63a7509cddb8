/* SPDX-License-Identifier: MIT */
/* A rail's server and client processes, and the client's reporter that writes up its pipe. */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "gpu_list.h"
#include "log.h"
#include "rails_int.h"
#include "run.h"
#include "stop.h"

struct side {
	int up, down;
	uint64_t
	    start_ns; /* when the path under way began (the barrier's release, or the last row) */
};

static int pipe_begin(void *ctx, const struct gdr_run_info *ri)
{
	struct rail_info w = {.ri = *ri};

	if (((struct side *)ctx)->up < 0) /* a server's: nothing goes up */
		return 0;
	snprintf(w.test, sizeof(w.test), "%s", ri->test ? ri->test : "");
	snprintf(w.mem_kind, sizeof(w.mem_kind), "%s", ri->mem_kind ? ri->mem_kind : "");
	/* pointers into this process; the launcher puts its own back */
	w.ri.tool_version = w.ri.test = w.ri.role = w.ri.mem_kind = NULL;
	w.ri.opts = NULL;
	return gdr_rail_put(((struct side *)ctx)->up, RAIL_INFO, &w, sizeof(w), NULL, 0);
}

static int pipe_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct side *s = ctx;
	struct rail_row w = {.r = *r, .start_ns = s->start_ns};
	int rc;

	(void)ri;
	if (((struct side *)ctx)->up < 0)
		return 0;
	snprintf(w.path, sizeof(w.path), "%s", r->path ? r->path : "");
	snprintf(w.lat_kind, sizeof(w.lat_kind), "%s", r->lat_kind ? r->lat_kind : "");
	snprintf(w.cnt_dev, sizeof(w.cnt_dev), "%s", r->cnt_dev ? r->cnt_dev : "");
	w.r.path = w.r.lat_kind = w.r.cnt_dev = NULL;
	w.r.cnt = NULL;
	if (!r->cnt)
		w.r.ncnt = -1; /* -W off */
	rc = gdr_rail_put(s->up, RAIL_ROW, &w, sizeof(w), r->cnt,
			  r->cnt && r->ncnt > 0 ? (size_t)r->ncnt * sizeof(*r->cnt) : 0);
	s->start_ns = gdr_now_ns(); /* the next path of the size begins */
	return rc;
}

static int pipe_end(void *ctx, const struct gdr_run_info *ri)
{
	if (((struct side *)ctx)->up < 0)
		return 0;
	return gdr_rail_put(((struct side *)ctx)->up, RAIL_END, ri->stopped, sizeof(ri->stopped),
			    NULL, 0);
}

static void pipe_destroy(void *ctx)
{
	(void)ctx;
}

static const struct gdr_reporter_ops pipe_ops = {"rail", pipe_begin, pipe_row, pipe_end,
						 pipe_destroy, NULL};

/*
 * Before each size: say so up the pipe and wait for the launcher's go-ahead
 * (every rail at the same size), or a stop.
 */
static int barrier(void *ctx, uint64_t size)
{
	struct side *s = ctx;
	struct pollfd p = {s->down, POLLIN, 0};
	char go;

	if (gdr_rail_put(s->up, RAIL_READY, &size, sizeof(size), NULL, 0))
		return -1;
	for (;;) {
		int k = poll(&p, 1, 100);

		if (gdr_stop_requested())
			return -1;
		if (k > 0 && read(s->down, &go, 1) != 1)
			return -1; /* EOF: the launcher stopped */
		if (k > 0) {
			s->start_ns = gdr_now_ns();
			return 0;
		}
		if (k < 0 && errno != EINTR)
			return -1;
	}
}

/* In the child: name it, and close what the launcher holds of every rail but its own listener. */
static void child_of(struct rail *rs, int n, int i, bool server)
{
	static char prog[160];
	const struct rail *r = &rs[i];

	for (int j = 0; j < n; j++) {
		if (rs[j].up >= 0)
			close(rs[j].up);
		if (rs[j].down >= 0)
			close(rs[j].down);
		if (rs[j].lfd >= 0 && !(server && j == i))
			close(rs[j].lfd);
	}

	snprintf(prog, sizeof(prog), "%s %s%s", gdr_prog(), r->name, server ? " server" : "");
	gdr_set_prog(prog);
}

pid_t gdr_rail_server(const struct gdr_opts *base, const struct gdr_test *t, struct rail *rs, int n,
		      int i)
{
	struct rail *r = &rs[i];
	char what[128];
	pid_t pid;

	snprintf(what, sizeof(what), "--rails: %s's server", r->name);
	if (gdr_fork_check(what))
		return -1;
	pid = fork();
	if (pid < 0)
		gdr_err("--rails: cannot start %s's server: %s", r->name, strerror(errno));
	if (pid)
		return pid;
	struct gdr_opts o = *base;
	struct gdr_oob oob = {0};
	struct side none = {-1, -1, 0};
	struct gdr_reporter rep = {&pipe_ops, &none}; /* its client reports the rail */
	struct gdr_run_hooks h = {
	    .oob = &oob, .is_server = true, .sink = &rep, .listen_fd = r->lfd};

	child_of(rs, n, i, true);
	signal(SIGINT, SIG_DFL); /* the launcher ends its servers */
	signal(SIGTERM, SIG_DFL);
	gdr_quiet = 1;
	o.dev_name = (char *)r->id.dev;
	o.ib_port = r->id.port;
	o.port = (uint16_t)(base->port + i);
	o.rails = o.matrix = NULL; /* --pairing stays: --use_cuda=auto reads it per rail */
	if (r->id.gpu >= 0) {	   /* --matrix: the cell's GPU, or host memory (its direction) */
		o.use_cuda = r->id.gpu_server ? r->id.gpu : GDR_CUDA_NONE;
		o.cuda_bus_id = NULL;
	}
	o.server = NULL;
	o.csv_file = o.json_file = o.prom_file = o.samples_file = NULL;
	o.listen_timeout = o.timeout + o.connect_timeout + 30;
	_exit(gdr_run(&o, t, &h));
}

pid_t gdr_rail_client(const struct gdr_opts *base, const struct gdr_test *t, struct rail *rs, int n,
		      int i, int up_w, int down_r)
{
	struct rail *r = &rs[i];
	char what[128];
	pid_t pid;
	int rc;

	snprintf(what, sizeof(what), "--rails: %s's client", r->name);
	if (gdr_fork_check(what))
		return -1;
	pid = fork();
	if (pid < 0)
		gdr_err("--rails: cannot start %s's client: %s", r->name, strerror(errno));
	if (pid)
		return pid;
	struct gdr_opts o = *base;
	struct gdr_oob oob = {0};
	struct side s = {up_w, down_r, 0};
	struct gdr_reporter rep = {&pipe_ops, &s};
	struct gdr_run_hooks h = {
	    .oob = &oob, .sink = &rep, .samples = true, .before_size = barrier, .ctx = &s};
	static char samples[PATH_MAX];

	child_of(rs, n, i, false);
	if (gdr_stop_on_signals())
		_exit(1);
	o.dev_name = (char *)r->id.dev;
	o.ib_port = r->id.port;
	o.port = (uint16_t)(base->port + i);
	o.rails = o.matrix = NULL;
	if (r->id.gpu >= 0) {
		o.use_cuda = r->id.gpu_server ? GDR_CUDA_NONE : r->id.gpu;
		o.cuda_bus_id = NULL;
	}
	o.csv_file = o.json_file = o.prom_file = NULL;
	if (o.samples_file) { /* each rail its own file */
		gdr_rails_samples_name(o.samples_file, &r->id, samples, sizeof(samples));
		o.samples_file = samples;
	}
	if (!base->server) {
		o.server = (char *)"127.0.0.1";
		if (o.connect_timeout < 10)
			o.connect_timeout = 10; /* this rail's server is starting beside it */
	}
	gdr_clear_error();
	rc = gdr_run(&o, t, &h);
	if (rc && gdr_last_error() && *gdr_last_error())
		gdr_rail_put(up_w, RAIL_ERROR, gdr_last_error(), strlen(gdr_last_error()) + 1, NULL,
			     0);
	_exit(rc);
}
