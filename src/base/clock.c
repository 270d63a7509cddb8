/* SPDX-License-Identifier: MIT */
/* The time base: CLOCK_MONOTONIC in nanoseconds, its resolution and name; CPU time used. */
#include <sys/resource.h>
#include "clock.h"

uint64_t gdr_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

double gdr_cpu_pct(uint64_t cpu0, uint64_t cpu1, uint64_t wall0, uint64_t wall1)
{
	if (wall1 <= wall0 || cpu1 < cpu0)
		return 0;
	return 100.0 * (double)(cpu1 - cpu0) / (double)(wall1 - wall0);
}

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
