/* SPDX-License-Identifier: MIT */
/*
 * Unit test: cluster schedules. The checks do not reuse the circle formula:
 * they count, over the built rounds, how often each pair meets and how often
 * each unit appears in a round.
 */
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "schedule.h"

#include "check.h"

/* No unit twice in a round, pairs well formed; fills meet[a*n+b] counts. */
static void walk(const struct gdr_sched *s, unsigned n, unsigned *meet, unsigned *byes)
{
	unsigned char *seen = malloc(n ? n : 1);

	for (unsigned r = 0; r < s->nrounds; r++) {
		memset(seen, 0, n);
		CHECK(s->start[r] <= s->start[r + 1], "n=%u round %u", n, r);
		for (unsigned k = s->start[r]; k < s->start[r + 1]; k++) {
			unsigned a = s->pair[k][0], b = s->pair[k][1];

			CHECK(a < b && b < n, "n=%u round %u pair %u-%u", n, r, a, b);
			if (!(a < b && b < n))
				continue;
			CHECK(!seen[a] && !seen[b], "n=%u round %u: unit in two pairs", n, r);
			seen[a] = seen[b] = 1;
			meet[a * n + b]++;
		}
		for (unsigned u = 0; u < n && byes; u++)
			byes[u] += !seen[u];
	}
	CHECK(s->start[s->nrounds] == s->npairs, "n=%u", n);
	free(seen);
}

static void pairwise(unsigned n)
{
	struct gdr_pattern p = {GDR_PAT_PAIRWISE, 0};
	struct gdr_sched s;
	unsigned *meet = calloc((size_t)n * n + 1, sizeof(*meet));
	unsigned *byes = calloc(n + 1, sizeof(*byes));

	CHECK(gdr_sched_build(&p, n, &s) == 0, "n=%u", n);
	walk(&s, n, meet, byes);
	CHECK(s.nrounds == (n < 2 ? 0 : n % 2 ? n : n - 1), "n=%u: %u rounds", n, s.nrounds);
	for (unsigned a = 0; a < n; a++) {
		for (unsigned b = a + 1; b < n; b++)
			CHECK(meet[a * n + b] == 1, "n=%u: %u-%u met %u times", n, a, b,
			      meet[a * n + b]);
		/* odd n: one bye per unit; even n: none */
		CHECK(byes[a] == (n >= 2 && n % 2 ? 1u : 0u), "n=%u: unit %u had %u byes", n, a,
		      byes[a]);
	}
	CHECK(s.npairs == n * (n - (n > 0)) / 2, "n=%u: %u pairs", n, s.npairs);
	gdr_sched_free(&s);
	free(meet);
	free(byes);
}

static void quick(unsigned n)
{
	struct gdr_pattern p = {GDR_PAT_QUICK, 0};
	struct gdr_sched s;
	unsigned *meet = calloc((size_t)n * n + 1, sizeof(*meet));

	CHECK(gdr_sched_build(&p, n, &s) == 0);
	walk(&s, n, meet, NULL);
	CHECK(s.nrounds == (n >= 2), "quick n=%u: %u rounds", n, s.nrounds);
	CHECK(s.npairs == n / 2, "quick n=%u: %u pairs", n, s.npairs);
	for (unsigned k = 0; k < s.npairs; k++)
		CHECK(s.pair[k][0] < n / 2 && s.pair[k][1] >= n / 2,
		      "quick n=%u: pair inside a half", n);
	gdr_sched_free(&s);
	free(meet);
}

static void shift(unsigned n, unsigned k)
{
	struct gdr_pattern p = {GDR_PAT_SHIFT, k};
	struct gdr_sched s;
	unsigned *meet = calloc((size_t)n * n + 1, sizeof(*meet));

	CHECK(gdr_sched_build(&p, n, &s) == 0, "shift n=%u k=%u", n, k);
	walk(&s, n, meet, NULL);
	CHECK(s.nrounds <= 3, "shift n=%u k=%u: %u rounds", n, k, s.nrounds);
	for (unsigned i = 0; i < n; i++) {
		unsigned j = (i + k) % n, a = i < j ? i : j, b = i < j ? j : i;

		CHECK(meet[a * n + b] == 1, "shift n=%u k=%u: %u-%u met %u times", n, k, a, b,
		      meet[a * n + b]);
	}
	for (unsigned a = 0; a < n; a++)
		for (unsigned b = a + 1; b < n; b++)
			CHECK(meet[a * n + b] == 0 || (b - a) % n == k % n ||
				  (a + n - b) % n == k % n,
			      "shift n=%u k=%u: stray pair %u-%u", n, k, a, b);
	gdr_sched_free(&s);
	free(meet);
}

static void parse(void)
{
	struct gdr_pattern p;
	char buf[32];

	CHECK(gdr_pattern_parse("pairwise", &p) == 0 && p.kind == GDR_PAT_PAIRWISE);
	CHECK(gdr_pattern_parse(NULL, &p) == 0 && p.kind == GDR_PAT_PAIRWISE);
	CHECK(gdr_pattern_parse("quick", &p) == 0 && p.kind == GDR_PAT_QUICK);
	CHECK(gdr_pattern_parse("shift=3", &p) == 0 && p.kind == GDR_PAT_SHIFT && p.shift == 3);
	CHECK(!strcmp(gdr_pattern_name(&p, buf, sizeof(buf)), "shift=3"));
	CHECK(gdr_pattern_parse("shift=0", &p) == -1);
	CHECK(gdr_pattern_parse("shift=", &p) == -1);
	CHECK(gdr_pattern_parse("shift=-2", &p) == -1);
	CHECK(gdr_pattern_parse("shift=2x", &p) == -1);
	CHECK(gdr_pattern_parse("ring", &p) == -1);
}

int main(void)
{
	struct gdr_pattern p = {GDR_PAT_SHIFT, 4};
	struct gdr_sched s;

	parse();
	for (unsigned n = 0; n <= 41; n++) {
		pairwise(n);
		quick(n);
		for (unsigned k = 1; k < n; k++)
			shift(n, k);
	}
	pairwise(1000);
	CHECK(gdr_sched_build(&p, 4, &s) == -1, "shift=4 of 4 units accepted");
	return CHECK_DONE();
}
