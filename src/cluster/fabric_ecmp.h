/* SPDX-License-Identifier: MIT */
/*
 * ECMP rounds for RoCE. A RoCE switch spreads flows over its equal-cost
 * cables by a hash of the 5-tuple the planner cannot know, and the UDP source
 * port is the field a run varies: each QP has its own (the NIC derives it from
 * the QP number or the flow label), so a round run again on new QPs sends its
 * pairs' data over paths drawn afresh. Under a uniform hash each flow of a
 * leaf pair takes one of its P up paths (to the tier where its route turns
 * down) at random, and F flows miss one with probability at most
 * P (1 - 1/P)^F. The plan's rounds are repeated until every leaf pair of every
 * round has that many flows (its NIC pairs in the round x QPs a pair x copies).
 */
#ifndef GDR_FABRIC_ECMP_H
#define GDR_FABRIC_ECMP_H

#include <stdint.h>
#include "fabric_plan.h"

/* Up paths from leaf switch sw to the switches of tier `tier` (1 for the leaf itself). */
uint64_t gdr_fab_up_paths(const struct gdr_fabric *f, uint32_t sw, uint32_t tier);
/* The tier where a route from leaf index a to leaf index b turns down (1: the same leaf). */
uint32_t gdr_fab_turn_tier(const struct gdr_fabric *f, uint32_t a, uint32_t b);
/* The fewest flows F with paths x (1 - 1/paths)^F <= eps (0 < eps < 1). */
uint64_t gdr_fab_ecmp_flows(uint64_t paths, double eps);

struct gdr_fab_ecmp_info {
	uint32_t copies;    /* the plan's rounds run this many times in all (1: no more) */
	uint64_t max_paths; /* the most up paths of a leaf pair of the plan */
	uint64_t flows;	    /* the flows that leaf pair needs */
};

/*
 * Repeat p's rounds (as GDR_FAB_ECMP rounds, copy 1, 2, ...) so that every
 * leaf pair of every round carries enough flows, with qps QPs a pair, to hit
 * each of its paths with probability at least 1 - eps. 0, or -1 (printed).
 */
int gdr_fab_ecmp(const struct gdr_fabric *f, struct gdr_fab_plan *p, unsigned qps, double eps,
		 struct gdr_fab_ecmp_info *info);

#endif
