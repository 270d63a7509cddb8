/* SPDX-License-Identifier: MIT */
/*
 * Acceptance verdicts as perftest's -w/-y give them: a row fails when its
 * average bandwidth is below the limit (in the unit the run reports: MiB/s,
 * or Gb/s with --report_gbits) or its message rate below the Mpps limit;
 * --expect-bw gives a floor in Gb/s, or PCT% of the port's active rate.
 */
#ifndef GDR_VERDICT_H
#define GDR_VERDICT_H

#include "opts.h"
#include "results.h"

/* A port's active rate in Gb/s from ibv_port_attr's active_speed and active_width; 0 unknown. */
double gdr_port_rate_gbps(unsigned speed, unsigned width);

/* Any limit asked for (-w, -y, --expect-bw)? */
bool gdr_verdict_wanted(const struct gdr_opts *o);

/*
 * Sets r's limits and verdict (bandwidth rows only; r->port_Bps set
 * before). -1 when --expect-bw=auto has no ceiling to take PCT of (r->why
 * says so), else 0.
 */
int gdr_verdict_judge(const struct gdr_opts *o, struct gdr_result *r);

const char *gdr_verdict_name(int v); /* "PASS", "FAIL", NULL for none */

#endif
