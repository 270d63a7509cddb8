/* SPDX-License-Identifier: MIT */
/* The links between a PCI device and its root port (see pcie_path.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pcie_path.h"
#include "pcilink.h"

/* A bridge's link at the assumed MPS, B/s; 0 when not readable. */
static double bridge_Bps(const char *sysroot, const char *bdf, struct pcie_link *l)
{
	if (pcie_link_read(sysroot, bdf, l))
		return 0;
	return pcie_payload_Bps(l->gts, l->width, 0);
}

void pcie_narrowest(const char *sysroot, const struct topo_loc *loc, int from, int to,
		    struct pcie_hop *h)
{
	double best = 0;

	memset(h, 0, sizeof(*h));
	for (int i = from < 0 ? 0 : from; i < to && i < loc->depth; i++) {
		struct pcie_link l;
		double r = bridge_Bps(sysroot, loc->bridge[i], &l);

		if (r > 0 && (!(best > 0) || r < best)) {
			best = r;
			h->gts = l.gts;
			h->width = l.width;
			snprintf(h->at, sizeof(h->at), "%s", loc->bridge[i]);
		}
	}
}

struct shared {
	const char *sysroot;
	const struct topo_loc *loc;
	const double *each;
	char *at;
	size_t atn;
	double cut; /* the most a bridge took off so far */
};

/* Devices idx[m], which share bridges [0, level): what they move together. */
static double agg(struct shared *s, const int *idx, int m, int level)
{
	int *grp = malloc(sizeof(*grp) * (size_t)(m ? m : 1));
	char *done = calloc((size_t)(m ? m : 1), 1);
	double sum = 0;

	if (!grp || !done) {
		free(grp);
		free(done);
		for (int i = 0; i < m; i++)
			sum += s->each[idx[i]];
		return sum;
	}
	for (int i = 0; i < m; i++) {
		const struct topo_loc *a = &s->loc[idx[i]];
		int g = 0;
		double part;

		if (done[i])
			continue;
		done[i] = 1;
		if (a->depth <= level) { /* right below the shared bridges */
			sum += s->each[idx[i]];
			continue;
		}
		grp[g++] = idx[i];
		for (int j = i + 1; j < m; j++) {
			const struct topo_loc *b = &s->loc[idx[j]];

			if (!done[j] && b->depth > level &&
			    !strcmp(a->bridge[level], b->bridge[level])) {
				done[j] = 1;
				grp[g++] = idx[j];
			}
		}
		part = g == 1 ? s->each[grp[0]] : agg(s, grp, g, level + 1);
		if (g > 1) { /* a bridge above several: no more than its link */
			struct pcie_link l;
			double r = bridge_Bps(s->sysroot, a->bridge[level], &l);

			if (r > 0 && r < part) {
				if (part - r > s->cut) {
					s->cut = part - r;
					snprintf(s->at, s->atn, "%s", a->bridge[level]);
				}
				part = r;
			}
		}
		sum += part;
	}
	free(grp);
	free(done);
	return sum;
}

double pcie_shared_sum(const char *sysroot, const char *const *bdf, const double *each, int n,
		       char *at, size_t atn)
{
	struct topo_loc *loc = calloc((size_t)(n > 0 ? n : 1), sizeof(*loc));
	int *idx = calloc((size_t)(n > 0 ? n : 1), sizeof(*idx));
	struct shared s = {sysroot, loc, each, at, atn, 0};
	double sum = 0;

	if (atn)
		at[0] = '\0';
	if (!loc || !idx) {
		for (int i = 0; i < n; i++)
			sum += each[i];
		free(loc);
		free(idx);
		return sum;
	}
	/* by root complex: devices that cannot be placed, or alone on theirs, add up */
	for (int i = 0; i < n; i++)
		if (topo_locate(sysroot, bdf[i], &loc[i]))
			loc[i].rc[0] = '\0';
	for (int i = 0; i < n; i++) {
		int m = 0;

		if (!loc[i].rc[0]) {
			if (loc[i].depth >= 0)
				sum += each[i];
			loc[i].depth = -1; /* counted */
			continue;
		}
		if (loc[i].depth < 0)
			continue;
		for (int j = i; j < n; j++)
			if (loc[j].depth >= 0 && loc[j].rc[0] && !strcmp(loc[j].rc, loc[i].rc))
				idx[m++] = j;
		sum += agg(&s, idx, m, 0);
		for (int k = 0; k < m; k++)
			loc[idx[k]].depth = -1;
	}
	free(loc);
	free(idx);
	return sum;
}
