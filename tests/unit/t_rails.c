/* SPDX-License-Identifier: MIT */
/*
 * --rails without a network: the list against the devices present; --rails=all
 * over a sysfs fixture (every ACTIVE port of every device, natural order, VFs
 * and SFs and DOWN ports skipped with the reason); what is refused before any
 * process starts; and the rows the launcher writes through the reporters (a
 * failed rail keeps a row with its reason, the `all` row over the union of the
 * rails' intervals, its verdict the rails', a rail's row that timed nothing not in it).
 */
#include "config.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture.h"
#include "check.h"
#include "put.h"
#include "exitcode.h"
#include "rails.h"
#include "rails_int.h"

static void list(void)
{
	const char *two[] = {"mlx5_0", "mlx5_1"};
	struct gdr_rail r[4];

	CHECK(gdr_rails_parse("mlx5_1,mlx5_0:2", two, 2, r, 4, "--rails") == 2 &&
	      !strcmp(r[0].dev, "mlx5_1") && r[1].port == 2);
	CHECK(gdr_rails_parse("mlx5_0,mlx5_0", two, 2, r, 4, "--rails") == -1, "a device twice");
	CHECK(gdr_rails_parse("mlx5_0:1,mlx5_0:2", two, 2, r, 4, "--rails") == 2,
	      "two ports of one device");
	CHECK(gdr_rails_parse("mlx5_0,mlx5_7", two, 2, r, 4, "--rails") == -2, "an unknown device");
	CHECK(gdr_rails_parse("mlx5_0:0", two, 2, r, 4, "--rails") == -1, "port 0");
	CHECK(gdr_rails_parse("mlx5_0,", two, 2, r, 4, "--rails") == -1, "an empty entry");
	CHECK(gdr_rails_parse("mlx5_0,mlx5_1", two, 2, r, 1, "--rails") == -1,
	      "more rails than room");
}

/* The list's errors name the option it came in: --matrix takes the same list. */
static void list_option(void)
{
	const char *two[] = {"mlx5_0", "mlx5_1"};
	struct gdr_rail r[4];
	struct capture cap;
	char err[512];

	capture_on(&cap, 2);
	CHECK(gdr_rails_parse("mlx5_7", two, 2, r, 4, "--matrix") == -2);
	CHECK(gdr_rails_parse("mlx5_0:0", two, 2, r, 4, "--matrix") == -1);
	CHECK(gdr_rails_parse(",", two, 2, r, 4, "--matrix") == -1);
	CHECK(gdr_rails_parse("mlx5_0,mlx5_1", two, 2, r, 1, "--matrix") == -1);
	CHECK(gdr_rails_parse("mlx5_7", two, 2, r, 4, "--rails") == -2);
	capture_off(&cap, err, sizeof(err));
	CHECK(strstr(err, "error: --matrix: no RDMA device 'mlx5_7' on this host") &&
		  strstr(err, "error: --matrix: '0' is not a port (1..255) of mlx5_0") &&
		  strstr(err, "error: --matrix: ',' is not a list DEV[:PORT],... or all") &&
		  strstr(err, "error: --matrix: more than 1 NIC ports") &&
		  strstr(err, "error: --rails: no RDMA device 'mlx5_7' on this host") &&
		  !strstr(err, "--rails: '") && !strstr(err, "rails: more"),
	      "%s", err);
}

/* A device with ports[i] states; its PCI function fn ("" none); a VF gets physfn. */
static void dev(const char *root, const char *name, const char *fn, bool vf,
		const char *const *states, int n)
{
	char rel[256], a[PATH_MAX], b[PATH_MAX];

	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/ports/%d/state", name, i + 1);
		put(root, rel, states[i]);
	}
	snprintf(rel, sizeof(rel), "sys/devices/%s/infiniband/%s/x", fn, name);
	put(root, rel, "");
	if (vf) {
		snprintf(rel, sizeof(rel), "sys/devices/%s/physfn/x", fn);
		put(root, rel, "");
	}
	snprintf(a, sizeof(a), "%s/sys/devices/%s", root, fn);
	snprintf(b, sizeof(b), "%s/sys/class/infiniband/%s/device", root, name);
	CHECK(symlink(a, b) == 0, "%s", b);
}

/* --rails=all: ACTIVE ports only, second ports too, VFs/SFs only when named. */
static void all(const char *root)
{
	static const char *const act[] = {"4: ACTIVE\n"}, *const down[] = {"1: DOWN\n"},
				 *const dual[] = {"4: ACTIVE\n", "4: ACTIVE\n"};
	struct ib_port_info p[16];
	struct gdr_rail r[8];
	char skipped[512];
	int n;

	dev(root, "mlx5_0", "pci0000:00/0000:01:00.0", false, dual, 2);
	dev(root, "mlx5_1", "pci0000:00/0000:02:00.0", false, down, 1);
	dev(root, "mlx5_10", "pci0000:00/0000:03:00.0", false, act, 1);
	dev(root, "mlx5_2", "pci0000:00/0000:04:00.0", false, act, 1);
	dev(root, "mlx5_3", "pci0000:00/0000:01:00.2", true, act, 1);
	dev(root, "mlx5_4", "pci0000:00/0000:01:00.0/mlx5_core.sf.2", false, act, 1);
	n = ib_ports_scan(root, p, 16);
	CHECK(n == 7, "%d ports", n);
	if (n != 7)
		return;
	CHECK(!strcmp(p[0].dev, "mlx5_0") && p[0].port == 1 && p[1].port == 2 && p[1].active);
	CHECK(!strcmp(p[2].dev, "mlx5_1") && !p[2].active && !strcmp(p[2].state, "DOWN"), "'%s'",
	      p[2].state);
	CHECK(!strcmp(p[3].dev, "mlx5_2") && !strcmp(p[6].dev, "mlx5_10"), "natural order");
	CHECK(p[4].virt && strstr(p[4].virt, "virtual function"), "the VF");
	CHECK(p[5].virt && strstr(p[5].virt, "sub-function"), "the SF");
	CHECK(!p[0].virt && !p[3].virt);
	n = gdr_rails_all(p, 7, r, 8, skipped, sizeof(skipped));
	CHECK(n == 4, "%d rails", n);
	CHECK(n == 4 && !strcmp(r[1].dev, "mlx5_0") && r[1].port == 2 &&
	      !strcmp(r[2].dev, "mlx5_2") && !strcmp(r[3].dev, "mlx5_10"));
	CHECK(strstr(skipped, "mlx5_1:1 (DOWN)") &&
		  strstr(skipped, "mlx5_3:1 (a virtual function") &&
		  strstr(skipped, "mlx5_4:1 (a sub-function: name it to test it)"),
	      "'%s'", skipped);
	CHECK(gdr_rails_all(p + 2, 1, r, 8, skipped, sizeof(skipped)) == -1, "only a DOWN port");
	CHECK(gdr_rails_all(p, 0, r, 8, skipped, sizeof(skipped)) == -1, "no device");
	CHECK(gdr_rails_all(p, 7, r, 2, skipped, sizeof(skipped)) == 2 &&
	      strstr(skipped, "over the most rails"));
}

/* Refused before any process starts: -D over the server's --max_time; --samples per rail. */
static void precheck(void)
{
	static const struct gdr_test t = {"write_bw", GDR_VERB_WRITE, GDR_KIND_BW},
				     lat = {"write_lat", GDR_VERB_WRITE, GDR_KIND_LAT};
	char *ok[] = {"p", "--rails=all", "-D", "2", NULL};
	char *long_d[] = {"p", "--rails=all", "-D", "4000", NULL};
	char *samples[] = {"p", "--rails=all", "--samples=/tmp/x", NULL};
	char *remote[] = {"p", "--rails=all", "node-b", NULL};
	char *remote_tok[] = {"p", "--rails=all", "--run_token=n7", "node-b", NULL};
	struct gdr_opts o;
	char name[64];

	CHECK(gdr_opts_parse(&o, &t, 4, ok) == 0);
	CHECK(gdr_rails_precheck(&o) == 0);
	gdr_opts_free(&o);
	CHECK(gdr_opts_parse(&o, &t, 4, long_d) == 0);
	CHECK(gdr_rails_precheck(&o) == -1, "-D 4000 beyond the server's limit, before a fork");
	gdr_opts_free(&o);
	CHECK(gdr_opts_parse(&o, &lat, 3, samples) == 0);
	CHECK(gdr_rails_precheck(&o) == 0, "--samples: each rail its own file");
	gdr_opts_free(&o);
	CHECK(gdr_opts_parse(&o, &t, 3, remote) == 0);
	CHECK(gdr_rails_precheck(&o) == -1, "a server address without --run_token, before a fork");
	gdr_opts_free(&o);
	CHECK(gdr_opts_parse(&o, &t, 4, remote_tok) == 0);
	CHECK(gdr_rails_precheck(&o) == 0, "a server address with --run_token");
	gdr_opts_free(&o);
	gdr_rails_samples_name("/tmp/s.csv", &(struct gdr_rail){"mlx5_1", 2, -1, false}, name,
			       sizeof(name));
	CHECK(!strcmp(name, "/tmp/s.csv.mlx5_1-2"), "'%s'", name);
}

/* A reporter that keeps what it is given. */
struct seen {
	int n;
	char dev[8][80];
	struct gdr_result r[8];
	char stopped[320];
	int finished, status, interrupted;
	char why[400];
};

static int s_begin(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx, (void)ri;
	return 0;
}
static int s_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct seen *s = ctx;

	if (s->n < 8) {
		snprintf(s->dev[s->n], sizeof(s->dev[0]), "%s:%d", ri->rdma_dev, ri->ib_port);
		s->r[s->n++] = *r;
	}
	return 0;
}
static int s_end(void *ctx, const struct gdr_run_info *ri)
{
	snprintf(((struct seen *)ctx)->stopped, 320, "%s", ri->stopped);
	return 0;
}
static void s_destroy(void *ctx)
{
	(void)ctx;
}
static int s_finish(void *ctx, const struct gdr_run_info *ri, const struct gdr_run_outcome *e)
{
	struct seen *s = ctx;

	(void)ri;
	s->finished = 1;
	s->status = e->status;
	s->interrupted = e->interrupted;
	snprintf(s->why, sizeof(s->why), "%s", e->why);
	return 0;
}
static const struct gdr_reporter_ops seen_ops = {"seen", s_begin, s_row, s_end, s_destroy,
						 s_finish};

static void rail_with(struct rail *r, const char *dev, int nrow, const struct rail_row *rows)
{
	*r = (struct rail){.up = -1, .down = -1, .lfd = -1, .status = 0};
	snprintf(r->id.dev, sizeof(r->id.dev), "%s", dev);
	r->id.port = 1;
	snprintf(r->name, sizeof(r->name), "%s:1", dev);
	r->nrow = nrow;
	r->rows = nrow ? calloc((size_t)nrow, sizeof(*rows)) : NULL;
	r->cnts = nrow ? calloc((size_t)nrow, sizeof(*r->cnts)) : NULL;
	for (int k = 0; k < nrow; k++) {
		r->rows[k] = rows[k];
		r->rows[k].r.ncnt = -1;
	}
}

static void rows(void)
{
	static const struct gdr_test t = {"write_bw", GDR_VERB_WRITE, GDR_KIND_BW};
	char *argv[] = {"p", "--rails=a,b", "-w", "1", NULL};
	struct gdr_opts o;
	struct seen s = {0};
	struct gdr_reports rs = {.n = 1, .r = {{&seen_ops, &s}}};
	struct rail r[2];
	int st;
	/* rail a: 1 GB in 1 s from 1 s; rail b: 1 GB in 1 s from 1.5 s: union 1.5 s */
	struct rail_row a = {.r = {.bytes = 1000000,
				   .iters = 1000,
				   .duration_s = 1,
				   .bw_avg_Bps = 1e9,
				   .verdict = GDR_VERDICT_PASS},
			     .start_ns = 1000000000ull,
			     .path = "host"};
	struct rail_row b = a;

	b.start_ns = 1500000000ull;
	CHECK(gdr_opts_parse(&o, &t, 4, argv) == 0);
	rail_with(&r[0], "a", 1, &a);
	rail_with(&r[1], "b", 1, &b);
	st = gdr_rails_status(r, 2, false, "");
	CHECK(gdr_rails_report(&o, &rs, r, 2, "", &st) == 0 && st == GDR_EXIT_OK, "%d", st);
	CHECK(s.finished && s.status == GDR_EXIT_OK && !s.interrupted, "outcome %d", s.status);
	CHECK(s.n == 3, "%d rows", s.n);
	CHECK(!strcmp(s.dev[2], "all:0"), "'%s'", s.dev[2]);
	CHECK(fabs(s.r[2].duration_s - 1.5) < 1e-9, "union interval %g s", s.r[2].duration_s);
	CHECK(fabs(s.r[2].bw_avg_Bps - 2e9 / 1.5) < 1, "%g B/s", s.r[2].bw_avg_Bps);
	CHECK(s.r[2].verdict == GDR_VERDICT_PASS, "floors set, every rail passed: all PASS");
	free(r[0].rows), free(r[0].cnts), free(r[1].rows), free(r[1].cnts);

	/*
	 * rail b's row timed nothing (0 messages, its time unset): not in the union, no bytes
	 * over an interval from 0 (a --matrix_shared row read 1.14e-13 GB/s); a rail without it
	 */
	{
		struct rail_row z = {.r = {.bytes = 1000000}, .path = "host"};
		struct gdr_result all;

		rail_with(&r[0], "a", 1, &a);
		rail_with(&r[1], "b", 1, &z);
		CHECK(gdr_rail_all_row(r, 2, 0, &a.r, &all) == 1, "rail b's empty row counted");
		CHECK(fabs(all.duration_s - 1) < 1e-9 && fabs(all.bw_avg_Bps - 1e9) < 1 &&
			  all.iters == 1000,
		      "all: %g s, %g B/s", all.duration_s, all.bw_avg_Bps);
		free(r[0].rows), free(r[0].cnts), free(r[1].rows), free(r[1].cnts);
	}

	/* rail b failed before its first row: it keeps a FAIL row with its reason, all FAILs */
	memset(&s, 0, sizeof(s));
	rail_with(&r[0], "a", 1, &a);
	rail_with(&r[1], "b", 0, NULL);
	r[1].status = GDR_EXIT_ERROR;
	snprintf(r[1].error, sizeof(r[1].error), "cannot open device b");
	st = gdr_rails_status(r, 2, false, "");
	CHECK(gdr_rails_report(&o, &rs, r, 2, "", &st) == 0 && st == GDR_EXIT_ERROR, "%d", st);
	CHECK(s.finished && s.status == GDR_EXIT_ERROR && strstr(s.why, "rail b:1: cannot open"),
	      "outcome %d '%s'", s.status, s.why);
	CHECK(s.n == 3, "%d rows", s.n);
	CHECK(!strcmp(s.dev[1], "b:1") && s.r[1].verdict == GDR_VERDICT_FAIL &&
		  s.r[1].bytes == 1000000 && strstr(s.r[1].why, "cannot open device b"),
	      "'%s'", s.r[1].why);
	CHECK(!strcmp(s.dev[2], "all:0") && s.r[2].verdict == GDR_VERDICT_FAIL &&
		  strstr(s.r[2].why, "1 of 2 rails failed"),
	      "'%s'", s.r[2].why);
	free(r[0].rows), free(r[0].cnts);

	/* a stop: the completed rows kept, no FAIL invented, the stop in the outputs */
	memset(&s, 0, sizeof(s));
	rail_with(&r[0], "a", 1, &a);
	rail_with(&r[1], "b", 0, NULL);
	st = gdr_rails_status(r, 2, false, "interrupted by SIGINT");
	CHECK(gdr_rails_report(&o, &rs, r, 2, "interrupted by SIGINT", &st) == 0 &&
		  st == GDR_EXIT_INTERRUPTED,
	      "%d", st);
	CHECK(s.finished && s.interrupted && !strcmp(s.why, "interrupted by SIGINT"), "'%s'", s.why);
	CHECK(s.n == 1 && !strcmp(s.stopped, "interrupted by SIGINT"), "%d rows", s.n);
	free(r[0].rows), free(r[0].cnts);
	gdr_opts_free(&o);
}

/* The rails' exit status, one scheme with a pair's (base/exitcode.h): the worst rail's */
static void status(void)
{
	struct rail r[3];

	for (int i = 0; i < 3; i++)
		rail_with(&r[i], "x", 0, NULL);
	CHECK(gdr_rails_status(r, 3, false, "") == GDR_EXIT_OK);
	r[1].status = GDR_EXIT_FAIL;
	CHECK(gdr_rails_status(r, 3, false, "") == GDR_EXIT_FAIL, "a rail below its floor");
	r[2].status = GDR_EXIT_USAGE;
	CHECK(gdr_rails_status(r, 3, false, "") == GDR_EXIT_USAGE, "a rail refused its floor");
	r[0].status = 128 + 9;
	CHECK(gdr_rails_status(r, 3, false, "") == GDR_EXIT_ERROR, "a rail killed");
	r[0].status = -1;
	CHECK(gdr_rails_status(r, 3, false, "") == GDR_EXIT_ERROR, "a rail never reaped");
	r[0].status = GDR_EXIT_INTERRUPTED;
	CHECK(gdr_rails_status(r, 3, false, "") == GDR_EXIT_ERROR, "a rail stopped alone");
	CHECK(gdr_rails_status(r, 3, false, "stopped") == GDR_EXIT_INTERRUPTED);
	r[0].status = r[1].status = r[2].status = GDR_EXIT_OK;
	CHECK(gdr_rails_status(r, 3, true, "") == GDR_EXIT_ERROR, "a rail that did not start");
}

/* What crossed a rail's pipe (READY per size started, a row per size completed), read back. */
static void feed(struct rail *r, int started, int rows, const char *end, bool open)
{
	int fd[2];
	struct rail_row w = {.path = "host"};

	*r = (struct rail){.up = -1, .down = -1, .lfd = -1, .status = -1};
	CHECK(pipe(fd) == 0);
	for (int k = 0; k < started; k++) {
		uint64_t size = 64ull << k;

		CHECK(gdr_rail_put(fd[1], RAIL_READY, &size, sizeof(size), NULL, 0) == 0);
		if (k < rows)
			CHECK(gdr_rail_put(fd[1], RAIL_ROW, &w, sizeof(w), NULL, 0) == 0);
	}
	if (end)
		CHECK(gdr_rail_put(fd[1], RAIL_END, end, strlen(end) + 1, NULL, 0) == 0);
	close(fd[1]);
	r->up = fd[0];
	while (gdr_rail_read(r) > 0) /* every message, to the pipe's end */
		;
	if (!open) {
		close(r->up);
		r->up = -1;
	}
	free(r->rows);
	free(r->cnts);
	r->rows = NULL;
	r->cnts = NULL;
	r->nrow = 0;
}

/* A stop's line: the sizes every rail completed (a rail dead mid-size did not complete it) */
static void stop_count(void)
{
	struct rail r[3];
	char line[320];

	feed(&r[0], 3, 3, NULL, true);	/* running: in its third size */
	feed(&r[1], 3, 2, NULL, false); /* its client died during its third size */
	gdr_rails_stop(r, 2, 7, line, sizeof(line));
	CHECK(strstr(line, "during the 256-byte test; 2 of 7 sizes completed on every rail"),
	      "'%s'", line);
	feed(&r[1], 2, 1, NULL, false); /* died during its second size */
	gdr_rails_stop(r, 2, 7, line, sizeof(line));
	CHECK(strstr(line, "1 of 7 sizes completed on every rail"), "dead mid-size: '%s'", line);
	feed(&r[1], 1, 0, NULL, false); /* died during its first size */
	gdr_rails_stop(r, 2, 7, line, sizeof(line));
	CHECK(strstr(line, "0 of 7 sizes completed on every rail"), "dead in the first: '%s'",
	      line);
	feed(&r[1], 3, 2, "interrupted by SIGINT during the 256-byte test", false);
	gdr_rails_stop(r, 2, 7, line, sizeof(line));
	CHECK(strstr(line, "2 of 7 sizes completed"), "stopped in its third: '%s'", line);
	close(r[0].up);
	feed(&r[0], 7, 7, "", false); /* ran out */
	feed(&r[1], 7, 7, "", false);
	gdr_rails_stop(r, 2, 7, line, sizeof(line));
	CHECK(strstr(line, "7 of 7 sizes completed"), "both ran out: '%s'", line);
	feed(&r[2], 5, 4, NULL, true); /* at the barrier before its fifth size */
	gdr_rails_stop(r, 3, 7, line, sizeof(line));
	CHECK(strstr(line, "4 of 7 sizes completed"), "one at its barrier: '%s'", line);
	for (int i = 0; i < 3; i++)
		if (r[i].up >= 0)
			close(r[i].up);
}

int main(void)
{
	char root[] = "/tmp/t_rails.XXXXXX", cmd[64];

	list();
	list_option();
	CHECK(mkdtemp(root) != NULL);
	all(root);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0);
	precheck();
	rows();
	status();
	stop_count();
	return CHECK_DONE();
}
