/* SPDX-License-Identifier: MIT */
/*
 * Cluster schedules: which units (nodes, or ranks with --same-host) meet in
 * which round. Pure arithmetic, no MPI: every rank builds the same schedule
 * from the same placement.
 */
#ifndef GDR_SCHEDULE_H
#define GDR_SCHEDULE_H

#include <stddef.h>

enum gdr_pattern_kind {
	GDR_PAT_PAIRWISE, /* circle method: n-1 rounds (n odd: n) of disjoint pairs */
	GDR_PAT_QUICK,	  /* one round, first half against second half */
	GDR_PAT_SHIFT,	  /* ring: i with i+K (mod n), split into disjoint rounds */
};

struct gdr_pattern {
	enum gdr_pattern_kind kind;
	unsigned shift; /* GDR_PAT_SHIFT: K >= 1 */
};

/* "pairwise", "quick", "shift=K". 0, or -1 with one line printed. */
int gdr_pattern_parse(const char *s, struct gdr_pattern *p);
/* "pairwise", "quick", "shift=3" into buf. */
const char *gdr_pattern_name(const struct gdr_pattern *p, char *buf, size_t len);

/* Rounds of pairs of units 0..n-1; within a round no unit appears twice. */
struct gdr_sched {
	unsigned nrounds;
	unsigned npairs;
	unsigned *start;     /* round r: pairs start[r] .. start[r+1]-1 */
	unsigned (*pair)[2]; /* pair[k] = {a, b}, a < b */
};

/* Build the schedule of pattern p for n units. 0, or -1 (error printed). */
int gdr_sched_build(const struct gdr_pattern *p, unsigned n, struct gdr_sched *s);
void gdr_sched_free(struct gdr_sched *s);

#endif
