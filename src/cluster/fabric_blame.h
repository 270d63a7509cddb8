/* SPDX-License-Identifier: MIT */
/*
 * Blame: from the pairs a plan ran (OK, or bad: SLOW or FAIL) and what the
 * cables' port counters moved, a verdict per cable, switch, NIC and host, each
 * with its evidence. A cable is named only after a retest round over it alone
 * failed again.
 */
#ifndef GDR_FABRIC_BLAME_H
#define GDR_FABRIC_BLAME_H

#include <stdint.h>
#include "fabric_plan.h"

/* One tested pair: data from NIC src to NIC dst; bad when SLOW or FAIL. */
struct gdr_fab_result {
	uint32_t src, dst;
	int bad;
};

/* What moved on a cable's two ports during the run. */
struct gdr_fab_ctr {
	uint64_t symbol, fec, downed; /* symbol errors, FEC uncorrectable, link downed */
	uint64_t xmit_wait, discards; /* transmit wait, transmit discards */
};

enum gdr_blame_kind {
	GDR_BLAME_CABLE,	 /* errors on the cable and its retest failed */
	GDR_BLAME_CABLE_SUSPECT, /* errors on the cable, retest pending or passed: not named */
	GDR_BLAME_SWITCH,	 /* transmit wait or discards concentrated on it */
	GDR_BLAME_NIC,		 /* every pair of the NIC bad, no shared cable explains them */
	GDR_BLAME_HOST,		 /* every NIC of the host so */
	GDR_BLAME_UNEXPLAINED	 /* bad pairs no rule explains; id: the cable most of them cross */
};

struct gdr_blame {
	enum gdr_blame_kind kind;
	uint32_t id;	     /* cable, switch, NIC or host index */
	uint32_t bad, pairs; /* bad pairs it explains, pairs through it */
	char evidence[256];
};

struct gdr_fab_blame {
	uint32_t n, cap;
	struct gdr_blame *v;
	uint32_t
	    *why; /* per result: the verdict (index in v) that explains it, else GDR_FAB_NONE */
};

/*
 * Verdicts for results r[0 .. nr-1]; ctr[link] may be NULL (no counters);
 * retest: the results of gdr_fab_retest_rounds' pairs (NULL before it ran).
 * 0 or -1 (printed).
 */
int gdr_fab_blame(const struct gdr_fabric *f, const struct gdr_fab_result *r, uint32_t nr,
		  const struct gdr_fab_ctr *ctr, const struct gdr_fab_result *retest,
		  uint32_t nretest, struct gdr_fab_blame *out);
void gdr_fab_blame_free(struct gdr_fab_blame *b);
/*
 * A retest round (GDR_FAB_RETEST) per suspect cable of b, appended to p: the
 * pairs of r that cross that cable, the bad ones first, no NIC twice. 0 or -1.
 */
int gdr_fab_retest_rounds(const struct gdr_fabric *f, const struct gdr_fab_blame *b,
			  const struct gdr_fab_result *r, uint32_t nr, struct gdr_fab_plan *p);
/* "cable leaf3[17] - spine0[3]: ..." */
const char *gdr_fab_blame_text(const struct gdr_fabric *f, const struct gdr_blame *v, char *buf,
			       unsigned len);

#endif
