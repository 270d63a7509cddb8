/* SPDX-License-Identifier: MIT */
/*
 * BW peak windows: a run shorter than one window (too few messages or under
 * 10 ms) has no peak, reported as n/a (NAN: empty CSV cell, JSON null, "n/a"
 * in the table), never as the average; a long run's peak is its fastest window.
 */
#include <math.h>
#include "peak.h"

#include "check.h"

#define MS 1000000ULL

int main(void)
{
	struct gdr_peak p;

	/* 1000 messages of 1 KiB within 5 ms: below the 10 ms window. */
	gdr_peak_start(&p, 1024, 128, 0);
	for (uint64_t i = 1; i <= 1000; i++)
		gdr_peak_update(&p, i * 5 * MS / 1000, i);
	CHECK(p.Bps == 0, "peak %g from a run shorter than a window", p.Bps);
	CHECK(isnan(gdr_peak_report(p.Bps)), "a missing peak must be reported as n/a");

	/* 20 ms but fewer messages than the window's minimum. */
	gdr_peak_start(&p, 1024, 128, 0);
	gdr_peak_update(&p, 20 * MS, 100);
	CHECK(isnan(gdr_peak_report(p.Bps)), "100 < 128 messages: no window");

	/* Windows of 10 ms: 100 msgs, then 300 msgs, then 200: the peak is the 300. */
	gdr_peak_start(&p, 1000, 50, 0);
	gdr_peak_update(&p, 10 * MS, 100);
	gdr_peak_update(&p, 20 * MS, 400);
	gdr_peak_update(&p, 30 * MS, 600);
	CHECK(fabs(p.Bps - 300 * 1000 / 0.01) < 1e-6 * p.Bps, "peak %g, want %g", p.Bps,
	      300 * 1000 / 0.01);
	CHECK(gdr_peak_report(p.Bps) == p.Bps, "a measured peak is reported as is");

	/* A start time that is not 0, and a window that only closes on its second update. */
	gdr_peak_start(&p, 64, 10, 5 * MS);
	gdr_peak_update(&p, 9 * MS, 50);  /* 4 ms: open */
	gdr_peak_update(&p, 15 * MS, 60); /* 10 ms, 60 msgs */
	CHECK(fabs(p.Bps - 60.0 * 64 / 0.01) < 1e-6 * p.Bps, "peak %g", p.Bps);
	return failures ? 1 : 0;
}
