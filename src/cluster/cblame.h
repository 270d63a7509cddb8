/* SPDX-License-Identifier: MIT */
/*
 * --topology: the blame of a cluster run's rows (fabric_blame.c). Each pair
 * that ran is one result for each way its data flowed (client to server,
 * server to client, or both), bad when one of its rows is SLOW, FAIL or
 * TIMEOUT. The run reads no switch port's counters, so the verdicts are a NIC,
 * a host, or "unexplained" with the cable most bad pairs cross as its lead.
 * Each flagged row's blame cell names its pair's verdict with the evidence;
 * the summary prints each verdict in one line.
 */
#ifndef GDR_CBLAME_H
#define GDR_CBLAME_H

#include <stdio.h>
#include "cluster_int.h"
#include "fabric_blame.h"
#include "fabric_sched.h"

/*
 * Blame rows[0 .. n-1] over fj's fabric, data flowing as flow says: the
 * verdicts into *b (free with gdr_fab_blame_free), each flagged row's cell
 * into pool (gdr_crow.blame). 0, or -1 (printed; *b empty).
 */
int gdr_cblame(const struct gdr_fab_job *fj, enum gdr_fab_flow flow, struct gdr_crow *rows,
	       size_t n, struct gdr_ctexts *pool, struct gdr_fab_blame *b);
/* The verdicts, one line each: "blame: unexplained, lead cable leaf0[3] - spine[1]: ...". */
void gdr_cblame_print(FILE *f, const struct gdr_fab_job *fj, const struct gdr_fab_blame *b);

#endif
