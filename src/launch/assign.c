/* SPDX-License-Identifier: MIT */
/*
 * The measured pairing (assign.h): leximin over the pairs' levels as a
 * minimum-cost assignment whose costs are vectors compared lexicographically
 * (the Hungarian method works over any ordered group): a pair at level l costs
 * one in component l, so the lowest level's count is minimized first, then the
 * next; the last component is the pair's topology rank. Ties then go to the
 * GPUs in order, each fixing the first NIC that keeps the optimum.
 */
#include "config.h"
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "assign.h"

#define K_MAX GDR_ASSIGN_MAX
#define D_MAX (K_MAX * K_MAX + 2)
#define BIG   (1LL << 50)

struct ctx {
	const struct gdr_assign_in *in;
	int k, d; /* the square's side (padded), the cost vectors' length */
	int lev[K_MAX * K_MAX];
};

typedef long long vec[D_MAX];

static int cmp(const long long *a, const long long *b, int d)
{
	for (int i = 0; i < d; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* out = cost(i, j) - u - v; padding rows and columns cost nothing. */
static void reduced(const struct ctx *c, int i, int j, const long long *u, const long long *v,
		    long long *out)
{
	const struct gdr_assign_in *in = c->in;

	for (int x = 0; x < c->d; x++)
		out[x] = -u[x] - v[x];
	if (i < in->ngpu && j < in->nnic) {
		out[c->lev[i * in->nnic + j]]++;
		if (in->topo)
			out[c->d - 1] += in->topo[i * in->nnic + j];
	}
}

/*
 * The optimum over the rows and columns not yet fixed (rows[nr], cols[nr]):
 * its total cost into total, each row's column into match[row] (may be NULL).
 */
static void solve(const struct ctx *c, const int *rows, const int *cols, int n, long long *total,
		  int *match)
{
	static vec u[K_MAX + 1], v[K_MAX + 1], minv[K_MAX + 1], cur, delta;
	int p[K_MAX + 1] = {0}, way[K_MAX + 1] = {0};
	int d = c->d;

	memset(u, 0, sizeof(u));
	memset(v, 0, sizeof(v));
	for (int i = 1; i <= n; i++) {
		bool used[K_MAX + 1] = {false};
		int j0 = 0;

		p[0] = i;
		for (int j = 0; j <= n; j++) {
			memset(minv[j], 0, sizeof(minv[j]));
			minv[j][0] = BIG;
		}
		do {
			int i0 = p[j0], j1 = 0;

			used[j0] = true;
			memset(delta, 0, sizeof(delta));
			delta[0] = BIG;
			for (int j = 1; j <= n; j++) {
				if (used[j])
					continue;
				reduced(c, rows[i0 - 1], cols[j - 1], u[i0], v[j], cur);
				if (cmp(cur, minv[j], d) < 0) {
					memcpy(minv[j], cur, sizeof(cur));
					way[j] = j0;
				}
				if (cmp(minv[j], delta, d) < 0) {
					memcpy(delta, minv[j], sizeof(delta));
					j1 = j;
				}
			}
			for (int j = 0; j <= n; j++)
				for (int x = 0; x < d; x++)
					if (used[j]) {
						u[p[j]][x] += delta[x];
						v[j][x] -= delta[x];
					} else {
						minv[j][x] -= delta[x];
					}
			j0 = j1;
		} while (p[j0] != 0);
		do {
			int j1 = way[j0];

			p[j0] = p[j1];
			j0 = j1;
		} while (j0);
	}
	memset(total, 0, sizeof(long long) * (size_t)d);
	for (int j = 1; j <= n; j++) {
		static const long long zero[D_MAX];

		reduced(c, rows[p[j] - 1], cols[j - 1], zero, zero, cur);
		for (int x = 0; x < d; x++)
			total[x] += cur[x];
		if (match)
			match[rows[p[j] - 1]] = cols[j - 1];
	}
}

static int by_bw(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void gdr_assign_levels(const struct gdr_assign_in *in, int *lev, int *nlev)
{
	double v[K_MAX * K_MAX] = {0}, start = 0;
	int n = 0, cells = in->ngpu * in->nnic, l = 0;

	for (int i = 0; i < cells; i++)
		if (in->bw[i] > 0)
			v[n++] = in->bw[i];
	qsort(v, (size_t)n, sizeof(*v), by_bw);
	/* each level's lowest figure; a figure above it by more than tol starts the next */
	double lows[K_MAX * K_MAX] = {0};

	for (int i = 0; i < n; i++)
		if (!l || v[i] > start * (1 + in->tol)) {
			start = v[i];
			lows[l++] = start;
		}
	for (int i = 0; i < cells; i++) {
		lev[i] = 0;
		if (!(in->bw[i] > 0))
			continue;
		for (int k = l - 1; k >= 0; k--)
			if (in->bw[i] >= lows[k]) {
				lev[i] = k + 1;
				break;
			}
	}
	*nlev = l + 1;
}

int gdr_assign(const struct gdr_assign_in *in, int *pair)
{
	static struct ctx c;
	static vec best, t;
	int rows[K_MAX] = {0}, cols[K_MAX] = {0}, match[K_MAX] = {0}, nlev, pairs = 0;
	bool row_done[K_MAX] = {false}, col_done[K_MAX] = {false};

	if (in->ngpu < 1 || in->nnic < 1 || in->ngpu > K_MAX || in->nnic > K_MAX)
		return -1;
	memset(&c, 0, sizeof(c));
	c.in = in;
	c.k = in->ngpu > in->nnic ? in->ngpu : in->nnic;
	gdr_assign_levels(in, c.lev, &nlev);
	c.d = nlev + 1;
	for (int i = 0; i < c.k; i++)
		rows[i] = cols[i] = i;
	solve(&c, rows, cols, c.k, best, match);
	/* the tie rule: GPU by GPU, the first NIC (then padding) whose fixing keeps the optimum */
	for (int g = 0; g < c.k; g++) {
		long long *fixed = best; /* what the pairs fixed so far cost is taken off best */

		for (int cand = 0; cand < c.k; cand++) {
			static vec rest, one;
			static const long long zero[D_MAX];
			int nr = 0, nc = 0;

			if (col_done[cand])
				continue;
			for (int i = 0; i < c.k; i++)
				if (!row_done[i] && i != g)
					rows[nr++] = i;
			for (int j = 0; j < c.k; j++)
				if (!col_done[j] && j != cand)
					cols[nc++] = j;
			solve(&c, rows, cols, nr, rest, NULL);
			reduced(&c, g, cand, zero, zero, one);
			for (int x = 0; x < c.d; x++)
				t[x] = rest[x] + one[x];
			if (cmp(t, fixed, c.d))
				continue;
			/* best becomes what the rows left must cost */
			memcpy(best, rest, sizeof(best));
			row_done[g] = col_done[cand] = true;
			match[g] = cand;
			break;
		}
	}
	for (int g = 0; g < in->ngpu; g++) {
		pair[g] = match[g] < in->nnic ? match[g] : -1;
		pairs += pair[g] >= 0;
	}
	return pairs;
}
