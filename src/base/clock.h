/* SPDX-License-Identifier: MIT */
/*
 * The one time base of gdrperf: CLOCK_MONOTONIC in nanoseconds. It needs
 * no CPU frequency estimate (unlike a raw TSC), keeps counting correctly in
 * virtual machines and is not stepped by NTP or settimeofday.
 */
#ifndef GDR_CLOCK_H
#define GDR_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic time in nanoseconds since an arbitrary start. */
static inline uint64_t gdr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * The time from start to end, in ns; 0 when either is unset (0: no event was timed) or end
 * is not after start. A measured interval is never the unsigned difference of an unset time.
 */
static inline uint64_t gdr_span_ns(uint64_t start, uint64_t end)
{
	return start && end > start ? end - start : 0;
}

/* Resolution of that clock as reported by clock_getres(), in ns; 0 if unknown. */
double gdr_clock_res_ns(void);

/* CPU time of this process so far (user + system, every thread), in ns. */
uint64_t gdr_cpu_ns(void);
/* CPU use in percent of one core between two (cpu, wall) readings; 0 when no time passed. */
double gdr_cpu_pct(uint64_t cpu0, uint64_t cpu1, uint64_t wall0, uint64_t wall1);

/* Name of the clock for the run header: "CLOCK_MONOTONIC". */
const char *gdr_clock_name(void);

#endif
