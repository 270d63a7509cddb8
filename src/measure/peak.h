/* SPDX-License-Identifier: MIT */
/* BW peak: the highest rate over windows that tile the measured run. */
#ifndef GDR_PEAK_H
#define GDR_PEAK_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Windows of at least `min` messages and 10 ms (shorter bursts of
 * completions say more about polling than about the link) tile the run the
 * average covers: the first starts where the average's clock starts, each
 * next one where the last closed, and gdr_peak_finish() adds the tail (the
 * part after the last closed window) to the last closed window. The average
 * is then a time-weighted mean of window rates, so peak >= average by
 * construction. A run shorter than one window is its own only window: its
 * peak is its average. Only a run with no message or no measured time has no
 * peak (Bps 0, sent as 0, reported as n/a).
 *
 * One tracker follows one counter of one role: a counter that goes back (or
 * a clock that does) is ignored rather than wrapped.
 */
struct gdr_peak {
	uint64_t size, min;
	uint64_t win_ns, win_msgs;   /* where the open window started */
	uint64_t prev_ns, prev_msgs; /* where the last closed window started */
	bool closed;		     /* a window has closed */
	double Bps;
};

#define GDR_PEAK_WINDOW_NS 10000000ULL

static inline void gdr_peak_start(struct gdr_peak *p, uint64_t size, uint64_t min, uint64_t now)
{
	*p = (struct gdr_peak){ .size = size, .min = min ? min : 1, .win_ns = now };
}

/* The rate of `dn` messages over `dt` ns, or 0 when there is no time. */
static inline double gdr_peak_rate(const struct gdr_peak *p, uint64_t dn, uint64_t dt)
{
	return dt ? (double)dn * (double)p->size / ((double)dt * 1e-9) : 0;
}

static inline void gdr_peak_update(struct gdr_peak *p, uint64_t now, uint64_t done)
{
	uint64_t dn, dt;

	if (done < p->win_msgs || now < p->win_ns)
		return; /* not this tracker's counter or clock: never wrap */
	dn = done - p->win_msgs;
	dt = now - p->win_ns;
	if (dn >= p->min && dt >= GDR_PEAK_WINDOW_NS) {
		double r = gdr_peak_rate(p, dn, dt);

		if (r > p->Bps)
			p->Bps = r;
		p->prev_ns = p->win_ns;
		p->prev_msgs = p->win_msgs;
		p->closed = true;
		p->win_msgs = done;
		p->win_ns = now;
	}
}

/*
 * The run ended at `end` (the time the average ends) with `done` messages
 * (the count the average uses): fold the tail into the last closed window,
 * or, when none closed, take the whole run as the one window.
 */
void gdr_peak_finish(struct gdr_peak *p, uint64_t end, uint64_t done);

/* The peak to report from a measured (or received) peak: NAN when there is none. */
double gdr_peak_report(double peak_Bps);

#endif
