/* SPDX-License-Identifier: MIT */
/* Software rate limiting (--rate_limit): how many messages may have been posted by a time. */
#include <stdio.h>
#include "pace.h"

double gdr_pace_msgs_per_s(double rate, enum gdr_rate_unit unit, uint64_t bytes)
{
	switch (unit) {
	case GDR_RATE_MIBPS:
		return rate * 1048576.0 / (double)bytes;
	case GDR_RATE_PPS:
		return rate;
	case GDR_RATE_GBPS:
		break;
	}
	return rate * 1e9 / 8.0 / (double)bytes;
}

void gdr_pace_start(struct gdr_pace *p, double rate, enum gdr_rate_unit unit, uint64_t bytes,
		    uint64_t t0_ns)
{
	p->on = rate > 0 && bytes > 0;
	p->msgs_per_s = p->on ? gdr_pace_msgs_per_s(rate, unit, bytes) : 0;
	p->t0_ns = t0_ns;
}

uint64_t gdr_pace_allowed(const struct gdr_pace *p, uint64_t now_ns)
{
	double n;

	if (!p->on)
		return UINT64_MAX;
	if (now_ns <= p->t0_ns)
		return 1;
	n = (double)(now_ns - p->t0_ns) / 1e9 * p->msgs_per_s;
	if (n >= 1.8e19)
		return UINT64_MAX;
	return 1 + (uint64_t)n;
}

void gdr_pace_desc(double rate, enum gdr_rate_unit unit, char *buf, unsigned n)
{
	static const char *const name[] = {"Gb/s", "MiB/s", "msg/s"};

	snprintf(buf, n, "%g %s", rate, name[unit <= GDR_RATE_PPS ? unit : 0]);
}
