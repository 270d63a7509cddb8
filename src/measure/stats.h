/* SPDX-License-Identifier: MIT */
/*
 * Latency statistics, computed from every sample (no dropped samples,
 * floating-point standard deviation), and a fixed-size histogram for
 * duration mode whose memory does not depend on the run length.
 */
#ifndef GDR_STATS_H
#define GDR_STATS_H

#include <stddef.h>
#include <stdint.h>

#define GDR_STATS_MAX_Q 8 /* percentiles one gdr_lat_stats holds at most */

struct gdr_lat_stats {
	uint64_t n;     /* samples */
	double min;     /* usec */
	double max;     /* true maximum */
	double median;
	double avg;
	double stdev;   /* sample standard deviation (n-1); 0 when n == 1 */
	int npct;
	double pct_q[GDR_STATS_MAX_Q]; /* requested percentiles, e.g. 99.0, 99.9 */
	double pct_v[GDR_STATS_MAX_Q]; /* their values, usec */
};

/*
 * Exact statistics over samples[0..n-1] (usec). Sorts samples in place.
 * Percentile definition (documented in docs/measurement.md): nearest rank,
 * value = sorted[ceil(q/100 * n) - 1] (q=0 -> min). Median: mean of the
 * two middle values for even n. Returns 0, -1 if n == 0.
 */
int gdr_stats_compute(double *samples, size_t n, const double *q, int nq,
		      struct gdr_lat_stats *out);

/*
 * The spread of one figure over a few repeated runs (--repeat): its median
 * (mean of the two middle values for even n), range, mean and coefficient of
 * variation = sample standard deviation (n-1) / mean, as nvbandwidth reports
 * it (0 for n == 1 or a zero mean). n at most GDR_SPREAD_MAX.
 */
#define GDR_SPREAD_MAX 64
struct gdr_spread {
	size_t n;
	double median, min, max, mean, cv;
};
/* 0, or -1 (n is 0 or above GDR_SPREAD_MAX). v is not changed. */
int gdr_spread_of(const double *v, size_t n, struct gdr_spread *out);

/*
 * Nearest rank (1-based) of percentile q over n samples: ceil(q/100 * n),
 * clamped to 1..n (q <= 0 -> 1, q >= 100 -> n). The product is taken with a
 * relative tolerance of 1e-12 so that decimal q such as 99.9 (not exact in
 * binary) lands on the exact rank: q=99.9, n=1000 -> 999, not 1000.
 * Used by both gdr_stats_compute and the histogram. n must be > 0.
 */
uint64_t gdr_pct_rank(double q, uint64_t n);

/*
 * Log-linear histogram: exact min/max/mean/stdev (running sums), quantiles
 * from buckets with a relative error bound of GDR_HIST_REL_ERR.
 */
struct gdr_hist;
struct gdr_hist *gdr_hist_new(void);
void gdr_hist_free(struct gdr_hist *h);
void gdr_hist_reset(struct gdr_hist *h);
void gdr_hist_add(struct gdr_hist *h, double usec);
int gdr_hist_compute(const struct gdr_hist *h, const double *q, int nq,
		     struct gdr_lat_stats *out);
extern const double GDR_HIST_REL_ERR;

#endif
