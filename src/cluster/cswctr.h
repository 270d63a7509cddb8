/* SPDX-License-Identifier: MIT */
/*
 * --switch-counters (InfiniBand, --topology from ibnetdiscover): rank 0 reads
 * the switch ports on the cables a round loads with perfquery, by LID and
 * port, before the round is released and after its reports are in; what
 * moved (symbol errors, link downed, transmit discards, transmit wait) adds
 * to each cable's counters for the blame (cblame.c). Off with one line when
 * perfquery is absent or is not permitted to send MADs.
 */
#ifndef GDR_CSWCTR_H
#define GDR_CSWCTR_H

#include <stdbool.h>
#include "fabric_blame.h"
#include "fabric_sched.h"

/*
 * perfquery's port counters ("SymbolErrorCounter:.......7" lines) into *c:
 * symbol errors, link downed, transmit discards, transmit wait. 0, or -1
 * (no "# Port counters:" header, or a counter missing).
 */
int gdr_perfquery_parse(const char *text, struct gdr_fab_ctr *c);

struct gdr_swctr {
	const struct gdr_fab_job *fj;
	enum gdr_fab_flow flow;
	const char *tool;	  /* the command: "perfquery" */
	bool off;		  /* absent, refused, or no switch with a LID */
	uint32_t n, cap;	  /* the ports of the round read before it */
	uint32_t (*port)[3];	  /* {link, lid, port} */
	struct gdr_fab_ctr *at;	  /* each port's counters before the round */
	struct gdr_fab_ctr *link; /* per cable: what moved on its switch ports, all rounds */
	unsigned long reads;	  /* perfquery runs */
};

/* Start: 0, or -1 (out of memory). An absent tool leaves w->off and says so. */
int gdr_swctr_init(struct gdr_swctr *w, const struct gdr_fab_job *fj, enum gdr_fab_flow flow,
		   const char *tool);
void gdr_swctr_free(struct gdr_swctr *w);
/* Before round r of s: read the switch ports on the cables its pairs load. */
void gdr_swctr_before(struct gdr_swctr *w, const struct gdr_sched *s, unsigned r);
/* After it: read them again; what moved adds to w->link. */
void gdr_swctr_after(struct gdr_swctr *w);

#endif
