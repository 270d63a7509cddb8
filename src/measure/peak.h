/* SPDX-License-Identifier: MIT */
/* BW peak: the highest rate over windows of a minimum length, or none (n/a). */
#ifndef GDR_PEAK_H
#define GDR_PEAK_H

#include <stdint.h>

/*
 * The highest rate over windows of at least `min` messages and 10 ms
 * (shorter bursts of completions say more about polling than about the
 * link); the average covers the whole run. A run shorter than one window
 * has no peak: Bps stays 0, is sent as 0 and reported as n/a.
 */
struct gdr_peak {
	uint64_t size, min;
	uint64_t win_ns, win_msgs;
	double Bps;
};

#define GDR_PEAK_WINDOW_NS 10000000ULL

static inline void gdr_peak_start(struct gdr_peak *p, uint64_t size, uint64_t min, uint64_t now)
{
	*p = (struct gdr_peak){ .size = size, .min = min ? min : 1, .win_ns = now };
}

static inline void gdr_peak_update(struct gdr_peak *p, uint64_t now, uint64_t done)
{
	uint64_t dn = done - p->win_msgs, dt = now - p->win_ns;

	if (dn >= p->min && dt >= GDR_PEAK_WINDOW_NS) {
		double r = (double)dn * (double)p->size / ((double)dt * 1e-9);

		if (r > p->Bps)
			p->Bps = r;
		p->win_msgs = done;
		p->win_ns = now;
	}
}

/* The peak to report from a measured (or received) peak: NAN when there is none. */
double gdr_peak_report(double peak_Bps);

#endif
