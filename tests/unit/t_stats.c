/* SPDX-License-Identifier: MIT */
/*
 * gdr_stats_compute against an independent reference written differently:
 * percentiles are given in integer thousandths and their ranks computed in
 * integer arithmetic; order statistics are found by counting (no sorting);
 * mean and variance are two-pass in long double. Plus hand-computed cases.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#include "check.h"
#define RNG_SEED 0x9e3779b97f4a7c15ULL
#include "rng.h"

/* Rank (1-based) of percentile qm/1000 over n, in integer arithmetic. */
static uint64_t ref_rank(uint64_t qm, uint64_t n)
{
	uint64_t k = (qm * n + 99999) / 100000;

	return k < 1 ? 1 : k > n ? n : k;
}

/* The k-th smallest value (1-based): the smallest x with #{y <= x} >= k. */
static double ref_kth(const double *s, const uint64_t *le, size_t n, uint64_t k)
{
	double best = 0;
	int found = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (le[i] >= k && (!found || s[i] < best)) {
			best = s[i];
			found = 1;
		}
	}
	return best;
}

static const uint64_t qms[] = {0,     1,     100,   1000,  10000, 25000, 50000,
			       75000, 90000, 99000, 99900, 99990, 99999, 100000};
#define NQM (sizeof(qms) / sizeof(qms[0]))

/* Compare gdr_stats_compute on s[0..n-1] with the reference. */
static void check_set(const char *name, const double *s, size_t n)
{
	struct gdr_lat_stats st;
	uint64_t *le = calloc(n, sizeof(*le));
	double *copy = malloc(n * sizeof(*copy));
	double q[GDR_STATS_MAX_Q], mn = s[0], mx = s[0], amax = 0, med, tol;
	long double sum = 0, mean, var = 0;
	size_t i, j, base;

	if (!le || !copy) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			le[i] += s[j] <= s[i];
		mn = s[i] < mn ? s[i] : mn;
		mx = s[i] > mx ? s[i] : mx;
		amax = fabs(s[i]) > amax ? fabs(s[i]) : amax;
		sum += s[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		var += (s[i] - mean) * (s[i] - mean);
	var = n > 1 ? var / (n - 1) : 0;
	if (n % 2)
		med = ref_kth(s, le, n, n / 2 + 1);
	else
		med = (double)(((long double)ref_kth(s, le, n, n / 2) +
				ref_kth(s, le, n, n / 2 + 1)) /
			       2);

	for (base = 0; base < NQM; base += GDR_STATS_MAX_Q) {
		int nq = 0;

		for (i = base; i < NQM && nq < GDR_STATS_MAX_Q; i++)
			q[nq++] = qms[i] / 1000.0;
		memcpy(copy, s, n * sizeof(*copy));
		CHECK(gdr_stats_compute(copy, n, q, nq, &st) == 0, "%s: compute failed", name);
		CHECK(st.n == n, "%s: n %llu != %zu", name, (unsigned long long)st.n, n);
		CHECK(st.min == mn, "%s: min %.17g != %.17g", name, st.min, mn);
		CHECK(st.max == mx, "%s: max %.17g != %.17g", name, st.max, mx);
		CHECK(fabs(st.median - med) <= 1e-15 * fabs(med), "%s: median %.17g != %.17g", name,
		      st.median, med);
		tol = 1e-13 * amax; /* summation error bound, with margin */
		CHECK(fabsl(st.avg - mean) <= tol, "%s: avg %.17g != %.17Lg", name, st.avg, mean);
		CHECK(fabsl(st.stdev - sqrtl(var)) <= 1e-9 * sqrtl(var) + tol,
		      "%s: stdev %.17g != %.17Lg", name, st.stdev, sqrtl(var));
		CHECK(st.npct == nq, "%s: npct %d != %d", name, st.npct, nq);
		for (i = 0; i < (size_t)nq; i++) {
			double want = ref_kth(s, le, n, ref_rank(qms[base + i], n));

			CHECK(st.pct_q[i] == q[i], "%s: pct_q[%zu]", name, i);
			CHECK(st.pct_v[i] == want, "%s: p%g = %.17g, expected %.17g (n=%zu)", name,
			      q[i], st.pct_v[i], want, n);
		}
		for (i = 1; i < n; i++)
			CHECK(copy[i - 1] <= copy[i], "%s: not sorted in place at %zu", name, i);
	}
	free(le);
	free(copy);
}

/* Hand-computed literal cases. */
static void check_literal(void)
{
	struct gdr_lat_stats st;
	double one[] = {5.0};
	double two[] = {2.0, 1.0};
	double ten[] = {7, 3, 10, 1, 5, 9, 2, 8, 4, 6};
	double ties[] = {3, 1, 2, 2, 2, 100};
	double q1[] = {0.0001, 50, 100};
	double q10[] = {10, 11, 90, 99.9};
	double q6[] = {50, 83.3, 99};
	double *thousand = malloc(1000 * sizeof(double));
	double qk[] = {0, 0.1, 99, 99.9, 100};
	int i;

	CHECK(gdr_stats_compute(one, 1, q1, 3, &st) == 0, "one");
	CHECK(st.min == 5 && st.max == 5 && st.median == 5 && st.avg == 5 && st.stdev == 0,
	      "one sample: %g %g %g %g %g", st.min, st.max, st.median, st.avg, st.stdev);
	CHECK(st.pct_v[0] == 5 && st.pct_v[1] == 5 && st.pct_v[2] == 5, "one sample pct");

	CHECK(gdr_stats_compute(two, 2, q1, 3, &st) == 0, "two");
	CHECK(st.median == 1.5 && st.avg == 1.5, "two: median %g avg %g", st.median, st.avg);
	CHECK(fabs(st.stdev - 0.70710678118654752) < 1e-15, "two: stdev %.17g", st.stdev);
	CHECK(st.pct_v[0] == 1 && st.pct_v[1] == 1 && st.pct_v[2] == 2, "two: pct %g %g %g",
	      st.pct_v[0], st.pct_v[1], st.pct_v[2]);

	/* 1..10: var = 82.5 / 9; p10 -> rank 1, p11 -> rank 2, p90 -> 9, p99.9 -> 10 */
	CHECK(gdr_stats_compute(ten, 10, q10, 4, &st) == 0, "ten");
	CHECK(st.median == 5.5 && st.avg == 5.5, "ten: median %g avg %g", st.median, st.avg);
	CHECK(fabs(st.stdev - 3.0276503540974917) < 1e-14, "ten: stdev %.17g", st.stdev);
	CHECK(st.pct_v[0] == 1 && st.pct_v[1] == 2 && st.pct_v[2] == 9 && st.pct_v[3] == 10,
	      "ten: pct %g %g %g %g", st.pct_v[0], st.pct_v[1], st.pct_v[2], st.pct_v[3]);

	/* sorted 1 2 2 2 3 100: median 2, mean 110/6, p83.3 -> rank ceil(4.998) = 5 -> 3 */
	CHECK(gdr_stats_compute(ties, 6, q6, 3, &st) == 0, "ties");
	CHECK(st.median == 2 && fabs(st.avg - 110.0 / 6) < 1e-13 && st.max == 100,
	      "ties: median %g avg %g max %g", st.median, st.avg, st.max);
	CHECK(st.pct_v[0] == 2 && st.pct_v[1] == 3 && st.pct_v[2] == 100, "ties: pct %g %g %g",
	      st.pct_v[0], st.pct_v[1], st.pct_v[2]);

	/* 1..1000: p99.9 must be 999 (rank exactly 999, not 1000), p99 990 */
	for (i = 0; i < 1000; i++)
		thousand[i] = 1000 - i;
	CHECK(gdr_stats_compute(thousand, 1000, qk, 5, &st) == 0, "thousand");
	CHECK(st.pct_v[0] == 1 && st.pct_v[1] == 1 && st.pct_v[2] == 990 && st.pct_v[3] == 999 &&
		  st.pct_v[4] == 1000,
	      "thousand: pct %g %g %g %g %g", st.pct_v[0], st.pct_v[1], st.pct_v[2], st.pct_v[3],
	      st.pct_v[4]);
	CHECK(st.median == 500.5 && st.avg == 500.5 && st.max == 1000, "thousand: %g %g %g",
	      st.median, st.avg, st.max);
	free(thousand);

	/* errors */
	CHECK(gdr_stats_compute(one, 0, q1, 3, &st) == -1, "n == 0 accepted");
	CHECK(gdr_stats_compute(one, 1, q1, GDR_STATS_MAX_Q + 1, &st) == -1,
	      "too many pct accepted");
}

static void check_rank(void)
{
	uint64_t n;
	size_t i;

	for (n = 1; n <= 5000; n++)
		for (i = 0; i < NQM; i++)
			CHECK(gdr_pct_rank(qms[i] / 1000.0, n) == ref_rank(qms[i], n),
			      "rank q=%g n=%llu: %llu != %llu", qms[i] / 1000.0,
			      (unsigned long long)n,
			      (unsigned long long)gdr_pct_rank(qms[i] / 1000.0, n),
			      (unsigned long long)ref_rank(qms[i], n));
	CHECK(gdr_pct_rank(99.99, 1000000000) == 999900000, "rank at n = 1e9");
	CHECK(gdr_pct_rank(99.9999, 1000000000) == 999999000, "rank at n = 1e9, 99.9999");
	CHECK(gdr_pct_rank(150, 10) == 10 && gdr_pct_rank(-1, 10) == 1, "rank clamping");
}

/*
 * gdr_spread_of (--repeat's figures) against a reference written another
 * way: the median by counting ranks (no sort), mean and the sample variance
 * in long double from the definition, and hand-computed cases.
 */
static void ref_spread(const double *v, size_t n, long double *median, long double *mean,
		       long double *cv, double *lo, double *hi)
{
	long double sum = 0, sq = 0, mid[2] = {0, 0};
	size_t want[2] = {(n - 1) / 2, n / 2}; /* 0-based ranks of the middle value(s) */

	*lo = *hi = v[0];
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, same = 0;

		sum += v[i];
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
		for (size_t j = 0; j < n; j++) {
			below += v[j] < v[i];
			same += v[j] == v[i];
		}
		for (int k = 0; k < 2; k++) /* v[i] holds ranks below .. below + same - 1 */
			if (want[k] >= below && want[k] < below + same)
				mid[k] = v[i];
	}
	*median = (mid[0] + mid[1]) / 2;
	*mean = sum / n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*cv = n > 1 && *mean != 0 ? sqrtl(sq / (n - 1)) / fabsl(*mean) : 0;
}

static void check_spread(void)
{
	static const double three[] = {3, 1, 2}, four[] = {10, 40, 20, 30};
	double v[GDR_SPREAD_MAX], keep[GDR_SPREAD_MAX];
	struct gdr_spread sp;

	/* hand-computed: {1,2,3}: median 2, mean 2, stdev 1, cv 0.5 */
	CHECK(!gdr_spread_of(three, 3, &sp) && sp.n == 3 && sp.median == 2 && sp.min == 1 &&
		  sp.max == 3 && sp.mean == 2 && fabs(sp.cv - 0.5) < 1e-15,
	      "spread of {3,1,2}");
	/* {10,20,30,40}: median 25, mean 25, stdev sqrt(500/3) = 12.9099, cv 0.516398 */
	CHECK(!gdr_spread_of(four, 4, &sp) && sp.median == 25 && sp.min == 10 && sp.max == 40 &&
		  fabs(sp.cv - 0.5163977794943222) < 1e-12,
	      "spread of {10,40,20,30}");
	CHECK(!gdr_spread_of(four, 1, &sp) && sp.median == 10 && sp.cv == 0, "one repeat: cv 0");
	CHECK(gdr_spread_of(four, 0, &sp) == -1, "no repeat: refused");
	CHECK(gdr_spread_of(v, GDR_SPREAD_MAX + 1, &sp) == -1, "too many: refused");
	for (size_t n = 1; n <= GDR_SPREAD_MAX; n += n < 8 ? 1 : 7) {
		for (int kind = 0; kind < 3; kind++) {
			long double med, mean, cv;
			double lo, hi;

			for (size_t i = 0; i < n; i++)
				v[i] = kind == 0   ? 100 + 900 * urand()		/* a noisy rate */
				       : kind == 1 ? (double)(rng() % 3)		/* ties */
						   : 1e9 + urand(); /* offset: cancellation */
			memcpy(keep, v, n * sizeof(*v));
			ref_spread(v, n, &med, &mean, &cv, &lo, &hi);
			CHECK(!gdr_spread_of(v, n, &sp), "spread n %zu", n);
			CHECK(!memcmp(keep, v, n * sizeof(*v)), "spread leaves its input (n %zu)", n);
			CHECK(fabsl(sp.median - med) <= 1e-15L * fabsl(med) && sp.min == lo &&
				  sp.max == hi,
			      "median and range, kind %d n %zu", kind, n);
			CHECK(fabsl(sp.mean - mean) <= 1e-12L * fabsl(mean) &&
				  fabsl(sp.cv - cv) <= 1e-9L * (cv > 1e-6L ? cv : 1e-6L),
			      "mean %g / %Lg and cv %g / %Lg, kind %d n %zu", sp.mean, mean, sp.cv, cv,
			      kind, n);
		}
	}
}

int main(void)
{
	static const size_t sizes[] = {1, 2, 3, 4, 7, 100, 1001, 2048};
	double *s = malloc(2048 * sizeof(*s));
	char name[64];
	size_t si, i, n;
	int kind;

	check_literal();
	check_rank();
	check_spread();
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		n = sizes[si];
		for (kind = 0; kind < 6; kind++) {
			for (i = 0; i < n; i++) {
				switch (kind) {
				case 0: /* uniform */
					s[i] = 1 + 100 * urand();
					break;
				case 1: /* heavy tail: 1 ns .. 100 s */
					s[i] = 1e-3 * pow(10, 11 * urand());
					break;
				case 2: /* many ties */
					s[i] = (double)(rng() % 5);
					break;
				case 3: /* constant */
					s[i] = 2.5;
					break;
				case 4: /* huge outliers */
					s[i] = rng() % 50 ? 1.0 + urand() * 1e-3 : 1e12;
					break;
				default: /* large offset, small spread: cancellation */
					s[i] = 1e9 + urand();
					break;
				}
			}
			snprintf(name, sizeof(name), "kind %d n %zu", kind, n);
			check_set(name, s, n);
		}
	}
	free(s);
	return CHECK_DONE();
}
