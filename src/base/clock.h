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

/* Resolution of that clock as reported by clock_getres(), in ns; 0 if unknown. */
double gdr_clock_res_ns(void);

/* Name of the clock for the run header: "CLOCK_MONOTONIC". */
const char *gdr_clock_name(void);

#endif
