/* SPDX-License-Identifier: MIT */
/*
 * Unit test: blame with injected faults on synthetic fabrics. A plan runs on
 * a simulated fabric where one cable, one switch, one NIC or one host is bad,
 * or a few cables are congested: a pair is bad when its route crosses the
 * fault, and the counters move as that fault would move them. The blame must
 * name the fault and nothing else (precision and recall printed per case and
 * overall); a cable only after its retest round failed again, never when the
 * retest passes; congestion and a cable without counters stay "unexplained",
 * the latter with the cable as its lead. Each bad pair is tied to the one
 * verdict that explains it (the fault's, where one is named), each OK pair to
 * none, and each verdict's count of bad pairs is the pairs tied to it.
 */
#include <stdlib.h>
#include <string.h>
#include "fabric_blame.h"
#include "log.h"

#include "check.h"
#include "fabric_synth.h"

enum fault { CABLE, CABLE_NO_COUNTERS, CABLE_TRANSIENT, SWITCH, NIC, HOST, CONGESTION };

struct sim {
	const struct gdr_fabric *f;
	enum fault kind;
	uint32_t id;	 /* cable, switch, NIC or host */
	uint32_t jam[4]; /* CONGESTION: the slow cables */
	int healed;	 /* CABLE_TRANSIENT: gone by the retest */
	uint32_t hop[2 * 16 + 2];
};

static int bad_pair(struct sim *s, uint32_t a, uint32_t b)
{
	unsigned n = gdr_fab_route(s->f, a, b, s->hop);

	switch (s->kind) {
	case NIC:
		return a == s->id || b == s->id;
	case HOST:
		return s->f->nic[a].host == s->id || s->f->nic[b].host == s->id;
	default:
		break;
	}
	for (unsigned h = 0; h < n; h++) {
		const struct gdr_fab_link *l = &s->f->link[s->hop[h] / 2];

		if (s->kind == SWITCH && (l->node[0] == s->id || l->node[1] == s->id))
			return 1;
		if (s->kind == CONGESTION)
			for (int j = 0; j < 4; j++)
				if (s->hop[h] / 2 == s->jam[j])
					return 1;
		if (s->kind <= CABLE_TRANSIENT && s->hop[h] / 2 == s->id && !s->healed)
			return 1;
	}
	return 0;
}

static void run(struct sim *s, const struct gdr_fab_plan *p, uint32_t r0, struct gdr_fab_result *r,
		uint32_t *nr)
{
	*nr = 0;
	for (uint32_t q = r0; q < p->nround; q++)
		for (uint32_t k = p->round[q].first; k < p->round[q].first + p->round[q].n; k++) {
			r[*nr] = (struct gdr_fab_result){p->pair[k].src, p->pair[k].dst, 0};
			r[*nr].bad = bad_pair(s, p->pair[k].src, p->pair[k].dst);
			(*nr)++;
		}
}

/* What the fault moves on the counters, plus a little transmit wait everywhere. */
static void counters(struct sim *s, struct gdr_fab_ctr *c)
{
	const struct gdr_fabric *f = s->f;

	memset(c, 0, f->nlink * sizeof(*c));
	for (uint32_t l = 0; l < f->nlink; l += 17)
		c[l].xmit_wait = 3;
	if (s->kind == CABLE || s->kind == CABLE_TRANSIENT) {
		c[s->id].symbol = 1200;
		c[s->id].fec = 40;
	} else if (s->kind == SWITCH) {
		for (uint32_t k = f->adj_start[s->id]; k < f->adj_start[s->id + 1]; k++)
			c[f->adj[k]].xmit_wait = 50000, c[f->adj[k]].discards = 900;
	} else if (s->kind == CONGESTION) {
		for (int j = 0; j < 4; j++)
			c[s->jam[j]].xmit_wait = 80000;
	}
}

struct score {
	unsigned named, right, truth;
};

static struct score total;

static void score(const char *name, struct sim *s, const struct gdr_fab_blame *b, unsigned truth)
{
	struct score sc = {0, 0, truth};
	static const enum gdr_blame_kind want[] = {
	    GDR_BLAME_CABLE, GDR_BLAME_CABLE, GDR_BLAME_CABLE,	    GDR_BLAME_SWITCH,
	    GDR_BLAME_NIC,   GDR_BLAME_HOST,  GDR_BLAME_UNEXPLAINED};
	char text[512];

	for (uint32_t i = 0; i < b->n; i++) {
		const struct gdr_blame *v = &b->v[i];

		printf("  %s\n", gdr_fab_blame_text(s->f, v, text, sizeof(text)));
		if (v->kind == GDR_BLAME_CABLE_SUSPECT || v->kind == GDR_BLAME_UNEXPLAINED)
			continue;
		sc.named++;
		sc.right += truth && v->kind == want[s->kind] && v->id == s->id;
	}
	printf("%s: named %u, right %u of %u: precision %.2f, recall %.2f\n", name, sc.named,
	       sc.right, sc.truth, sc.named ? (double)sc.right / sc.named : 1.0,
	       sc.truth ? (double)sc.right / sc.truth : 1.0);
	CHECK(sc.right == sc.named && sc.right == sc.truth, "%s: named %u right %u truth %u", name,
	      sc.named, sc.right, sc.truth);
	total.named += sc.named;
	total.right += sc.right;
	total.truth += sc.truth;
}

static const struct gdr_blame *find(const struct gdr_fab_blame *b, enum gdr_blame_kind k)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (b->v[i].kind == k)
			return &b->v[i];
	return NULL;
}

/* Each result's verdict (b->why): bad ones tied to one that counts them, the fault's when named. */
static void why_ok(const char *name, struct sim *s, const struct gdr_fab_blame *b,
		   const struct gdr_fab_result *r, uint32_t nr, int truth)
{
	/* no counters: unexplained, the cable its lead */
	static const enum gdr_blame_kind want[] = {
	    GDR_BLAME_CABLE, GDR_BLAME_UNEXPLAINED, GDR_BLAME_CABLE,	  GDR_BLAME_SWITCH,
	    GDR_BLAME_NIC,   GDR_BLAME_HOST,	    GDR_BLAME_UNEXPLAINED};
	uint32_t *tied = calloc(b->n + 1, sizeof(*tied)), wrong = 0, count = 0;

	for (uint32_t k = 0; k < nr; k++) {
		uint32_t w = b->why[k];

		if (!r[k].bad || w >= b->n) {
			wrong += r[k].bad || w != GDR_FAB_NONE;
			continue;
		}
		tied[w]++;
		wrong += truth && (b->v[w].kind != want[s->kind] || b->v[w].id != s->id);
	}
	for (uint32_t i = 0; i < b->n; i++)
		count += tied[i] != b->v[i].bad;
	CHECK(!wrong && !count,
	      "%s: %u pairs tied to the wrong verdict (or none), %u verdicts miscounted", name,
	      wrong, count);
	free(tied);
}

/* One case: plan, run, blame; for cables, the retest round and blame again. */
static void one(const char *name, const struct gdr_fabric *f, struct sim *s)
{
	struct gdr_fab_plan p;
	struct gdr_fab_blame b;
	struct gdr_fab_ctr *c = calloc(f->nlink, sizeof(*c));
	struct gdr_fab_result *r, *re;
	uint32_t nr, nre, r0;
	int cable = s->kind == CABLE || s->kind == CABLE_TRANSIENT;

	CHECK(gdr_fab_plan(f, &p) == 0);
	r = calloc(p.npair + 1, sizeof(*r));
	re = calloc(p.npair + 1, sizeof(*re));
	run(s, &p, 0, r, &nr);
	counters(s, c);
	CHECK(gdr_fab_blame(f, r, nr, s->kind == CABLE_NO_COUNTERS ? NULL : c, NULL, 0, &b) == 0);
	if (cable) {
		const struct gdr_blame *v = find(&b, GDR_BLAME_CABLE_SUSPECT);

		printf("%s: a suspect, none named before its retest (checked); after it:\n", name);
		CHECK(v && v->id == s->id && !find(&b, GDR_BLAME_CABLE),
		      "%s: a suspect cable, none named before its retest", name);
		r0 = p.nround;
		CHECK(gdr_fab_retest_rounds(f, &b, r, nr, &p) == 0);
		CHECK(p.nround == r0 + 1 && p.round[r0].kind == GDR_FAB_RETEST && p.round[r0].n > 0,
		      "%s: one retest round", name);
		s->healed = s->kind == CABLE_TRANSIENT;
		run(s, &p, r0, re, &nre);
		gdr_fab_blame_free(&b);
		CHECK(gdr_fab_blame(f, r, nr, c, re, nre, &b) == 0);
	}
	if (s->kind == CABLE_NO_COUNTERS) {
		const struct gdr_blame *v = find(&b, GDR_BLAME_UNEXPLAINED);

		CHECK(v && v->id == s->id, "%s: unexplained, the cable its lead", name);
	}
	if (s->kind == CONGESTION)
		CHECK(find(&b, GDR_BLAME_UNEXPLAINED) != NULL, "%s: unexplained", name);
	score(name, s, &b,
	      s->kind == CONGESTION || s->kind == CABLE_NO_COUNTERS || s->kind == CABLE_TRANSIENT
		  ? 0
		  : 1);
	why_ok(name, s, &b, r, nr, s->kind != CONGESTION && s->kind != CABLE_TRANSIENT);
	gdr_fab_blame_free(&b);
	gdr_fab_plan_free(&p);
	free(c);
	free(r);
	free(re);
}

/* The cable from switch a up to switch b (or NIC a's own when b is NONE). */
static uint32_t cable_of(const struct gdr_fabric *f, const char *a, const char *b)
{
	uint32_t x = gdr_fab_find_switch(f, a), y = b ? gdr_fab_find_switch(f, b) : GDR_FAB_NONE;

	for (uint32_t l = 0; l < f->nlink && x != GDR_FAB_NONE; l++)
		if ((f->link[l].node[0] == x && f->link[l].node[1] == y) ||
		    (f->link[l].node[1] == x && f->link[l].node[0] == y))
			return l;
	return GDR_FAB_NONE;
}

static void cases(const char *fab, const struct synth *syn, const char *leaf, const char *up,
		  const char *top, uint32_t nic)
{
	struct gdr_fabric f;
	char name[160];
	static const char *const kinds[] = {"one cable",
					    "one cable, no counters",
					    "one cable, gone by its retest",
					    "one switch",
					    "one NIC",
					    "one host",
					    "congestion"};

	if (synth_build(&f, syn)) {
		CHECK(0, "%s: built", fab);
		return;
	}
	for (enum fault k = CABLE; k <= CONGESTION; k++) {
		struct sim s = {&f, k, 0, {0, 0, 0, 0}, 0, {0}};

		if (k <= CABLE_TRANSIENT)
			s.id = cable_of(&f, leaf, up);
		else if (k == SWITCH)
			s.id = gdr_fab_find_switch(&f, top);
		else if (k == NIC)
			s.id = nic;
		else if (k == HOST)
			s.id = f.nic[nic].host;
		if (k == HOST && syn->rails < 2)
			continue;
		if (k == CONGESTION) /* four uplinks of four leaves to four switches */
			for (uint32_t j = 0, l = 0; l < f.nlink && j < 4; l++) {
				const struct gdr_fab_link *x = &f.link[l];

				if (x->node[0] < f.nsw && x->node[1] < f.nsw &&
				    f.sw[x->node[0]].leaf == j * 2 && f.sw[x->node[0]].tier == 1 &&
				    (l % syn->up) == j)
					s.jam[j++] = l;
			}
		CHECK(s.id != GDR_FAB_NONE, "%s: the fault's part", fab);
		snprintf(name, sizeof(name), "%s, %s", fab, kinds[k]);
		one(name, &f, &s);
	}
	gdr_fab_free(&f);
}

int main(void)
{
	/* {tiers, hosts, rails, NICs a leaf, uplinks, leaves a pod, cores an agg, rail-opt} */
	cases("2 tiers (8 leaves x 8, 4 spines)", &(struct synth){2, 64, 1, 8, 4, 0, 0, 0},
	      "p0-leaf2", "p0-spine1", "p0-spine3", 21);
	cases("3 tiers (4 pods of 4 leaves x 8)", &(struct synth){3, 128, 1, 8, 4, 4, 2, 0},
	      "p0-pod1-agg2", "p0-core5", "p0-pod2-agg1", 77);
	cases("rail-optimized 2 tiers (32 hosts x 4 rails)",
	      &(struct synth){2, 32, 4, 8, 4, 0, 0, 1}, "p2-leaf1", "p2-spine0", "p1-spine2", 45);
	printf("overall: named %u, right %u of %u: precision %.2f, recall %.2f\n", total.named,
	       total.right, total.truth, total.named ? (double)total.right / total.named : 1.0,
	       total.truth ? (double)total.right / total.truth : 1.0);
	return CHECK_DONE();
}
