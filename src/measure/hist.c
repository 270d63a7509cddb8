/* SPDX-License-Identifier: MIT */
/*
 * Log-linear latency histogram with fixed memory (one allocation, about
 * 80 KiB, whatever the number of samples).
 *
 * Layout: every octave [2^e, 2^(e+1)) usec, for e = HIST_EMIN .. HIST_EMAX-1,
 * is cut into HIST_SUB equal linear buckets; that covers 2^-11 usec (0.49 ns)
 * .. 2^28 usec (268 s), i.e. more than 1 ns .. 100 s. One extra bucket holds
 * values below the range (and anything that is not a number), one holds
 * values at or above it.
 *
 * Error bound: a bucket [lo, lo + w) of octave e has w = 2^e / HIST_SUB and
 * lo >= 2^e; it is represented by its midpoint lo + w/2, so for any value x
 * in it |rep - x| <= w/2 <= x / (2 * HIST_SUB). Hence GDR_HIST_REL_ERR =
 * 1/512 (about 0.2%) relative to the true sample value, for every reported
 * quantile whose sample lies in the covered range. A quantile is also
 * clamped to the exact [min, max], which can only bring it closer. Below the
 * range the minimum is reported (absolute error < 0.49 ns); above it, the
 * maximum. min, max, mean and stdev are exact (running values, Welford).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "stats.h"

#define HIST_SUB   256 /* linear buckets per octave: error bound 1 / (2 * 256) */
#define HIST_EMIN  (-11)
#define HIST_EMAX  28
#define HIST_NOCT  (HIST_EMAX - HIST_EMIN)
#define HIST_UNDER 0
#define HIST_OVER  (1 + HIST_NOCT * HIST_SUB)
#define HIST_NB	   (HIST_OVER + 1)

const double GDR_HIST_REL_ERR = 1.0 / (2 * HIST_SUB);

struct gdr_hist {
	uint64_t n;
	double min, max;
	double mean, m2; /* Welford running mean and sum of squared deviations */
	uint64_t count[HIST_NB];
};

struct gdr_hist *gdr_hist_new(void)
{
	struct gdr_hist *h = malloc(sizeof(*h));

	if (h)
		gdr_hist_reset(h);
	return h;
}

void gdr_hist_free(struct gdr_hist *h)
{
	free(h);
}

void gdr_hist_reset(struct gdr_hist *h)
{
	memset(h, 0, sizeof(*h));
}

static size_t bucket_of(double x)
{
	int ex;
	double m;

	if (!(x >= ldexp(1.0, HIST_EMIN))) /* also NaN */
		return HIST_UNDER;
	if (x >= ldexp(1.0, HIST_EMAX))
		return HIST_OVER;
	m = frexp(x, &ex); /* x = m * 2^ex, m in [0.5, 1): octave e = ex - 1 */
	return 1 + (size_t)(ex - 1 - HIST_EMIN) * HIST_SUB + (size_t)((2.0 * m - 1.0) * HIST_SUB);
}

static double bucket_mid(const struct gdr_hist *h, size_t b)
{
	size_t oct, j;

	if (b == HIST_UNDER)
		return h->min;
	if (b == HIST_OVER)
		return h->max;
	oct = (b - 1) / HIST_SUB;
	j = (b - 1) % HIST_SUB;
	return ldexp(1.0 + ((double)j + 0.5) / HIST_SUB, (int)oct + HIST_EMIN);
}

void gdr_hist_add(struct gdr_hist *h, double usec)
{
	double d;

	if (h->n == 0 || usec < h->min)
		h->min = usec;
	if (h->n == 0 || usec > h->max)
		h->max = usec;
	h->n++;
	d = usec - h->mean;
	h->mean += d / (double)h->n;
	h->m2 += d * (usec - h->mean);
	h->count[bucket_of(usec)]++;
}

/* Representative value of the sample of 1-based rank k in sorted order. */
static double value_at_rank(const struct gdr_hist *h, uint64_t k)
{
	uint64_t seen = 0;
	size_t b;
	double v;

	for (b = 0; b < HIST_NB - 1; b++) {
		seen += h->count[b];
		if (seen >= k)
			break;
	}
	v = bucket_mid(h, b);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

int gdr_hist_compute(const struct gdr_hist *h, const double *q, int nq, struct gdr_lat_stats *out)
{
	int i;

	if (h->n == 0)
		return -1;
	if (nq < 0 || nq > GDR_STATS_MAX_Q) {
		gdr_err("internal: %d percentiles requested, at most %d are supported", nq,
			GDR_STATS_MAX_Q);
		return -1;
	}
	out->n = h->n;
	out->min = h->min;
	out->max = h->max;
	out->avg = h->mean;
	out->stdev = h->n > 1 && h->m2 > 0.0 ? sqrt(h->m2 / (double)(h->n - 1)) : 0.0;
	if (h->n % 2)
		out->median = value_at_rank(h, h->n / 2 + 1);
	else
		out->median =
		    value_at_rank(h, h->n / 2) / 2.0 + value_at_rank(h, h->n / 2 + 1) / 2.0;
	out->npct = nq;
	for (i = 0; i < nq; i++) {
		out->pct_q[i] = q[i];
		out->pct_v[i] = value_at_rank(h, gdr_pct_rank(q[i], h->n));
	}
	return 0;
}
