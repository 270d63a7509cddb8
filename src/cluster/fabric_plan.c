/* SPDX-License-Identifier: MIT */
/*
 * Planning rounds that load every cable both ways. Per plane, from its top
 * tier down: the pods under one switch tier form a ring inside the pod above
 * them, and the k-th NIC of the j-th leaf of a pod sends to the k-th NIC of
 * the j-th leaf of the next pod. Split into two rounds (three for an odd
 * ring) so that no NIC is in two pairs of a round: every leaf sends once and
 * receives once, so under destination-spread routing each of its uplinks
 * carries data both ways. A lower tier's ring is added only while some cable
 * of the plane has no load; fix-up rounds then pair NICs for any cable left
 * (uneven leaves, odd cabling).
 */
#include <stdlib.h>
#include <string.h>
#include "fabric_plan.h"
#include "log.h"

#define FIXUP_ROUNDS 64
#define FIXUP_TRIES  512

void gdr_fab_plan_free(struct gdr_fab_plan *p)
{
	free(p->round);
	free(p->pair);
	memset(p, 0, sizeof(*p));
}

int gdr_fab_plan_round(struct gdr_fab_plan *p, enum gdr_fab_round_kind kind, uint32_t tier,
		       uint32_t part)
{
	if (p->nround == p->cap_round) {
		uint32_t c = p->cap_round ? p->cap_round * 2 : 16;
		void *q = realloc(p->round, c * sizeof(*p->round));

		if (!q) {
			gdr_err("fabric plan: out of memory");
			return -1;
		}
		p->round = q;
		p->cap_round = c;
	}
	p->round[p->nround++] = (struct gdr_fab_round){p->npair, 0, kind, tier, part, 0};
	return 0;
}

int gdr_fab_plan_add(struct gdr_fab_plan *p, uint32_t src, uint32_t dst)
{
	if (p->npair == p->cap_pair) {
		uint32_t c = p->cap_pair ? p->cap_pair * 2 : 1024;
		void *q = realloc(p->pair, (size_t)c * sizeof(*p->pair));

		if (!q) {
			gdr_err("fabric plan: out of memory");
			return -1;
		}
		p->pair = q;
		p->cap_pair = c;
	}
	p->pair[p->npair++] = (struct gdr_fab_pair){src, dst};
	p->round[p->nround - 1].n++;
	return 0;
}

static void cover_pair(const struct gdr_fabric *f, uint32_t a, uint32_t b, uint32_t *cover,
		       uint32_t *hop)
{
	unsigned n = gdr_fab_route(f, a, b, hop);

	for (unsigned k = 0; k < n; k++)
		cover[hop[k]]++;
}

void gdr_fab_cover(const struct gdr_fabric *f, const struct gdr_fab_plan *p, uint32_t *cover)
{
	uint32_t hop[2 * 64 + 2];

	for (uint32_t k = 0; k < p->npair && f->tiers <= 64; k++)
		cover_pair(f, p->pair[k].src, p->pair[k].dst, cover, hop);
}

/* The plane a directed cable belongs to: its switch end's. */
static uint32_t link_plane(const struct gdr_fabric *f, uint32_t l)
{
	uint32_t v = f->link[l].node[0] < f->nsw ? f->link[l].node[0] : f->link[l].node[1];

	return f->sw[v].plane;
}

struct planner {
	const struct gdr_fabric *f;
	struct gdr_fab_plan *p;
	uint32_t *cover, *ptop, *open; /* per plane: top tier, directed cables without load */
	uint32_t *hop;
};

/* Units of a ring at tier t: t >= 2 the runs of leaves of one pod at t-1 inside [lo, hi);
 * t = 1 the NICs of one leaf. Pairs unit g's k-th member with unit g+1's. */
static uint32_t unit_len(const struct gdr_fabric *f, uint32_t t, uint32_t at, uint32_t hi)
{
	uint32_t e = at + 1;

	while (e < hi && f->group[(t - 1) * f->nleaf + e] == f->group[(t - 1) * f->nleaf + at])
		e++;
	return e - at;
}

/* Leaf j of unit (a, na) sends its NICs to leaf j of unit (b, nb), NIC k to NIC k. */
static int pair_units(struct planner *pl, uint32_t a, uint32_t na, uint32_t b, uint32_t nb)
{
	const struct gdr_fabric *f = pl->f;

	for (uint32_t j = 0; j < na && j < nb; j++) {
		uint32_t s = a + j, d = b + j;
		uint32_t ns = f->leaf_start[s + 1] - f->leaf_start[s];
		uint32_t nd = f->leaf_start[d + 1] - f->leaf_start[d];

		for (uint32_t k = 0; k < ns && k < nd; k++)
			if (gdr_fab_plan_add(pl->p, f->leaf_nics[f->leaf_start[s] + k],
					     f->leaf_nics[f->leaf_start[d] + k]))
				return -1;
	}
	return 0;
}

/* Ring part `part` (edges g -> g+1 of that parity; odd rings: the closing edge alone in
 * part 2) of the pod [lo, hi) at tier t >= 2. */
static int ring_pod(struct planner *pl, uint32_t t, uint32_t lo, uint32_t hi, uint32_t part)
{
	uint32_t m = 0, g = 0, a, na;

	for (a = lo; a < hi; a += unit_len(pl->f, t, a, hi))
		m++;
	if (m < 2)
		return 0;
	for (a = lo; a < hi; a += na, g++) {
		uint32_t want = m % 2 && g == m - 1 ? 2 : g % 2,
			 b = a + (na = unit_len(pl->f, t, a, hi));

		if (b == hi)
			b = lo;
		if (want == part && pair_units(pl, a, na, b, unit_len(pl->f, t, b, hi)))
			return -1;
	}
	return 0;
}

/* Tier 1 (a plane of one switch): the leaf's NICs in a ring. */
static int ring_leaf(struct planner *pl, uint32_t leaf, uint32_t part)
{
	const struct gdr_fabric *f = pl->f;
	uint32_t m = f->leaf_start[leaf + 1] - f->leaf_start[leaf],
		 *v = f->leaf_nics + f->leaf_start[leaf];

	for (uint32_t g = 0; g < m && m >= 2; g++) {
		uint32_t want = m % 2 && g == m - 1 ? 2 : g % 2;

		if (want == part && gdr_fab_plan_add(pl->p, v[g], v[(g + 1) % m]))
			return -1;
	}
	return 0;
}

static void count_open(struct planner *pl)
{
	const struct gdr_fabric *f = pl->f;

	memset(pl->open, 0, f->nplane * sizeof(uint32_t));
	for (uint32_t d = 0; d < 2 * f->nlink; d++)
		if (!pl->cover[d])
			pl->open[link_plane(f, d / 2)]++;
}

/*
 * gcc 12's -fanalyzer reports p->round as leaked once gdr_fab_plan_round's realloc
 * has moved it: it loses the block stored through pl->p (freed by gdr_fab_plan_free).
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
/* Step s: every plane still with open cables rings its pods at tier ptop - s. */
static int step(struct planner *pl, uint32_t s)
{
	const struct gdr_fabric *f = pl->f;
	struct gdr_fab_plan *p = pl->p;
	uint32_t pair0 = p->npair;

	for (uint32_t part = 0; part < 3; part++) {
		uint32_t t_max = 0;

		if (gdr_fab_plan_round(p, GDR_FAB_SHIFT, 0, part))
			return -1;
		for (uint32_t lo = 0, hi; lo < f->nleaf; lo = hi) {
			uint32_t pl_ = f->sw[f->leaf[lo]].plane, t;

			for (hi = lo + 1; hi < f->nleaf && f->sw[f->leaf[hi]].plane == pl_; hi++)
				;
			if (!pl->open[pl_] || pl->ptop[pl_] <= s || (s && pl->ptop[pl_] - s == 1))
				continue; /* tier 1 rings: planes of one switch only */
			t = pl->ptop[pl_] - s;
			t_max = t > t_max ? t : t_max;
			for (uint32_t a = lo, b; a < hi; a = b) {
				if (t == 1) {
					b = a + 1;
					if (ring_leaf(pl, a, part))
						return -1;
					continue;
				}
				for (b = a + 1; b < hi && f->group[t * f->nleaf + b] ==
							      f->group[t * f->nleaf + a];
				     b++)
					;
				if (ring_pod(pl, t, a, b, part))
					return -1;
			}
		}
		p->round[p->nround - 1].tier = t_max;
		if (!p->round[p->nround - 1].n)
			p->nround--;
	}
	for (uint32_t k = pair0; k < p->npair; k++)
		cover_pair(f, p->pair[k].src, p->pair[k].dst, pl->cover, pl->hop);
	return 0;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

/* Does the route from a to b load directed cable d? */
static int loads(struct planner *pl, uint32_t a, uint32_t b, uint32_t d)
{
	unsigned n = a == b ? 0 : gdr_fab_route(pl->f, a, b, pl->hop);

	for (unsigned k = 0; k < n; k++)
		if (pl->hop[k] == d)
			return 1;
	return 0;
}

/* A NIC on the side of leaves inside (or outside) lo's reach, in plane pn; pseudo-random. */
static uint32_t pick_nic(const struct gdr_fabric *f, uint32_t pn, uint32_t lo, int inside,
			 uint64_t *seed)
{
	for (int tries = 0; tries < 64; tries++) {
		uint32_t leaf, n;

		*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
		leaf = (uint32_t)((*seed >> 33) % f->nleaf);
		n = f->leaf_start[leaf + 1] - f->leaf_start[leaf];
		if (!n || f->sw[f->leaf[leaf]].plane != pn)
			continue;
		if (lo != GDR_FAB_NONE && gdr_fab_below(f, lo, leaf) != inside)
			continue;
		return f->leaf_nics[f->leaf_start[leaf] + (uint32_t)(*seed >> 13) % n];
	}
	return GDR_FAB_NONE;
}

/* A pair loading directed cable d, or {NONE, NONE}. */
static struct gdr_fab_pair find_pair(struct planner *pl, uint32_t d, uint64_t *seed)
{
	const struct gdr_fabric *f = pl->f;
	const struct gdr_fab_link *l = &f->link[d / 2];
	uint32_t x = l->node[d % 2], y = l->node[!(d % 2)], pn = link_plane(f, d / 2);
	struct gdr_fab_pair none = {GDR_FAB_NONE, GDR_FAB_NONE};

	for (int i = 0; i < FIXUP_TRIES; i++) {
		uint32_t a, b;

		if (x >= f->nsw) { /* from a NIC: it sends to anyone */
			a = x - f->nsw;
			b = pick_nic(f, pn, GDR_FAB_NONE, 0, seed);
		} else if (y >= f->nsw) {
			b = y - f->nsw;
			a = pick_nic(f, pn, GDR_FAB_NONE, 0, seed);
		} else {
			uint32_t lo = f->sw[x].tier < f->sw[y].tier ? x : y;

			a = pick_nic(f, pn, lo, lo == x, seed);
			b = pick_nic(f, pn, lo, lo != x, seed);
		}
		if (a != GDR_FAB_NONE && b != GDR_FAB_NONE && loads(pl, a, b, d))
			return (struct gdr_fab_pair){a, b};
	}
	return none;
}

/* Pairs for the cables still open, first fit into fix-up rounds. */
static int fixup(struct planner *pl)
{
	const struct gdr_fabric *f = pl->f;
	struct gdr_fab_plan *p = pl->p;
	uint32_t nfix = 0;
	uint64_t seed = 0x2545f4914f6cdd1dull;
	unsigned char *busy = NULL;
	struct fix {
		struct gdr_fab_pair q;
		uint32_t r;
	} *add = NULL;
	uint32_t *cnt = NULL, nadd = 0, cap = 0;
	int rc = -1;

	for (uint32_t d = 0; d < 2 * f->nlink; d++) {
		struct gdr_fab_pair q;
		uint32_t r;

		if (pl->cover[d])
			continue;
		q = find_pair(pl, d, &seed);
		if (q.src == GDR_FAB_NONE)
			continue;
		for (r = 0; r < nfix; r++)
			if (!busy[(size_t)r * f->nnic + q.src] &&
			    !busy[(size_t)r * f->nnic + q.dst])
				break;
		if (r == FIXUP_ROUNDS)
			continue;
		if (r == nfix) {
			unsigned char *nb = realloc(busy, (size_t)(nfix + 1) * f->nnic);
			uint32_t *nc = realloc(cnt, (nfix + 1) * sizeof(*cnt));

			if (nb)
				busy = nb;
			if (nc)
				cnt = nc;
			if (!nb || !nc)
				goto out;
			memset(busy + (size_t)nfix * f->nnic, 0, f->nnic);
			cnt[nfix++] = 0;
		}
		if (nadd == cap) {
			uint32_t c = cap ? 2 * cap : 256;
			void *g = realloc(add, c * sizeof(*add));

			if (!g)
				goto out;
			add = g;
			cap = c;
		}
		busy[(size_t)r * f->nnic + q.src] = busy[(size_t)r * f->nnic + q.dst] = 1;
		add[nadd++] = (struct fix){q, r};
		cnt[r]++;
		cover_pair(f, q.src, q.dst, pl->cover, pl->hop);
	}
	for (uint32_t r = 0; r < nfix; r++) {
		if (gdr_fab_plan_round(p, GDR_FAB_FIXUP, f->tiers, 0))
			goto out;
		for (uint32_t k = 0; k < nadd; k++)
			if (add[k].r == r && gdr_fab_plan_add(p, add[k].q.src, add[k].q.dst))
				goto out;
	}
	rc = 0;
out:
	if (rc)
		gdr_err("fabric plan: out of memory");
	free(busy);
	free(cnt);
	free(add);
	return rc;
}

int gdr_fab_plan(const struct gdr_fabric *f, struct gdr_fab_plan *p)
{
	struct planner pl = {f, p, NULL, NULL, NULL, NULL};
	uint32_t smax = 0;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	pl.cover = calloc(2 * (size_t)f->nlink + 1, sizeof(uint32_t));
	pl.ptop = calloc((size_t)f->nplane + 1, sizeof(uint32_t));
	pl.open = calloc((size_t)f->nplane + 1, sizeof(uint32_t));
	pl.hop = malloc((2 * (size_t)f->tiers + 2) * sizeof(uint32_t));
	if (!pl.cover || !pl.ptop || !pl.open || !pl.hop) {
		gdr_err("fabric plan: out of memory");
		goto out;
	}
	for (uint32_t s = 0; s < f->nsw; s++)
		if (f->sw[s].tier > pl.ptop[f->sw[s].plane])
			pl.ptop[f->sw[s].plane] = f->sw[s].tier;
	for (uint32_t k = 0; k < f->nplane; k++)
		smax = pl.ptop[k] > smax ? pl.ptop[k] : smax;
	count_open(&pl);
	for (uint32_t s = 0; s < smax; s++) {
		if (step(&pl, s))
			goto out;
		count_open(&pl);
	}
	if (fixup(&pl))
		goto out;
	for (uint32_t d = 0; d < 2 * f->nlink; d++)
		p->uncovered += !pl.cover[d];
	rc = 0;
out:
	if (rc)
		gdr_fab_plan_free(p);
	free(pl.cover);
	free(pl.ptop);
	free(pl.open);
	free(pl.hop);
	return rc;
}
