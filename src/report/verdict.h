/* SPDX-License-Identifier: MIT */
/*
 * Acceptance verdicts as perftest's -w/-y give them: a row fails when its
 * average bandwidth is below the limit (in the unit the run reports: MiB/s,
 * or Gb/s with --report_gbits) or its message rate below the Mpps limit;
 * --expect-bw gives a floor in Gb/s, or PCT% of the payload rate the port's
 * active rate carries at the active MTU (gdr_wire_payload). --kv-floor
 * judges every KV row, on each path (--compare too), by its kv_efficiency
 * against its own contiguous reference; a KV row without one fails.
 */
#ifndef GDR_VERDICT_H
#define GDR_VERDICT_H

#include "opts.h"
#include "results.h"

/* What each packet of a path carries besides its payload: the transport's word (c->link). */
struct gdr_wire {
	unsigned mtu;	   /* the active path MTU, bytes of payload per packet (0: unknown) */
	unsigned overhead; /* bytes the wire adds per packet (headers, trailers, gaps) */
	const char *parts; /* what they are, "RoCE: preamble+SFD+IFG 20, ..." (NULL: not said) */
};

/*
 * The share of the port's rate left for payload: MTU / (MTU + the packet's
 * overhead: headers and trailers, and on Ethernet the preamble, SFD and
 * inter-frame gap the port's rate counts). An upper bound: the first packet's
 * RETH, ACKs and IB flow-control packets cost a little more. desc (may be
 * NULL): the arithmetic, "MTU 1024: 1024 B per 1106 B on the wire (RoCE: ...) = 92.6%".
 * 1 when the MTU is unknown (0).
 */
double gdr_wire_payload(const struct gdr_wire *w, char *desc, size_t len);

/* Any limit asked for (-w, -y, --expect-bw, --kv-floor)? */
bool gdr_verdict_wanted(const struct gdr_opts *o);
/* A bandwidth or message-rate floor (-w, -y, --expect-bw): the path under test's alone. */
bool gdr_verdict_bw_wanted(const struct gdr_opts *o);

/*
 * Sets r's limits and verdict (bandwidth rows only; r->port_Bps set
 * before, and on KV rows kv_batch, kv_place, kv_contig_Bps and kv_eff).
 * -1 when --expect-bw=auto has no ceiling to take PCT of (r->why says
 * so), else 0.
 */
int gdr_verdict_judge(const struct gdr_opts *o, struct gdr_result *r);

const char *gdr_verdict_name(int v); /* "PASS", "FAIL", NULL for none */

#endif
