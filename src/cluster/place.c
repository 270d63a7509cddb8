/* SPDX-License-Identifier: MIT */
/* Placement to units: hosts with their ranks by rail, or every rank its own unit. */
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "log.h"

void gdr_place_rails(struct gdr_place *pl, int nranks)
{
	for (int i = 0; i < nranks; i++) {
		pl[i].rail = 0;
		for (int j = 0; j < i; j++)
			pl[i].rail += !strcmp(pl[j].host, pl[i].host);
	}
}

int gdr_units_build(struct gdr_units *u, const struct gdr_place *pl, int nranks, bool by_rank)
{
	unsigned k = 0;

	memset(u, 0, sizeof(*u));
	u->by_rank = by_rank;
	u->start = calloc((size_t)nranks + 1, sizeof(*u->start));
	u->rank = calloc((size_t)nranks, sizeof(*u->rank));
	if (!u->start || !u->rank) {
		gdr_units_free(u);
		gdr_err("out of memory placing %d ranks", nranks);
		return -1;
	}
	for (int i = 0; i < nranks; i++) {
		if (!by_rank && pl[i].rail)
			continue; /* not the first rank of its host: taken with it */
		u->start[u->n++] = k;
		u->rank[k++] = i;
		for (int j = i + 1; j < nranks && !by_rank; j++)
			if (!strcmp(pl[j].host, pl[i].host))
				u->rank[k++] = j; /* ascending rank = ascending rail */
	}
	u->start[u->n] = k;
	return 0;
}

void gdr_units_free(struct gdr_units *u)
{
	free(u->start);
	free(u->rank);
	memset(u, 0, sizeof(*u));
}

size_t gdr_units_pairs(const struct gdr_units *u, unsigned x, unsigned y, int (*out)[2])
{
	unsigned nx = u->start[x + 1] - u->start[x], ny = u->start[y + 1] - u->start[y];
	unsigned m = nx > ny ? nx : ny;
	size_t k = 0;

	for (unsigned i = 0; i < m; i++) {
		int a = i < nx ? u->rank[u->start[x] + i] : -1;
		int b = i < ny ? u->rank[u->start[y] + i] : -1;

		out[k][0] = a >= 0 ? a : b;
		out[k][1] = a >= 0 ? b : -1;
		k++;
	}
	return k;
}

size_t gdr_units_max_pairs(const struct gdr_units *u)
{
	size_t m = 1;

	for (unsigned i = 0; i < u->n; i++)
		if (u->start[i + 1] - u->start[i] > m)
			m = u->start[i + 1] - u->start[i];
	return m;
}

void gdr_cm_addrs(const struct gdr_place *pl, int a, int me, const char **listen, const char **dst,
		  const char **src)
{
	bool server = me == a;

	*listen = server ? pl[me].ip : NULL;
	*dst = server ? NULL : pl[a].ip;
	*src = server ? NULL : pl[me].ip;
}
