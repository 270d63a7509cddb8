/* SPDX-License-Identifier: MIT */
/*
 * Floors against what the port carries, before any traffic (issue 34 item 5):
 * -w 10 without --report_gbits is 10 MiB/s, --expect-bw=auto:0.9 is 0.9%: both
 * warned, naming the unit the floor was read in; a floor above the port's rate
 * is refused; -b doubles what the port carries; nothing said without a rate,
 * in cluster mode or for latency tests. And the exit status of a refused floor.
 */
#include "config.h"
#include <string.h>
#include "exitcode.h"
#include "floor.h"
#include "run_exit.h"

#include "check.h"

static const double ten_gbps = 10e9 / 8;

static int judge(const struct gdr_opts *o, double port_Bps, char *line)
{
	return gdr_floor_judge(o, port_Bps, "rxe0 port 1", line, 512);
}

int main(void)
{
	struct gdr_opts o = {.kind = GDR_KIND_BW};
	char line[512];

	CHECK(judge(&o, ten_gbps, line) == 0 && !line[0], "no floor: %s", line);

	o.limit_bw = 10; /* 10 MiB/s on a 10 Gb/s port: 0.84% */
	CHECK(judge(&o, ten_gbps, line) == -1, "%s", line);
	CHECK(strstr(line, "-w 10 (read in MiB/s; --report_gbits reads Gb/s) is 0.84% of the 10 "
			   "Gb/s rxe0 port 1 can carry"),
	      "%s", line);
	CHECK(strstr(line, "in Gb/s: --report_gbits -w 10"), "%s", line);
	o.report_gbits = true; /* 10 Gb/s: the whole port, allowed */
	CHECK(judge(&o, ten_gbps, line) == 0 && !line[0], "%s", line);
	o.limit_bw = 10.5; /* above it: refused */
	CHECK(judge(&o, ten_gbps, line) == 1, "%s", line);
	CHECK(strstr(line, "-w 10.5 (read in Gb/s (--report_gbits)) is 10.5 Gb/s, above the 10 "
			   "Gb/s rxe0 port 1 can carry: no row can pass"),
	      "%s", line);
	o.bidir = true; /* -b: both directions, 20 Gb/s */
	CHECK(judge(&o, 2 * ten_gbps, line) == 0, "%s", line);
	o.bidir = false;
	o.report_gbits = false;
	o.limit_bw = 100000; /* 100000 MiB/s = 839 Gb/s */
	CHECK(judge(&o, ten_gbps, line) == 1 && strstr(line, "is 838.9 Gb/s, above"), "%s", line);
	o.limit_bw = 1000; /* 1000 MiB/s = 8.4 Gb/s: a real floor, nothing said */
	CHECK(judge(&o, ten_gbps, line) == 0 && !line[0], "%s", line);
	o.limit_bw = 0;

	o.expect_pct = 0.9; /* auto:0.9 is 0.9%, not 90% */
	CHECK(judge(&o, ten_gbps, line) == -1, "%s", line);
	CHECK(strstr(line, "--expect-bw=auto:0.9 (read in a percentage of the port's rate) is "
			   "0.9% of the 10 Gb/s"),
	      "%s", line);
	CHECK(strstr(line, "90%: auto:90"), "%s", line);
	o.expect_pct = 90;
	CHECK(judge(&o, ten_gbps, line) == 0 && !line[0], "%s", line);
	o.expect_pct = 0;

	o.expect_bw = 400; /* --expect-bw=400 (Gb/s) on a 10 Gb/s port */
	CHECK(judge(&o, ten_gbps, line) == 1 &&
		  strstr(line, "--expect-bw=400 (read in Gb/s) is 400 Gb/s, above"),
	      "%s", line);
	o.expect_bw = 0.05; /* 0.5% */
	CHECK(judge(&o, ten_gbps, line) == -1 && strstr(line, "is 0.5% of"), "%s", line);
	o.cluster = true; /* cluster mode judges pairs its own way */
	CHECK(judge(&o, ten_gbps, line) == 0 && !line[0], "%s", line);
	o.cluster = false;
	CHECK(judge(&o, 0, line) == 0 && !line[0], "no port rate: %s", line);
	o.kind = GDR_KIND_LAT;
	CHECK(judge(&o, ten_gbps, line) == 0 && !line[0], "latency: %s", line);

	/* the exit status: a refused floor is a usage error, a row below it a FAIL */
	CHECK(gdr_run_exit_status(-5, false) == GDR_EXIT_USAGE);
	CHECK(gdr_run_exit_status(-4, false) == GDR_EXIT_FAIL);
	CHECK(gdr_run_exit_status(-1, false) == GDR_EXIT_ERROR);
	CHECK(gdr_run_exit_status(-3, false) == GDR_EXIT_ERROR);
	CHECK(gdr_run_exit_status(-1, true) == GDR_EXIT_INTERRUPTED);
	CHECK(gdr_run_exit_status(0, true) == GDR_EXIT_OK, "--run_infinitely's Ctrl-C");
	return CHECK_DONE();
}
