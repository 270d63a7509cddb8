/* SPDX-License-Identifier: MIT */
/* ECMP rounds: the plan's rounds again, on new QPs, until every leaf pair's paths are likely hit.
 */
#include <math.h>
#include <stdlib.h>
#include "fabric_ecmp.h"
#include "log.h"

uint64_t gdr_fab_up_paths(const struct gdr_fabric *f, uint32_t sw, uint32_t tier)
{
	uint64_t n = 0;

	if (f->sw[sw].tier >= tier)
		return 1;
	for (uint32_t k = f->adj_start[sw]; k < f->adj_start[sw + 1]; k++) {
		const struct gdr_fab_link *l = &f->link[f->adj[k]];
		uint32_t w = l->node[l->node[0] == sw];

		if (w < f->nsw && f->sw[w].tier > f->sw[sw].tier && f->sw[w].tier <= tier)
			n += gdr_fab_up_paths(f, w, tier);
	}
	return n ? n : 1;
}

uint32_t gdr_fab_turn_tier(const struct gdr_fabric *f, uint32_t a, uint32_t b)
{
	for (uint32_t t = 1; t <= f->tiers; t++)
		if (f->group[t * f->nleaf + a] == f->group[t * f->nleaf + b])
			return t;
	return f->tiers;
}

uint64_t gdr_fab_ecmp_flows(uint64_t paths, double eps)
{
	double need;

	if (paths <= 1 || eps >= (double)paths)
		return 1;
	need = ceil(log(eps / (double)paths) / log1p(-1.0 / (double)paths));
	return need < 1 ? 1 : (uint64_t)need;
}

static int by_key(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* The copies round r needs: each leaf pair's flows over its NIC pairs x qps. */
static uint32_t round_copies(const struct gdr_fabric *f, const struct gdr_fab_plan *p, uint32_t r,
			     unsigned qps, double eps, uint64_t *key,
			     struct gdr_fab_ecmp_info *info)
{
	const struct gdr_fab_round *rd = &p->round[r];
	uint32_t copies = 1;

	for (uint32_t k = 0; k < rd->n; k++) {
		const struct gdr_fab_pair *q = &p->pair[rd->first + k];

		key[k] =
		    (uint64_t)f->sw[f->nic[q->src].sw].leaf << 32 | f->sw[f->nic[q->dst].sw].leaf;
	}
	qsort(key, rd->n, sizeof(*key), by_key);
	for (uint32_t k = 0, e; k < rd->n; k = e) {
		uint32_t a = (uint32_t)(key[k] >> 32), b = (uint32_t)key[k];
		uint64_t paths, flows, m;

		for (e = k + 1; e < rd->n && key[e] == key[k];)
			e++;
		paths = gdr_fab_up_paths(f, f->leaf[a], gdr_fab_turn_tier(f, a, b));
		flows = gdr_fab_ecmp_flows(paths, eps);
		m = (uint64_t)(e - k) * qps;
		if ((flows + m - 1) / m > copies)
			copies = (uint32_t)((flows + m - 1) / m);
		if (paths > info->max_paths) {
			info->max_paths = paths;
			info->flows = flows;
		}
	}
	return copies;
}

int gdr_fab_ecmp(const struct gdr_fabric *f, struct gdr_fab_plan *p, unsigned qps, double eps,
		 struct gdr_fab_ecmp_info *info)
{
	uint32_t base = p->nround, most = 0;
	uint64_t *key;

	*info = (struct gdr_fab_ecmp_info){1, 0, 0};
	if (!qps || !(eps > 0 && eps < 1)) {
		gdr_err("fabric ecmp: %u QPs, eps %g: expected QPs >= 1 and 0 < eps < 1", qps, eps);
		return -1;
	}
	for (uint32_t r = 0; r < base; r++)
		most = p->round[r].n > most ? p->round[r].n : most;
	key = malloc(((size_t)most + 1) * sizeof(*key));
	if (!key) {
		gdr_err("fabric ecmp: out of memory");
		return -1;
	}
	for (uint32_t r = 0; r < base; r++) {
		uint32_t c = round_copies(f, p, r, qps, eps, key, info);

		info->copies = c > info->copies ? c : info->copies;
	}
	free(key);
	for (uint32_t c = 1; c < info->copies; c++)
		for (uint32_t r = 0; r < base; r++) {
			uint32_t first = p->round[r].first, n = p->round[r].n;

			if (gdr_fab_plan_round(p, GDR_FAB_ECMP, p->round[r].tier, r))
				return -1;
			p->round[p->nround - 1].copy = c;
			for (uint32_t k = first; k < first + n; k++)
				if (gdr_fab_plan_add(p, p->pair[k].src, p->pair[k].dst))
					return -1;
		}
	return 0;
}
