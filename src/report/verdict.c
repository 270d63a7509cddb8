/* SPDX-License-Identifier: MIT */
/* -w, -y, --expect-bw and --kv-floor: the limits of a row and its verdict. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "verdict.h"

double gdr_wire_payload(const struct gdr_wire *w, char *desc, size_t len)
{
	double f;

	if (!w->mtu) {
		if (desc && len)
			desc[0] = '\0';
		return 1;
	}
	f = (double)w->mtu / (w->mtu + w->overhead);
	if (desc)
		snprintf(desc, len, "MTU %u: %u B per %u B on the wire (%s) = %.1f%%", w->mtu,
			 w->mtu, w->mtu + w->overhead, w->parts && *w->parts ? w->parts : "headers",
			 f * 100);
	return f;
}

bool gdr_verdict_bw_wanted(const struct gdr_opts *o)
{
	return o->limit_bw > 0 || o->limit_msgrate > 0 || (o->expect_bw > 0 && !o->cluster) ||
	       o->expect_pct > 0;
}

bool gdr_verdict_wanted(const struct gdr_opts *o)
{
	return o->kind == GDR_KIND_BW && (gdr_verdict_bw_wanted(o) || o->kv_floor > 0);
}

static double in_unit(bool gbits, double Bps)
{
	return gbits ? gdr_to_gbps(Bps) : gdr_to_mibps(Bps);
}

/* The bandwidth and message-rate floors of a row under test: 0, or -1 (see verdict.h). */
static int judge_bw(const struct gdr_opts *o, struct gdr_result *r)
{
	bool gb = o->report_gbits || o->cluster; /* cluster rows are in Gb/s */
	const char *unit = gb ? "Gb/s" : "MiB/s", *by = NULL;
	char autoby[120];
	double floor = 0;
	size_t k;

	/* the highest floor asked for is the one the row must clear */
	if (o->limit_bw > 0) {
		floor = o->report_gbits ? o->limit_bw * 1e9 / 8 : o->limit_bw * 1048576.0;
		by = "-w";
	}
	if (o->expect_bw > 0 && !o->cluster && o->expect_bw * 1e9 / 8 > floor) { /* else SLOW */
		floor = o->expect_bw * 1e9 / 8;
		by = "--expect-bw";
	}
	if (o->expect_pct > 0) {
		if (r->port_Bps <= 0) {
			snprintf(
			    r->why, sizeof(r->why),
			    "--expect-bw=auto: the port reports no active rate to take %g%% of",
			    o->expect_pct);
			r->verdict = GDR_VERDICT_FAIL;
			return -1;
		}
		double frac = r->payload_frac > 0 ? r->payload_frac : 1, pay = r->port_Bps * frac;

		if (pay * o->expect_pct / 100 > floor) {
			floor = pay * o->expect_pct / 100;
			if (frac < 1)
				snprintf(autoby, sizeof(autoby),
					 "%g%% of %.2f Gb/s, the port's %g Gb/s at %.1f%% payload, "
					 "--expect-bw=auto",
					 o->expect_pct, gdr_to_gbps(pay), gdr_to_gbps(r->port_Bps),
					 frac * 100);
			else
				snprintf(autoby, sizeof(autoby),
					 "%g%% of the port's %g Gb/s, --expect-bw=auto",
					 o->expect_pct, gdr_to_gbps(r->port_Bps));
			by = autoby;
		}
	}
	r->limit_Bps = floor;
	r->limit_pps = o->limit_msgrate * 1e6;
	r->verdict = GDR_VERDICT_PASS;
	if (floor > 0 && r->bw_avg_Bps < floor) {
		r->verdict = GDR_VERDICT_FAIL;
		snprintf(r->why, sizeof(r->why), "%.2f %s is below the limit %.2f %s (%s)",
			 in_unit(gb, r->bw_avg_Bps), unit, in_unit(gb, floor), unit, by);
	}
	if (r->limit_pps > 0 && r->msg_rate_pps < r->limit_pps) {
		r->verdict = GDR_VERDICT_FAIL;
		k = strlen(r->why);
		snprintf(r->why + k, sizeof(r->why) - k,
			 "%s%.6f Mpps is below the limit %g Mpps (-y)", k ? "; " : "",
			 r->msg_rate_pps / 1e6, o->limit_msgrate);
	}
	return 0;
}

/*
 * --kv-floor: a KV row's kv_efficiency (scattered over the same bytes
 * contiguous, on its own path) below the floor fails; a row without the
 * contiguous reference has no efficiency and fails too, saying so.
 */
static void judge_kv(const struct gdr_opts *o, struct gdr_result *r)
{
	size_t k = strlen(r->why);
	char cell[96];

	r->kv_floor = o->kv_floor;
	if (r->verdict == GDR_VERDICT_NONE)
		r->verdict = GDR_VERDICT_PASS;
	snprintf(cell, sizeof(cell), "%llu-byte blocks, %u a batch, %s",
		 (unsigned long long)r->bytes, r->kv_batch, r->kv_place);
	if (!(r->kv_contig_Bps > 0) || !(r->kv_eff > 0)) {
		r->verdict = GDR_VERDICT_FAIL;
		snprintf(r->why + k, sizeof(r->why) - k,
			 "%skv_efficiency unknown (%s): no contiguous reference, not passed "
			 "(--kv-floor %g)",
			 k ? "; " : "", cell, o->kv_floor);
	} else if (r->kv_eff < o->kv_floor) {
		r->verdict = GDR_VERDICT_FAIL;
		snprintf(r->why + k, sizeof(r->why) - k,
			 "%skv_efficiency %.3f is below the floor %g (--kv-floor; %s)",
			 k ? "; " : "", r->kv_eff, o->kv_floor, cell);
	}
}

int gdr_verdict_judge(const struct gdr_opts *o, struct gdr_result *r)
{
	int rc = 0;

	r->verdict = GDR_VERDICT_NONE;
	r->why[0] = '\0';
	r->kv_floor = 0;
	if (!gdr_verdict_wanted(o))
		return 0;
	if (gdr_verdict_bw_wanted(o) && !r->reference) /* --compare judges one path */
		rc = judge_bw(o, r);
	if (o->kv_floor > 0 && r->kv_batch) /* each KV row, on every path: its own reference */
		judge_kv(o, r);
	return rc;
}

const char *gdr_verdict_name(int v)
{
	return v == GDR_VERDICT_PASS ? "PASS" : v == GDR_VERDICT_FAIL ? "FAIL" : NULL;
}
