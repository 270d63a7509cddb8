/* SPDX-License-Identifier: MIT */
/*
 * --topology: the retest round a cluster run adds when its blame has suspect
 * cables (fabric_blame.c, rule 1): the pairs that crossed each suspect, the
 * bad ones first, no NIC twice, run once more after the planned rounds. A
 * cable is named only when its retest fails again (cblame.c).
 */
#ifndef GDR_CRETEST_H
#define GDR_CRETEST_H

#include "cluster_int.h"
#include "fabric_blame.h"
#include "fabric_sched.h"

/*
 * Rank 0 after the planned rounds, rows[0 .. n-1] judged (verdicts applied):
 * blame them (the counters as gdr_cblame takes them); the retest pairs of each suspect cable
 * (gdr_fab_retest_rounds) as rank pairs {server, client}, packed first fit into as few rounds as no
 * rank twice in a round allows (one, unless a NIC's pairs cross two
 * suspects), into *s (no round: no suspect, or no pair crossed one).
 * *suspects: the suspect cables. 0, or -1 (printed).
 */
int gdr_cretest_plan(const struct gdr_fab_job *fj, enum gdr_fab_flow flow,
		     const struct gdr_crow *rows, size_t n, const struct gdr_fab_ctr *rank_ctr,
		     const struct gdr_fab_ctr *link_ctr, struct gdr_sched *s, unsigned *suspects);

#endif
