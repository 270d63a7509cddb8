/* SPDX-License-Identifier: MIT */
/*
 * --rate_limit pacing: the messages allowed by a time, against the rate
 * worked out independently (bytes per second / message size, plus the one
 * message allowed at the start), for each of perftest's units.
 */
#include "config.h"
#include <math.h>
#include <string.h>
#include "pace.h"

#include "check.h"

static void units(void)
{
	/* 1 Gb/s = 125,000,000 B/s; 64 KiB messages: 1907.35 msg/s */
	CHECK(fabs(gdr_pace_msgs_per_s(1, GDR_RATE_GBPS, 65536) - 125e6 / 65536) < 1e-9);
	/* 10 MiB/s of 4 KiB = 2560 msg/s */
	CHECK(fabs(gdr_pace_msgs_per_s(10, GDR_RATE_MIBPS, 4096) - 2560) < 1e-9);
	CHECK(gdr_pace_msgs_per_s(1000, GDR_RATE_PPS, 4096) == 1000, "msg/s ignore the size");
}

static void allowed(void)
{
	struct gdr_pace p;
	uint64_t t0 = 5000000000ULL;

	gdr_pace_start(&p, 10, GDR_RATE_MIBPS, 4096, t0); /* 2560 msg/s */
	CHECK(gdr_pace_allowed(&p, t0) == 1, "one message at the start");
	CHECK(gdr_pace_allowed(&p, t0 - 1) == 1, "a clock read before t0 is t0");
	/* 390625 ns = one message interval (1 s / 2560) */
	CHECK(gdr_pace_allowed(&p, t0 + 390624) == 1);
	CHECK(gdr_pace_allowed(&p, t0 + 390626) == 2);
	CHECK(gdr_pace_allowed(&p, t0 + 1000000000ULL) == 2561, "%llu",
	      (unsigned long long)gdr_pace_allowed(&p, t0 + 1000000000ULL));
	/* over 3 s at 1 Gb/s of 1 MiB: 3 * 125e6 / 1048576 = 357.6 -> 1 + 357 */
	gdr_pace_start(&p, 1, GDR_RATE_GBPS, 1048576, 0);
	CHECK(gdr_pace_allowed(&p, 3000000000ULL) == 358);
	/* the rate the allowance implies over a long run is the rate asked for */
	gdr_pace_start(&p, 2.5, GDR_RATE_GBPS, 8192, 0);
	double got = (double)(gdr_pace_allowed(&p, 10000000000ULL) - 1) * 8192 * 8 / 10 / 1e9;
	CHECK(fabs(got - 2.5) < 1e-5, "%g Gb/s", got);
}

static void off(void)
{
	struct gdr_pace p;
	char d[32];

	gdr_pace_start(&p, 0, GDR_RATE_GBPS, 4096, 1);
	CHECK(!p.on && gdr_pace_allowed(&p, 12345) == UINT64_MAX);
	gdr_pace_desc(1.5, GDR_RATE_GBPS, d, sizeof(d));
	CHECK(!strcmp(d, "1.5 Gb/s"), "%s", d);
	gdr_pace_desc(20, GDR_RATE_MIBPS, d, sizeof(d));
	CHECK(!strcmp(d, "20 MiB/s"), "%s", d);
	gdr_pace_desc(1000, GDR_RATE_PPS, d, sizeof(d));
	CHECK(!strcmp(d, "1000 msg/s"), "%s", d);
}

int main(void)
{
	units();
	allowed();
	off();
	return CHECK_DONE();
}
