/* SPDX-License-Identifier: MIT */
/* Software rate limiting (--rate_limit): how many messages may have been posted by a time. */
#ifndef GDR_PACE_H
#define GDR_PACE_H

#include <stdbool.h>
#include <stdint.h>

/* --rate_units, perftest's letters: M = MiB/s, g = Gb/s (10^9 bit/s), p = messages/s. */
enum gdr_rate_unit { GDR_RATE_GBPS = 0, GDR_RATE_MIBPS = 1, GDR_RATE_PPS = 2 };

struct gdr_pace {
	bool on;
	double msgs_per_s; /* > 0 when on */
	uint64_t t0_ns;	   /* the first post */
};

/* Messages per second for rate in unit at message size bytes (> 0). */
double gdr_pace_msgs_per_s(double rate, enum gdr_rate_unit unit, uint64_t bytes);
/* Start pacing at t0_ns; rate <= 0 turns pacing off. */
void gdr_pace_start(struct gdr_pace *p, double rate, enum gdr_rate_unit unit, uint64_t bytes,
		    uint64_t t0_ns);
/*
 * Messages that may have been posted by now_ns: one at t0, then one more each
 * 1/msgs_per_s. UINT64_MAX when pacing is off.
 */
uint64_t gdr_pace_allowed(const struct gdr_pace *p, uint64_t now_ns);
/* "1.5 Gb/s", "20 MiB/s", "1000 msg/s" for headers. */
void gdr_pace_desc(double rate, enum gdr_rate_unit unit, char *buf, unsigned n);

#endif
