/* SPDX-License-Identifier: MIT */
/* BW peak: the tail of the run, and reporting (no measured time: no peak, n/a). */
#include "config.h"
#include <math.h>
#include "peak.h"

void gdr_peak_finish(struct gdr_peak *p, uint64_t end, uint64_t done)
{
	uint64_t t0 = p->closed ? p->prev_ns : p->win_ns;
	uint64_t m0 = p->closed ? p->prev_msgs : p->win_msgs;
	double r;

	if (done <= p->win_msgs || end <= p->win_ns)
		return; /* no tail: the closed windows cover the run */
	r = gdr_peak_rate(p, done - m0, end - t0);
	if (r > p->Bps)
		p->Bps = r;
}

double gdr_peak_report(double peak_Bps)
{
	return peak_Bps > 0 ? peak_Bps : NAN;
}
