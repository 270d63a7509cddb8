/* SPDX-License-Identifier: MIT */
/*
 * Acceptance verdicts as perftest's -w/-y give them: a row fails when its
 * average bandwidth is below the limit (in the unit the run reports: MiB/s,
 * or Gb/s with --report_gbits) or its message rate below the Mpps limit;
 * --expect-bw gives a floor in Gb/s, or PCT% of the payload rate the port's
 * active rate carries at the active MTU (gdr_wire_payload).
 */
#ifndef GDR_VERDICT_H
#define GDR_VERDICT_H

#include "opts.h"
#include "results.h"

/* A port's active rate in Gb/s from ibv_port_attr's active_speed and active_width; 0 unknown. */
double gdr_port_rate_gbps(unsigned speed, unsigned width);

/* What each packet of a path carries besides its payload. */
struct gdr_wire {
	bool ethernet; /* RoCE v2 (UDP/IP), else InfiniBand */
	bool ipv6;     /* RoCE: the GID is not an IPv4-mapped one */
	bool grh;      /* InfiniBand: a global route header (a GID was given) */
	unsigned mtu;  /* the active path MTU, bytes of payload per packet */
};

/*
 * The share of the port's rate left for payload: MTU / (MTU + the packet's
 * headers and trailers, and on Ethernet the preamble, SFD and inter-frame gap
 * the port's rate counts). An upper bound: the first packet's RETH, ACKs and
 * IB flow-control packets cost a little more. desc (may be NULL): the
 * arithmetic, "RoCE MTU 1024: 1024 B per 1106 B on the wire (...) = 92.6%".
 * 1 when the MTU is unknown (0).
 */
double gdr_wire_payload(const struct gdr_wire *w, char *desc, size_t len);

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
