/* SPDX-License-Identifier: MIT */
/*
 * gdr_hist against exact statistics (gdr_stats_compute, itself checked by
 * t_stats) on the same data: min/max equal, mean/stdev to 1e-9, median and
 * percentiles within GDR_HIST_REL_ERR. A sweep over 1 ns .. 100 s checks the
 * bound bucket by bucket and that it is tight. Allocations are counted
 * through ld's --wrap: one at gdr_hist_new, none while adding or computing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#include "check.h"
#define RNG_SEED 0x243f6a8885a308d3ULL
#include "rng.h"

/* ---- allocation counting (linked with -Wl,--wrap=malloc,calloc,realloc) ---- */
static unsigned long nalloc;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
	nalloc++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
	nalloc++;
	return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
	nalloc++;
	return __real_realloc(p, n);
}

static const double qs[] = {0.001, 1, 25, 50, 90, 99, 99.9, 100};
#define NQ ((int)(sizeof(qs) / sizeof(qs[0])))

static int close_rel(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want) * (1 + 1e-12);
}

static void check_set(struct gdr_hist *h, const char *name, const double *s, size_t n)
{
	struct gdr_lat_stats ex, hs;
	double *copy = malloc(n * sizeof(*copy));
	size_t i;
	int k;

	memcpy(copy, s, n * sizeof(*copy));
	if (gdr_stats_compute(copy, n, qs, NQ, &ex)) {
		CHECK(0, "%s: exact stats failed", name);
		free(copy);
		return;
	}
	gdr_hist_reset(h);
	for (i = 0; i < n; i++)
		gdr_hist_add(h, s[i]);
	CHECK(gdr_hist_compute(h, qs, NQ, &hs) == 0, "%s: hist compute failed", name);
	CHECK(hs.n == n, "%s: n", name);
	CHECK(hs.min == ex.min && hs.max == ex.max, "%s: min/max %g %g vs %g %g", name, hs.min,
	      hs.max, ex.min, ex.max);
	CHECK(fabs(hs.avg - ex.avg) <= 1e-9 * fabs(ex.avg), "%s: avg %.17g vs %.17g", name, hs.avg,
	      ex.avg);
	CHECK(fabs(hs.stdev - ex.stdev) <= 1e-9 * ex.stdev + 1e-12 * fabs(ex.avg),
	      "%s: stdev %.17g vs %.17g", name, hs.stdev, ex.stdev);
	CHECK(close_rel(hs.median, ex.median, GDR_HIST_REL_ERR), "%s: median %.17g vs %.17g", name,
	      hs.median, ex.median);
	CHECK(hs.npct == NQ, "%s: npct", name);
	for (k = 0; k < NQ; k++)
		CHECK(hs.pct_q[k] == qs[k] && close_rel(hs.pct_v[k], ex.pct_v[k], GDR_HIST_REL_ERR),
		      "%s: p%g %.17g vs %.17g", name, qs[k], hs.pct_v[k], ex.pct_v[k]);
	free(copy);
}

/* Median of {lo, x, hi} is x's bucket value: check the bound for every x. */
static double sweep_one(struct gdr_hist *h, double x)
{
	struct gdr_lat_stats st;
	double q = 50, err;

	gdr_hist_reset(h);
	gdr_hist_add(h, 1e-4);
	gdr_hist_add(h, x);
	gdr_hist_add(h, 1e9);
	gdr_hist_compute(h, &q, 1, &st);
	err = fabs(st.median - x) / x;
	CHECK(err <= GDR_HIST_REL_ERR, "x=%.17g: bucket value %.17g, rel err %g > %g", x, st.median,
	      err, GDR_HIST_REL_ERR);
	CHECK(st.pct_v[0] == st.median, "x=%.17g: p50 != median", x);
	return err;
}

static void check_sweep(struct gdr_hist *h)
{
	double worst = 0, x, e;
	int i, ex, j;

	for (i = 0; i <= 200000; i++) { /* 1 ns .. 100 s, geometric */
		e = sweep_one(h, 1e-3 * pow(10, 11.0 * i / 200000));
		worst = e > worst ? e : worst;
	}
	for (ex = -10; ex <= 26; ex++) { /* every bucket edge of 1 ns .. 100 s, both sides */
		for (j = 0; j < 256; j++) {
			x = ldexp(1.0 + j / 256.0, ex);
			e = sweep_one(h, x);
			worst = e > worst ? e : worst;
			e = sweep_one(h, nextafter(x, 0));
			worst = e > worst ? e : worst;
		}
	}
	/* the documented bound must also be tight (reached at octave starts) */
	CHECK(worst > 0.99 * GDR_HIST_REL_ERR, "worst rel err %g, bound %g is not tight", worst,
	      GDR_HIST_REL_ERR);
	printf("t_hist: sweep worst relative error %.6g (bound %.6g)\n", worst, GDR_HIST_REL_ERR);
}

static void check_memory(void)
{
	struct gdr_lat_stats st;
	struct gdr_hist *h;
	unsigned long before;
	uint64_t i;

	before = nalloc;
	h = gdr_hist_new();
	CHECK(h && nalloc - before == 1, "gdr_hist_new made %lu allocations", nalloc - before);
	before = nalloc;
	for (i = 0; i < 5000000; i++)
		gdr_hist_add(h, 0.5 + (double)(i % 100000) * 1e-2);
	CHECK(gdr_hist_compute(h, qs, NQ, &st) == 0 && st.n == 5000000, "5M samples");
	gdr_hist_reset(h);
	CHECK(nalloc == before, "%lu allocations while adding 5M samples", nalloc - before);
	CHECK(gdr_hist_compute(h, qs, NQ, &st) == -1, "compute on an empty (reset) hist accepted");
	gdr_hist_add(h, 3.0);
	CHECK(gdr_hist_compute(h, qs, NQ, &st) == 0 && st.n == 1 && st.min == 3 && st.max == 3 &&
		  st.median == 3 && st.stdev == 0,
	      "after reset: n %llu min %g max %g median %g", (unsigned long long)st.n, st.min,
	      st.max, st.median);
	CHECK(gdr_hist_compute(h, qs, GDR_STATS_MAX_Q + 1, &st) == -1,
	      "too many percentiles accepted");
	gdr_hist_free(h);
}

int main(void)
{
	static const size_t sizes[] = {1, 2, 3, 10, 1000, 100001};
	struct gdr_hist *h = gdr_hist_new();
	double *s = malloc(100001 * sizeof(*s));
	char name[64];
	size_t si, i, n;
	int kind;

	if (!h || !s) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	check_memory();
	check_sweep(h);
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		n = sizes[si];
		for (kind = 0; kind < 6; kind++) {
			for (i = 0; i < n; i++) {
				switch (kind) {
				case 0: /* heavy tail, 1 ns .. 100 s */
					s[i] = 1e-3 * pow(10, 11 * urand());
					break;
				case 1: /* typical latency, rare outliers */
					s[i] = rng() % 1000 ? 1.5 + urand() : 5000 * (1 + urand());
					break;
				case 2: /* ties, some zero (below the range) */
					s[i] = (double)(rng() % 4);
					break;
				case 3: /* values 1% apart: the rank decides the bucket */
					s[i] = pow(1.01, (double)(rng() % 2000)) * 1e-2;
					break;
				case 4: /* large offset, small spread */
					s[i] = 1e6 + urand();
					break;
				default: /* constant */
					s[i] = 7.25;
					break;
				}
			}
			snprintf(name, sizeof(name), "kind %d n %zu", kind, n);
			check_set(h, name, s, n);
		}
	}
	gdr_hist_free(h);
	free(s);
	return CHECK_DONE();
}
