/* SPDX-License-Identifier: MIT */
/* Floors against the port's rate, before any traffic: see floor.h. */
#include "config.h"
#include <stdio.h>
#include "counters.h"
#include "floor.h"
#include "log.h"
#include "verdict.h"

/* One floor: its value as given, the unit it was read in, and bytes/s. */
struct floor {
	const char *opt; /* "-w 10", "--expect-bw=auto:0.9" */
	char given[64];
	const char *unit; /* "MiB/s; --report_gbits reads Gb/s", ... */
	double Bps;
	const char *hint; /* what was probably meant, for a floor below 1% */
	char hint_buf[96];
};

static int floors(const struct gdr_opts *o, double port_Bps, struct floor *f)
{
	int n = 0;

	if (o->limit_bw > 0) {
		f[n] = (struct floor){.unit = o->report_gbits ? "Gb/s (--report_gbits)"
							      : "MiB/s; --report_gbits reads Gb/s",
				      .Bps = o->report_gbits ? o->limit_bw * 1e9 / 8
							     : o->limit_bw * 1048576.0};
		snprintf(f[n].given, sizeof(f[n].given), "-w %g", o->limit_bw);
		if (!o->report_gbits) {
			snprintf(f[n].hint_buf, sizeof(f[n].hint_buf),
				 "; in Gb/s: --report_gbits -w %g", o->limit_bw);
			f[n].hint = f[n].hint_buf;
		}
		n++;
	}
	if (o->expect_bw > 0 && !o->cluster) {
		f[n] = (struct floor){.unit = "Gb/s", .Bps = o->expect_bw * 1e9 / 8};
		snprintf(f[n].given, sizeof(f[n].given), "--expect-bw=%g", o->expect_bw);
		n++;
	}
	if (o->expect_pct > 0) {
		f[n] = (struct floor){.unit = "a percentage of the port's rate",
				      .Bps = port_Bps * o->expect_pct / 100};
		snprintf(f[n].given, sizeof(f[n].given), "--expect-bw=auto:%g", o->expect_pct);
		if (o->expect_pct < 1) {
			snprintf(f[n].hint_buf, sizeof(f[n].hint_buf), "; %g%%: auto:%g",
				 o->expect_pct * 100, o->expect_pct * 100);
			f[n].hint = f[n].hint_buf;
		}
		n++;
	}
	return n;
}

int gdr_floor_judge(const struct gdr_opts *o, double port_Bps, const char *port, char *line,
		    size_t n)
{
	struct floor f[3];
	int nf, ret = 0;

	line[0] = '\0';
	if (port_Bps <= 0 || o->kind != GDR_KIND_BW || o->cluster)
		return 0;
	nf = floors(o, port_Bps, f);
	for (int i = 0; i < nf; i++) {
		double pct = 100 * f[i].Bps / port_Bps;

		if (f[i].Bps > port_Bps) {
			snprintf(line, n,
				 "%s (read in %s) is %.4g Gb/s, above the %g Gb/s %s can carry%s: "
				 "no row can pass",
				 f[i].given, f[i].unit, gdr_to_gbps(f[i].Bps),
				 gdr_to_gbps(port_Bps), port,
				 o->bidir ? " (both directions, -b)" : "");
			return 1;
		}
		if (pct < 1 && !ret) {
			snprintf(
			    line, n,
			    "%s (read in %s) is %.2g%% of the %g Gb/s %s can carry: almost any "
			    "row passes it%s",
			    f[i].given, f[i].unit, pct, gdr_to_gbps(port_Bps), port,
			    f[i].hint ? f[i].hint : "");
			ret = -1;
		}
	}
	return ret;
}

int gdr_floor_check(const struct gdr_conn *c)
{
	double g = c->link.rate_gbps; /* the transport's word, sysfs's where verbs has none */
	char port[96], line[512];
	int r;

	snprintf(port, sizeof(port), "%s port %d", c->dev_name, c->port);
	r = gdr_floor_judge(c->o, g * 1e9 / 8 * (c->o->bidir ? 2 : 1), port, line, sizeof(line));
	if (r > 0)
		gdr_err("%s", line);
	else if (r < 0)
		gdr_warn("%s", line);
	return r > 0 ? -1 : 0;
}
