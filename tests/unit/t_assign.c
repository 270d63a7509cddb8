/* SPDX-License-Identifier: MIT */
/*
 * The measured pairing (launch/assign.h) on hand-checked matrices: the
 * topologically near NIC that measures slow, the slowest pair maximized before
 * the rest, leximin beyond the slowest pair, ties broken by topology and then by
 * order (k-th with k-th), the tolerance, unmeasured cells, non-square matrices
 * both ways; then random matrices against a brute force over every assignment.
 */
#include "config.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "assign.h"
#include "check.h"
#include "rng.h"

static int run(int g, int n, const double *bw, const int *topo, double tol, int *pair)
{
	struct gdr_assign_in in = {g, n, bw, topo, tol};

	return gdr_assign(&in, pair);
}

#define SAME(p, ...)                                                                               \
	same(p, (const int[]){__VA_ARGS__}, (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)))

static int same(const int *p, const int *want, int n)
{
	for (int i = 0; i < n; i++)
		if (p[i] != want[i])
			return 0;
	return 1;
}

static void hand(void)
{
	int p[GDR_ASSIGN_MAX];

	/* 1 GPU, 2 NICs: the PIX NIC measures a third of the SYS one: the measurement wins */
	CHECK(run(1, 2, (double[]){0.4, 1.2}, (int[]){1, 5}, 0.05, p) == 1 && SAME(p, 1));
	/* the topology says the anti-diagonal, the measurement the diagonal */
	CHECK(run(2, 2, (double[]){20, 10, 10, 20}, (int[]){4, 1, 1, 4}, 0.05, p) == 2 &&
	      SAME(p, 0, 1));
	/* the slowest pair maximized: diagonal's slowest 1, the other's 7 */
	CHECK(run(2, 2, (double[]){9, 8, 7, 1}, NULL, 0.05, p) == 2 && SAME(p, 1, 0));
	/* leximin: GPU 2 caps the slowest at 5 either way; GPUs 0 and 1 still get their
	 * fast NICs (20, 20), not the near ones (10, 10) */
	CHECK(run(3, 3, (double[]){20, 10, 1, 10, 20, 1, 1, 1, 5},
		  (int[]){4, 1, 5, 1, 4, 5, 5, 5, 1}, 0.05, p) == 3 &&
	      SAME(p, 0, 1, 2));
	/* all equal, topology equal: k-th GPU with the k-th NIC */
	CHECK(run(2, 2, (double[]){5, 5, 5, 5}, (int[]){1, 1, 1, 1}, 0.05, p) == 2 &&
	      SAME(p, 0, 1));
	/* all equal: the topology breaks the tie */
	CHECK(run(2, 2, (double[]){5, 5, 5, 5}, (int[]){4, 1, 1, 4}, 0.05, p) == 2 &&
	      SAME(p, 1, 0));
	/* within the tolerance the figures tie and the topology decides ... */
	CHECK(run(2, 2, (double[]){10.3, 10, 10, 10.2}, (int[]){4, 1, 1, 4}, 0.05, p) == 2 &&
	      SAME(p, 1, 0));
	/* ... outside it the measurement does */
	CHECK(run(2, 2, (double[]){10.3, 10, 10, 10.2}, (int[]){4, 1, 1, 4}, 0.001, p) == 2 &&
	      SAME(p, 0, 1));
	/* a cell that did not run (0, NaN) is the worst there is */
	CHECK(run(2, 2, (double[]){0, 5, 5, 5}, NULL, 0.05, p) == 2 && SAME(p, 1, 0));
	CHECK(run(2, 2, (double[]){5, 5, 5, 0.0 / 0.0}, NULL, 0.05, p) == 2 && SAME(p, 1, 0));
	/* more GPUs than NICs: the first GPUs of a tie are paired, the last left out */
	CHECK(run(3, 2, (double[]){10, 10, 10, 10, 10, 10}, NULL, 0.05, p) == 2 &&
	      SAME(p, 0, 1, -1));
	/* ... unless the measurement says otherwise: GPU 0 is slow everywhere */
	CHECK(run(3, 2, (double[]){1, 1, 10, 10, 10, 10}, NULL, 0.05, p) == 2 && SAME(p, -1, 0, 1));
	/* more NICs than GPUs: NIC 0 is slow; the two GPUs take NICs 1 and 2 in order */
	CHECK(run(2, 3, (double[]){5, 9, 9, 5, 9, 9}, NULL, 0.05, p) == 2 && SAME(p, 1, 2));
	/* out of range */
	CHECK(run(0, 2, (double[]){1, 1}, NULL, 0.05, p) == -1);
	CHECK(run(GDR_ASSIGN_MAX + 1, 1, (double[GDR_ASSIGN_MAX + 1]){0}, NULL, 0.05, p) == -1);
}

/* Brute force: every injective map of the padded square, the same order of preference. */
static int bk, bg, bn, perm[GDR_ASSIGN_MAX], bestp[GDR_ASSIGN_MAX];
static long long bestv[GDR_ASSIGN_MAX * GDR_ASSIGN_MAX + 2];
static const int *blev;
static const int *btopo;
static int bd;
static bool have;

static void leaf(void)
{
	long long v[GDR_ASSIGN_MAX * GDR_ASSIGN_MAX + 2] = {0};
	int c = 0;

	for (int g = 0; g < bg; g++)
		if (perm[g] < bn) {
			v[blev[g * bn + perm[g]]]++;
			v[bd - 1] += btopo[g * bn + perm[g]];
		}
	if (have)
		for (c = 0; c < bd && v[c] == bestv[c]; c++)
			;
	if (!have || (c < bd && v[c] < bestv[c])) { /* strictly better; ties keep the first */
		memcpy(bestv, v, sizeof(v));
		memcpy(bestp, perm, sizeof(perm));
		have = true;
	}
}

static void walk(int g, unsigned used)
{
	if (g == bk) {
		leaf();
		return;
	}
	for (int j = 0; j < bk; j++)
		if (!(used & (1u << j))) {
			perm[g] = j;
			walk(g + 1, used | (1u << j));
		}
}

static void random_vs_brute(void)
{
	int bad = 0;

	for (int t = 0; t < 300; t++) {
		int g = 1 + (int)(rng() % 5), n = 1 + (int)(rng() % 5);
		double bw[25];
		int topo[25], lev[25], nlev, p[5], pairs = 0;
		struct gdr_assign_in in = {g, n, bw, topo, 0.05};

		for (int i = 0; i < g * n; i++) {
			bw[i] = (double)(rng() % 4) * 10; /* few levels: many ties; 0 too */
			topo[i] = (int)(rng() % 3);
		}
		gdr_assign_levels(&in, lev, &nlev);
		bk = g > n ? g : n;
		bg = g;
		bn = n;
		blev = lev;
		btopo = topo;
		bd = nlev + 1;
		have = false;
		walk(0, 0);
		for (int i = 0; i < g; i++)
			pairs += bestp[i] < n;
		if (gdr_assign(&in, p) != pairs)
			bad++;
		else
			for (int i = 0; i < g; i++)
				if (p[i] != (bestp[i] < n ? bestp[i] : -1)) {
					bad++;
					break;
				}
	}
	CHECK(!bad, "%d of 300 random matrices differ from the brute force", bad);
}

static void levels(void)
{
	int lev[4], nlev;
	struct gdr_assign_in in = {2, 2, (double[]){10, 10.4, 11, 0}, NULL, 0.05};

	gdr_assign_levels(&in, lev, &nlev);
	/* 10 and 10.4 one level (within 5% of 10), 11 the next, 0 not measured */
	CHECK(nlev == 3 && lev[0] == 1 && lev[1] == 1 && lev[2] == 2 && lev[3] == 0);
}

int main(void)
{
	hand();
	levels();
	random_vs_brute();
	return CHECK_DONE();
}
