/* SPDX-License-Identifier: MIT */
/*
 * --topology: the blame of a cluster run's rows (fabric_blame.c). Each pair
 * that ran is one result for each way its data flowed (client to server,
 * server to client, or both), bad when one of its rows is SLOW, FAIL or
 * TIMEOUT. With --switch-counters the switch ports' counters count (cswctr.c); with -W each NIC's own
 * port's error counters (symbol errors, link downed) stand for its access
 * cable's, so a cable can be a suspect: the run then adds a retest round over
 * the suspects (cretest.c), and a cable is named only when its retest pairs
 * fail again; else the verdicts are a NIC, a host, or "unexplained" with the
 * cable most bad pairs cross as its lead.
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
 * -W: add what a rank's side text of a round ("mlx5_0: symbol_error +7,
 * link_downed +1, port_xmit_data +4096") says moved on its port's cable:
 * symbol_error, link_downed. Other counters are left out.
 */
void gdr_cblame_ctr_add(struct gdr_fab_ctr *c, const char *side);

/*
 * Blame rows[0 .. n-1] over fj's fabric, data flowing as flow says: the
 * verdicts into *b (free with gdr_fab_blame_free), each flagged row's cell
 * into pool (gdr_crow.blame). rank_ctr (NULL: none) holds each rank's port
 * counters over the run, read as its NIC's access cable's (the first rank
 * of a NIC: ranks sharing it read the same counters); link_ctr (NULL: none)
 * per cable what its switch ports moved (--switch-counters). retested: a retest
 * round ran; its rows (gdr_crow.retest) are the retest's results, and a
 * flagged one gets its pair's cell of the rounds before. 0, or -1 (printed;
 * *b empty).
 */
int gdr_cblame(const struct gdr_fab_job *fj, enum gdr_fab_flow flow, struct gdr_crow *rows,
	       size_t n, const struct gdr_fab_ctr *rank_ctr, const struct gdr_fab_ctr *link_ctr,
	       bool retested, struct gdr_ctexts *pool, struct gdr_fab_blame *b);
/* The results of the rows outside the retest round, into *res (free it). 0 or -1. */
int gdr_cblame_results(const struct gdr_fab_job *fj, enum gdr_fab_flow flow,
		       const struct gdr_crow *rows, size_t n, struct gdr_fab_result **res,
		       uint32_t *nres);
/*
 * Each cable's counters: a NIC's access cable its first rank's, plus what
 * link_ctr (NULL: none) says its switch ports moved. NULL when none moved
 * (free it).
 */
struct gdr_fab_ctr *gdr_cblame_cable_ctr(const struct gdr_fab_job *fj,
					 const struct gdr_fab_ctr *rank_ctr,
					 const struct gdr_fab_ctr *link_ctr);
/* The verdicts, one line each: "blame: unexplained, lead cable leaf0[3] - spine[1]: ...". */
void gdr_cblame_print(FILE *f, const struct gdr_fab_job *fj, const struct gdr_fab_blame *b);

#endif
