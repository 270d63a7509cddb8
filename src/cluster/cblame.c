/* SPDX-License-Identifier: MIT */
/* --topology: a cluster run's rows as the blame's results, and its verdicts back into the rows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cblame.h"
#include "log.h"

/* The pairs of the rows: open addressing on (a, b), the slot's pair index + 1. */
struct pairs {
	size_t cap, n;
	uint32_t *slot;
	int32_t (*ab)[2];
	bool *bad;
	uint32_t *first; /* pair -> its first result, GDR_FAB_NONE: none */
};

/* The pair (a, b)'s index; added when absent and add, else SIZE_MAX. */
static size_t pair_at(struct pairs *p, int32_t a, int32_t b, bool add)
{
	uint64_t key = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
	size_t j = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (p->cap - 1);

	for (; p->slot[j]; j = (j + 1) & (p->cap - 1))
		if (p->ab[p->slot[j] - 1][0] == a && p->ab[p->slot[j] - 1][1] == b)
			return p->slot[j] - 1;
	if (!add)
		return SIZE_MAX;
	p->ab[p->n][0] = a;
	p->ab[p->n][1] = b;
	p->bad[p->n] = false;
	p->slot[j] = (uint32_t)++p->n;
	return p->n - 1;
}

static bool flagged(const struct gdr_crow *r)
{
	return r->status == GDR_CS_SLOW || r->status == GDR_CS_FAIL || r->status == GDR_CS_TIMEOUT;
}

static bool ran(const struct gdr_crow *r)
{
	return r->b >= 0 && r->status != GDR_CS_NONE && r->status != GDR_CS_SKIP;
}

/* The pair's cell: its results' verdicts, each once ("; " between two). */
static int32_t cell(const struct gdr_fab_job *fj, const struct gdr_fab_blame *b,
		    const uint32_t *res, unsigned nres, struct gdr_ctexts *pool)
{
	char text[2 * 512 + 4] = "", one[512];
	uint32_t shown = GDR_FAB_NONE;

	for (unsigned i = 0; i < nres; i++) {
		uint32_t w = b->why[res[i]];
		size_t l = strlen(text);

		if (w == GDR_FAB_NONE || w == shown)
			continue;
		gdr_fab_blame_text(&fj->f, &b->v[w], one, sizeof(one));
		snprintf(text + l, sizeof(text) - l, "%s%s", l ? "; " : "", one);
		shown = w;
	}
	return gdr_ctexts_add(pool, text);
}

/* The count after "NAME +" where NAME stands alone in side (0: not there). */
static uint64_t moved(const char *side, const char *name)
{
	size_t len = strlen(name);

	for (const char *s = strstr(side, name); s; s = strstr(s + 1, name))
		if ((s == side || s[-1] == ' ') && !strncmp(s + len, " +", 2))
			return strtoull(s + len + 2, NULL, 10);
	return 0;
}

void gdr_cblame_ctr_add(struct gdr_fab_ctr *c, const char *side)
{
	c->symbol += moved(side, "symbol_error");
	c->downed += moved(side, "link_downed");
}

struct gdr_fab_ctr *gdr_cblame_cable_ctr(const struct gdr_fab_job *fj, const struct gdr_fab_ctr *rc,
					 const struct gdr_fab_ctr *link_ctr)
{
	struct gdr_fab_ctr *c;
	bool any = false;

	for (int r = 0; rc && r < fj->nranks; r++)
		any = any || rc[r].symbol || rc[r].downed;
	for (uint32_t l = 0; link_ctr && l < fj->f.nlink; l++)
		any = any || link_ctr[l].symbol || link_ctr[l].downed || link_ctr[l].fec ||
		      link_ctr[l].xmit_wait || link_ctr[l].discards;
	if (!any)
		return NULL;
	c = calloc((size_t)fj->f.nlink + 1, sizeof(*c));
	if (!c)
		gdr_err("--topology: blame: out of memory for the cables' counters: left out");
	for (int r = 0; c && rc && r < fj->nranks; r++)
		if (fj->nic[r] != GDR_FAB_NONE && fj->rank[fj->nic[r]] == (uint32_t)r)
			c[fj->f.nic[fj->nic[r]].link] = rc[r];
	for (uint32_t l = 0; c && link_ctr && l < fj->f.nlink; l++) { /* the switch ports' */
		c[l].symbol += link_ctr[l].symbol;
		c[l].fec += link_ctr[l].fec;
		c[l].downed += link_ctr[l].downed;
		c[l].xmit_wait += link_ctr[l].xmit_wait;
		c[l].discards += link_ctr[l].discards;
	}
	return c;
}

static void pairs_free(struct pairs *p)
{
	free(p->slot);
	free(p->ab);
	free(p->bad);
	free(p->first);
}

/*
 * The pairs of the rows that ran and belong to the retest round or not (as
 * retest says), and their results: one for each way the data flowed. 0 or -1.
 */
static int collect(const struct gdr_fab_job *fj, enum gdr_fab_flow flow,
		   const struct gdr_crow *rows, size_t n, bool retest, struct pairs *p,
		   struct gdr_fab_result **res, uint32_t *nres)
{
	*p = (struct pairs){.cap = 16};
	*nres = 0;
	while (p->cap < 2 * n + 2)
		p->cap *= 2;
	p->slot = calloc(p->cap, sizeof(*p->slot));
	p->ab = malloc((n + 1) * sizeof(*p->ab));
	p->bad = malloc((n + 1) * sizeof(*p->bad));
	p->first = malloc((n + 1) * sizeof(*p->first));
	*res = malloc((2 * n + 1) * sizeof(**res));
	if (!p->slot || !p->ab || !p->bad || !p->first || !*res) {
		gdr_err("--topology: blame: out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (ran(&rows[i]) && (rows[i].retest != 0) == retest) {
			size_t k = pair_at(p, rows[i].a, rows[i].b, true);

			p->bad[k] = p->bad[k] || flagged(&rows[i]);
		}
	for (size_t k = 0; k < p->n; k++) {
		uint32_t srv = p->ab[k][0] < fj->nranks ? fj->nic[p->ab[k][0]] : GDR_FAB_NONE;
		uint32_t cli = p->ab[k][1] < fj->nranks ? fj->nic[p->ab[k][1]] : GDR_FAB_NONE;

		p->first[k] = GDR_FAB_NONE;
		if (srv == GDR_FAB_NONE || cli == GDR_FAB_NONE || srv == cli)
			continue; /* a rank the fabric lacks, or two ranks on one NIC */
		p->first[k] = *nres;
		if (flow != GDR_FLOW_TO_CLIENT)
			(*res)[(*nres)++] = (struct gdr_fab_result){cli, srv, p->bad[k]};
		if (flow != GDR_FLOW_TO_SERVER)
			(*res)[(*nres)++] = (struct gdr_fab_result){srv, cli, p->bad[k]};
	}
	return 0;
}

int gdr_cblame_results(const struct gdr_fab_job *fj, enum gdr_fab_flow flow,
		       const struct gdr_crow *rows, size_t n, struct gdr_fab_result **res,
		       uint32_t *nres)
{
	struct pairs p;
	int rc = collect(fj, flow, rows, n, false, &p, res, nres);

	pairs_free(&p);
	if (rc) {
		free(*res);
		*res = NULL;
	}
	return rc;
}

int gdr_cblame(const struct gdr_fab_job *fj, enum gdr_fab_flow flow, struct gdr_crow *rows,
	       size_t n, const struct gdr_fab_ctr *rank_ctr, const struct gdr_fab_ctr *link_ctr,
	       bool retested, struct gdr_ctexts *pool, struct gdr_fab_blame *b)
{
	struct pairs p = {0}, q = {0}; /* the rows' pairs, the retest round's */
	struct gdr_fab_ctr *ctr = gdr_cblame_cable_ctr(fj, rank_ctr, link_ctr);
	struct gdr_fab_result *res = NULL, *re = NULL;
	uint32_t nres = 0, nre = 0;
	int32_t *ids = NULL;
	int rc = -1;

	memset(b, 0, sizeof(*b));
	if (collect(fj, flow, rows, n, false, &p, &res, &nres) ||
	    collect(fj, flow, rows, n, true, &q, &re, &nre))
		goto out;
	if (gdr_fab_blame(&fj->f, res, nres, ctr, retested ? re : NULL, nre, b))
		goto out;
	ids = calloc(p.n + 1, sizeof(*ids));
	if (!ids) {
		gdr_err("--topology: blame: out of memory");
		goto out;
	}
	for (size_t k = 0; k < p.n; k++)
		if (p.bad[k] && p.first[k] != GDR_FAB_NONE) {
			uint32_t r[2] = {p.first[k], p.first[k] + 1};

			ids[k] = cell(fj, b, r, flow == GDR_FLOW_BOTH ? 2 : 1, pool);
		}
	/* a flagged row of the retest round: its pair's cell from the rounds before */
	for (size_t i = 0; i < n; i++)
		if (ran(&rows[i]) && flagged(&rows[i])) {
			size_t k = pair_at(&p, rows[i].a, rows[i].b, false);

			rows[i].blame = k == SIZE_MAX ? 0 : ids[k];
		}
	rc = 0;
out:
	if (rc)
		gdr_fab_blame_free(b);
	pairs_free(&p);
	pairs_free(&q);
	free(res);
	free(re);
	free(ids);
	free(ctr);
	return rc;
}

void gdr_cblame_print(FILE *f, const struct gdr_fab_job *fj, const struct gdr_fab_blame *b)
{
	char text[512];

	for (uint32_t i = 0; i < b->n; i++)
		fprintf(f, "blame: %s\n", gdr_fab_blame_text(&fj->f, &b->v[i], text, sizeof(text)));
}
