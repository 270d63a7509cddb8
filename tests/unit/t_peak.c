/* SPDX-License-Identifier: MIT */
/*
 * BW peak windows tile the run the average covers, so peak >= average on
 * every run (the tail after the last closed window joins that window; a run
 * shorter than one window is its own window); a counter that goes back is
 * ignored, never wrapped; only a run with nothing measured has no peak (n/a).
 */
#include <math.h>
#include "peak.h"

#include "check.h"
#include "rng.h"

#define MS 1000000ULL

/* The average as bw_size.c's measure() computes it: messages * size over the run's time. */
static double average(uint64_t msgs, uint64_t size, uint64_t t0, uint64_t t1)
{
	double s = (double)(t1 - t0) * 1e-9;

	return (double)msgs * (double)size / s;
}

int main(void)
{
	struct gdr_peak p;
	double avg;

	/* 1000 messages of 1 KiB within 5 ms: shorter than a window, the run is its own window. */
	gdr_peak_start(&p, 1024, 128, 0);
	for (uint64_t i = 1; i <= 1000; i++)
		gdr_peak_update(&p, i * 5 * MS / 1000, i);
	gdr_peak_finish(&p, 5 * MS, 1000);
	avg = average(1000, 1024, 0, 5 * MS);
	CHECK(p.Bps == avg, "short run: peak %g, average %g", p.Bps, avg);
	CHECK(gdr_peak_report(p.Bps) == avg, "a short run has a peak");

	/* Nothing measured: no peak, reported as n/a (NAN). */
	gdr_peak_start(&p, 1024, 128, 7 * MS);
	gdr_peak_finish(&p, 7 * MS, 0);
	CHECK(isnan(gdr_peak_report(p.Bps)), "no message: n/a, got %g", p.Bps);

	/* Windows of 10 ms: 100 msgs, then 300 msgs, then 200: the peak is the 300. */
	gdr_peak_start(&p, 1000, 50, 0);
	gdr_peak_update(&p, 10 * MS, 100);
	gdr_peak_update(&p, 20 * MS, 400);
	gdr_peak_update(&p, 30 * MS, 600);
	gdr_peak_finish(&p, 30 * MS, 600);
	CHECK(fabs(p.Bps - 300 * 1000 / 0.01) < 1e-6 * p.Bps, "peak %g, want %g", p.Bps,
	      300 * 1000 / 0.01);

	/*
	 * The shape of issue 23's 64 KiB row: a slow first window (ramp-up), then
	 * a fast tail too short to close a window. The windows alone saw
	 * 200 msgs / 230 ms; the average is 300 msgs / 240 ms.
	 */
	gdr_peak_start(&p, 65536, 128, 0);
	gdr_peak_update(&p, 230 * MS, 200);
	gdr_peak_update(&p, 240 * MS, 300); /* 100 < 128 messages: stays open */
	gdr_peak_finish(&p, 240 * MS, 300);
	avg = average(300, 65536, 0, 240 * MS);
	CHECK(p.Bps >= avg, "fast tail: peak %g below average %g", p.Bps, avg);

	/* A second counter fed into one tracker (staged -b, issue 22): ignored, not wrapped. */
	gdr_peak_start(&p, 4096, 1, 0);
	gdr_peak_update(&p, 20 * MS, 1000); /* credits */
	gdr_peak_update(&p, 31 * MS, 10);   /* runs copied out: behind */
	gdr_peak_update(&p, 25 * MS, 2000); /* a clock a step old */
	CHECK(p.Bps <= 1000 * 4096 / 0.02 * (1 + 1e-9), "wrapped peak %g", p.Bps);

	/* Any run: random completion times and batch sizes; peak >= average always. */
	for (int run = 0; run < 2000; run++) {
		uint64_t t0 = rng() % (1000 * MS), t = t0, done = 0, size = 1 + rng() % 65536;
		uint64_t min = 1 + rng() % 256, n = 1 + rng() % 400;

		gdr_peak_start(&p, size, min, t0);
		for (uint64_t k = 0; k < n; k++) {
			t += 1 + rng() % (rng() % 4 ? 2 * MS : 40 * MS);
			done += 1 + rng() % 64;
			gdr_peak_update(&p, t, done);
		}
		gdr_peak_finish(&p, t, done);
		avg = average(done, size, t0, t);
		CHECK(p.Bps >= avg * (1 - 1e-12), "run %d: peak %g below average %g", run, p.Bps,
		      avg);
	}
	return CHECK_DONE();
}
