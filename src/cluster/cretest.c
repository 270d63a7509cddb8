/* SPDX-License-Identifier: MIT */
/* --topology: the run's retest round over its suspect cables. */
#include <stdlib.h>
#include <string.h>
#include "cblame.h"
#include "cretest.h"
#include "log.h"

/* The rounds of in packed first fit into *out: no rank twice in a round. 0 or -1. */
static int pack(const struct gdr_sched *in, int nranks, struct gdr_sched *out)
{
	size_t nr = in->nrounds ? in->nrounds : 1;
	unsigned char *busy = calloc(nr * (size_t)nranks, 1);
	unsigned *at = malloc((in->npairs + 1) * sizeof(*at)), used = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!busy || !at)
		goto out;
	for (unsigned k = 0; k < in->npairs; k++) {
		unsigned a = in->pair[k][0], b = in->pair[k][1], r = 0;

		while (busy[(size_t)r * nranks + a] || busy[(size_t)r * nranks + b])
			r++; /* ends at a fresh round at the latest: at most one per round of in */
		busy[(size_t)r * nranks + a] = busy[(size_t)r * nranks + b] = 1;
		at[k] = r;
		used = r + 1 > used ? r + 1 : used;
	}
	out->start = calloc(used + 2, sizeof(*out->start));
	out->pair = calloc(in->npairs + 1, sizeof(*out->pair));
	if (!out->start || !out->pair)
		goto out;
	out->nrounds = used;
	for (unsigned r = 0; r < used; r++) {
		out->start[r] = out->npairs;
		for (unsigned k = 0; k < in->npairs; k++)
			if (at[k] == r) {
				out->pair[out->npairs][0] = in->pair[k][0];
				out->pair[out->npairs++][1] = in->pair[k][1];
			}
	}
	out->start[used] = out->npairs;
	rc = 0;
out:
	if (rc) {
		gdr_err("--topology: retest round: out of memory");
		gdr_sched_free(out);
	}
	free(busy);
	free(at);
	return rc;
}

int gdr_cretest_plan(const struct gdr_fab_job *fj, enum gdr_fab_flow flow,
		     const struct gdr_crow *rows, size_t n, const struct gdr_fab_ctr *rank_ctr,
		     const struct gdr_fab_ctr *link_ctr, struct gdr_sched *s, unsigned *suspects)
{
	struct gdr_fab_ctr *ctr = gdr_cblame_cable_ctr(fj, rank_ctr, link_ctr);
	struct gdr_fab_result *res = NULL;
	struct gdr_fab_blame b = {0};
	struct gdr_fab_plan p = {0};
	struct gdr_sched rk = {0};
	uint32_t nres = 0;
	unsigned missing = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	*suspects = 0;
	if (!ctr)
		return 0; /* no cable's error counters moved: no suspect */
	if (gdr_cblame_results(fj, flow, rows, n, &res, &nres) ||
	    gdr_fab_blame(&fj->f, res, nres, ctr, NULL, 0, &b))
		goto out;
	for (uint32_t i = 0; i < b.n; i++)
		*suspects += b.v[i].kind == GDR_BLAME_CABLE_SUSPECT;
	rc = 0;
	if (*suspects)
		rc = gdr_fab_retest_rounds(&fj->f, &b, res, nres, &p) ||
			     gdr_fab_to_ranks(&p, fj->rank, fj->nranks, flow, &rk, &missing) ||
			     pack(&rk, fj->nranks, s)
			 ? -1
			 : 0;
out:
	gdr_sched_free(&rk);
	gdr_fab_plan_free(&p);
	gdr_fab_blame_free(&b);
	free(res);
	free(ctr);
	return rc;
}
