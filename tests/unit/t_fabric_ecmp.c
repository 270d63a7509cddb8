/* SPDX-License-Identifier: MIT */
/*
 * Unit test: ECMP rounds (fabric_ecmp.c) on synthetic 2- and 3-tier fat trees
 * and a rail-optimized fabric whose leaves have fewer NICs than uplinks. A
 * simulated RoCE fabric hashes every flow (a NIC pair, a QP, a round: a UDP
 * source port of its own) at each upward hop with a seeded hash; over many
 * seeds, the share of leaf pairs of the plan with an up path none of their
 * flows took must stay within the plan's eps (plus three standard deviations of
 * a count of rare misses, sqrt(eps x trials): the seeds are a sample), and the
 * same check must fail the plan without its ECMP copies. The path counts are checked against
 * the fabrics' shapes, the copies against their arithmetic, and each copy
 * repeats its round's pairs (no NIC twice in a round).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fabric_ecmp.h"
#include "log.h"

#include "check.h"
#include "fabric_synth.h"

#define SEEDS 200
#define EPS   0.01

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* One flow from NIC a to NIC b: its up path as a number (the choice at each up hop). */
static uint64_t flow_path(const struct gdr_fabric *f, uint32_t a, uint32_t b, uint64_t seed,
			  uint64_t flow)
{
	uint32_t s = f->nic[a].sw, dl = f->sw[f->nic[b].sw].leaf;
	uint64_t id = 0;

	while (!gdr_fab_below(f, s, dl)) {
		uint32_t up[256], n = 0, pick;

		for (uint32_t k = f->adj_start[s]; k < f->adj_start[s + 1] && n < 256; k++) {
			const struct gdr_fab_link *l = &f->link[f->adj[k]];
			uint32_t w = l->node[l->node[0] == s];

			if (w < f->nsw && f->sw[w].tier > f->sw[s].tier)
				up[n++] = w;
		}
		if (!n)
			return UINT64_MAX;
		pick = (uint32_t)(mix(seed ^ mix((uint64_t)s << 40 ^ (uint64_t)a << 20 ^ b) ^
				      mix(flow)) %
				  n);
		id = id * n + pick;
		s = up[pick];
	}
	return id;
}

/* The up paths of leaf pair (la, lb) by the fabric's shape, independent of fabric_ecmp.c. */
static uint64_t shape_paths(const struct synth *sy, const struct gdr_fabric *f, uint32_t la,
			    uint32_t lb)
{
	if (la == lb)
		return 1;
	if (sy->tiers == 2)
		return sy->up;
	/* leaves are numbered by plane, then pod: same pod when their tier-2 groups match */
	return f->group[2 * f->nleaf + la] == f->group[2 * f->nleaf + lb]
		   ? sy->up
		   : (uint64_t)sy->up * sy->core_up;
}

struct pathset {
	uint64_t *ids; /* per leaf pair: distinct paths seen, up to cap */
	uint32_t *n;
	uint32_t cap;
};

/* Leaf pairs (of the plan) with a missed path, over SEEDS seeds; *trials counts them all. */
static uint32_t misses(const struct synth *sy, const struct gdr_fabric *f,
		       const struct gdr_fab_plan *p, unsigned qps, uint32_t *trials)
{
	uint32_t nl = f->nleaf, miss = 0;
	struct pathset ps = {NULL, NULL, 512};

	ps.ids = malloc((size_t)nl * nl * ps.cap * sizeof(*ps.ids));
	ps.n = malloc((size_t)nl * nl * sizeof(*ps.n));
	*trials = 0;
	for (uint64_t seed = 1; seed <= SEEDS && ps.ids && ps.n; seed++) {
		memset(ps.n, 0xff,
		       (size_t)nl * nl * sizeof(*ps.n)); /* UINT32_MAX: not in the plan */
		for (uint32_t r = 0; r < p->nround; r++)
			for (uint32_t k = p->round[r].first; k < p->round[r].first + p->round[r].n;
			     k++)
				for (unsigned q = 0; q < qps; q++) {
					uint32_t a = p->pair[k].src, b = p->pair[k].dst;
					size_t lp = (size_t)f->sw[f->nic[a].sw].leaf * nl +
						    f->sw[f->nic[b].sw].leaf;
					uint64_t id =
					    flow_path(f, a, b, seed, (uint64_t)r * 64 + q);
					uint32_t j;

					if (ps.n[lp] == UINT32_MAX)
						ps.n[lp] = 0;
					for (j = 0; j < ps.n[lp] && ps.ids[lp * ps.cap + j] != id;
					     j++)
						;
					if (j == ps.n[lp] && j < ps.cap)
						ps.ids[lp * ps.cap + ps.n[lp]++] = id;
				}
		for (uint32_t la = 0; la < nl; la++)
			for (uint32_t lb = 0; lb < nl; lb++) {
				uint32_t got = ps.n[(size_t)la * nl + lb];

				if (got == UINT32_MAX || la == lb)
					continue;
				(*trials)++;
				miss += got < shape_paths(sy, f, la, lb);
			}
	}
	free(ps.ids);
	free(ps.n);
	return miss;
}

/* The most misses eps allows over trials leaf pairs: the mean, plus 3 sigma of a rare count. */
static double bound(uint32_t trials)
{
	return EPS * trials + 3 * sqrt(EPS * trials);
}

static void one(const char *name, const struct synth *sy, unsigned qps)
{
	struct gdr_fabric f;
	struct gdr_fab_plan p;
	struct gdr_fab_ecmp_info info;
	uint32_t base, trials, miss0, miss, wrong = 0, twice = 0, *seen;

	if (synth_build(&f, sy)) {
		CHECK(0, "%s: built", name);
		return;
	}
	CHECK(gdr_fab_plan(&f, &p) == 0, "%s: planned", name);
	base = p.nround;
	for (uint32_t la = 0; la < f.nleaf; la++) /* path counts against the shape */
		for (uint32_t lb = 0; lb < f.nleaf; lb++)
			if (la != lb && f.sw[f.leaf[la]].plane == f.sw[f.leaf[lb]].plane)
				wrong += gdr_fab_up_paths(&f, f.leaf[la],
							  gdr_fab_turn_tier(&f, la, lb)) !=
					 shape_paths(sy, &f, la, lb);
	CHECK(!wrong, "%s: %u leaf pairs' path counts differ from the shape", name, wrong);
	miss0 = misses(sy, &f, &p, qps, &trials);
	CHECK(gdr_fab_ecmp(&f, &p, qps, EPS, &info) == 0, "%s: ecmp", name);
	CHECK(p.nround == base * info.copies && info.copies > 1, "%s: %u rounds, %u copies", name,
	      p.nround, info.copies);
	seen = calloc(f.nnic, sizeof(*seen));
	for (uint32_t r = base; r < p.nround && seen; r++) {
		const struct gdr_fab_round *c = &p.round[r], *o = &p.round[c->part];

		wrong += c->kind != GDR_FAB_ECMP || c->part >= base || c->n != o->n ||
			 memcmp(&p.pair[c->first], &p.pair[o->first], c->n * sizeof(*p.pair));
		for (uint32_t k = c->first; k < c->first + c->n; k++) {
			twice += seen[p.pair[k].src] == r + 1 || seen[p.pair[k].dst] == r + 1;
			seen[p.pair[k].src] = seen[p.pair[k].dst] = r + 1;
		}
	}
	free(seen);
	CHECK(!wrong && !twice, "%s: %u copies not their round's pairs, %u NICs twice", name, wrong,
	      twice);
	miss = misses(sy, &f, &p, qps, &trials);
	printf("%s, %u QPs: %u copies (up to %llu paths a leaf pair, %llu flows); leaf pairs "
	       "missing a path over %d seeds: %u of %u without the copies, %u of %u with them\n",
	       name, qps, info.copies, (unsigned long long)info.max_paths,
	       (unsigned long long)info.flows, SEEDS, miss0, trials, miss, trials);
	CHECK(miss <= bound(trials), "%s: %u of %u leaf pairs missed a path (eps %g)", name, miss,
	      trials, EPS);
	CHECK(miss0 > bound(trials), "%s: the checker passes the plan without copies (%u of %u)",
	      name, miss0, trials);
	gdr_fab_plan_free(&p);
	gdr_fab_free(&f);
}

int main(void)
{
	/* the arithmetic: P (1 - 1/P)^F <= eps at the fewest F */
	CHECK(gdr_fab_ecmp_flows(1, 0.001) == 1 && gdr_fab_ecmp_flows(2, 0.001) == 11 &&
		  gdr_fab_ecmp_flows(8, 0.01) == 51,
	      "flows %llu %llu %llu", (unsigned long long)gdr_fab_ecmp_flows(1, 0.001),
	      (unsigned long long)gdr_fab_ecmp_flows(2, 0.001),
	      (unsigned long long)gdr_fab_ecmp_flows(8, 0.01));
	/* {tiers, hosts, rails, NICs a leaf, uplinks, leaves a pod, cores an agg, rail-opt} */
	for (unsigned q = 1; q <= 4; q *= 4) {
		one("2 tiers, 8 leaves x 4 NICs, 8 spines",
		    &(struct synth){2, 32, 1, 4, 8, 0, 0, 0}, q);
		one("3 tiers, 4 pods of 4 leaves x 4 NICs, 4 aggs x 4 cores",
		    &(struct synth){3, 64, 1, 4, 4, 4, 4, 0}, q);
		one("rail-optimized 2 tiers, 16 hosts x 4 rails, 8 spines",
		    &(struct synth){2, 16, 4, 4, 8, 0, 0, 1}, q);
	}
	return CHECK_DONE();
}
