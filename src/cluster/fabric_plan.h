/* SPDX-License-Identifier: MIT */
/*
 * A plan of rounds over a fabric: in each round every NIC is in at most one
 * pair, and over the rounds every cable carries data both ways under the
 * routing model (fabric_route.c). Pure arithmetic, the same on every rank.
 */
#ifndef GDR_FABRIC_PLAN_H
#define GDR_FABRIC_PLAN_H

#include <stdint.h>
#include "fabric.h"

/* Data from NIC src to NIC dst (src the client that writes, dst the server). */
struct gdr_fab_pair {
	uint32_t src, dst;
};

enum gdr_fab_round_kind {
	GDR_FAB_SHIFT,	/* pods shifted against their neighbours below one tier */
	GDR_FAB_FIXUP,	/* pairs for the cables the shifts left without load */
	GDR_FAB_RETEST, /* pairs over one suspect cable (fabric_blame.c) */
	GDR_FAB_ECMP	/* a round again on new QPs, new UDP source ports (fabric_ecmp.c) */
};

struct gdr_fab_round {
	uint32_t first, n; /* pairs first .. first + n - 1 */
	enum gdr_fab_round_kind kind;
	uint32_t tier; /* GDR_FAB_SHIFT: the highest tier its pairs cross */
	uint32_t part; /* GDR_FAB_SHIFT: 0, 1 (2: odd rings) of the ring split so no NIC is twice */
	uint32_t copy; /* GDR_FAB_ECMP: the copy (1, 2, ...) of round `part` (0-based) it repeats */
};

struct gdr_fab_plan {
	uint32_t nround, npair, cap_round, cap_pair;
	struct gdr_fab_round *round;
	struct gdr_fab_pair *pair;
	uint32_t uncovered; /* directed cables no round loads (the model cannot reach them) */
};

/* Plan rounds for f (indexed). 0, or -1 (printed). */
int gdr_fab_plan(const struct gdr_fabric *f, struct gdr_fab_plan *p);
void gdr_fab_plan_free(struct gdr_fab_plan *p);
/* Append a round; its pairs with gdr_fab_plan_add. 0 or -1 (printed). */
int gdr_fab_plan_round(struct gdr_fab_plan *p, enum gdr_fab_round_kind kind, uint32_t tier,
		       uint32_t part);
int gdr_fab_plan_add(struct gdr_fab_plan *p, uint32_t src, uint32_t dst);
/* cover[2 * nlink] += the pairs of the plan loading each directed cable. */
void gdr_fab_cover(const struct gdr_fabric *f, const struct gdr_fab_plan *p, uint32_t *cover);

#endif
