/* SPDX-License-Identifier: MIT */
/*
 * Exact latency statistics over every sample: sort once, read min, max,
 * median and nearest-rank percentiles from the sorted array, and take the
 * mean and the sample standard deviation in two passes (the second pass
 * carries the usual correction term, so rounding in the mean does not leak
 * into the variance).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "stats.h"

uint64_t gdr_pct_rank(double q, uint64_t n)
{
	double r;
	uint64_t k;

	if (n == 0 || !(q > 0.0))
		return 1;
	if (q >= 100.0)
		return n;
	r = q / 100.0 * (double)n;
	r -= r * 1e-12;
	k = (uint64_t)ceil(r);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return k;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Mean and sample standard deviation, two-pass with correction. */
static void mean_stdev(const double *s, size_t n, double *mean, double *stdev)
{
	double sum = 0.0, m, d, sq = 0.0, lin = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += s[i];
	m = sum / (double)n;
	for (i = 0; i < n; i++) {
		d = s[i] - m;
		lin += d;
		sq += d * d;
	}
	*mean = m + lin / (double)n;
	if (n < 2) {
		*stdev = 0.0;
		return;
	}
	sq -= lin * lin / (double)n;
	*stdev = sq > 0.0 ? sqrt(sq / (double)(n - 1)) : 0.0;
}

int gdr_spread_of(const double *v, size_t n, struct gdr_spread *out)
{
	double copy[GDR_SPREAD_MAX];
	struct gdr_lat_stats st;

	if (n == 0 || n > GDR_SPREAD_MAX)
		return -1;
	memcpy(copy, v, n * sizeof(*v));
	if (gdr_stats_compute(copy, n, NULL, 0, &st))
		return -1;
	*out = (struct gdr_spread){.n = n,
				   .median = st.median,
				   .min = st.min,
				   .max = st.max,
				   .mean = st.avg,
				   .cv = st.avg != 0 ? st.stdev / fabs(st.avg) : 0};
	return 0;
}

int gdr_stats_compute(double *samples, size_t n, const double *q, int nq, struct gdr_lat_stats *out)
{
	int i;

	if (n == 0)
		return -1;
	if (nq < 0 || nq > GDR_STATS_MAX_Q) {
		gdr_err("internal: %d percentiles requested, at most %d are supported", nq,
			GDR_STATS_MAX_Q);
		return -1;
	}
	qsort(samples, n, sizeof(*samples), cmp_double);
	out->n = n;
	out->min = samples[0];
	out->max = samples[n - 1];
	if (n % 2)
		out->median = samples[n / 2];
	else
		out->median = samples[n / 2 - 1] / 2.0 + samples[n / 2] / 2.0;
	mean_stdev(samples, n, &out->avg, &out->stdev);
	out->npct = nq;
	for (i = 0; i < nq; i++) {
		out->pct_q[i] = q[i];
		out->pct_v[i] = samples[gdr_pct_rank(q[i], n) - 1];
	}
	return 0;
}
