/* SPDX-License-Identifier: MIT */
/* The time base: CLOCK_MONOTONIC in nanoseconds, its resolution and name. */
#include "clock.h"

double gdr_clock_res_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
		return 0.0;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

const char *gdr_clock_name(void)
{
	return "CLOCK_MONOTONIC";
}
