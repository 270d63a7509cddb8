/* SPDX-License-Identifier: MIT */
/*
 * Blame, rule by rule, each rule explaining the bad pairs it can before the
 * next looks: every bad pair votes for the cables of its route; a cable whose
 * error counters moved (symbol, FEC, link downed) and that bad pairs cross is a
 * suspect, named only when a retest round over it alone fails again; transmit
 * wait or discards concentrated on one switch blame the switch; a NIC whose
 * every pair is bad, with no cable beyond its own that other bad pairs share,
 * blames the NIC (every NIC of its host: the host); what is left is
 * "unexplained", with the cable most of it crosses as a lead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabric_blame.h"
#include "log.h"

#define CONCENTRATED 0.75 /* a switch's share of all transmit wait and discards */

struct tally {
	const struct gdr_fabric *f;
	const struct gdr_fab_result *r;
	uint32_t nr;
	uint32_t *votes, *through;   /* per cable: bad pairs, pairs */
	uint32_t *nic_bad, *nic_all; /* per NIC */
	uint32_t *scratch;	     /* per cable */
	uint32_t *explained;	     /* per result: 1 + the verdict explaining it, 0 none */
	uint32_t hop[2 * 16 + 2];
};

void gdr_fab_blame_free(struct gdr_fab_blame *b)
{
	free(b->v);
	free(b->why);
	memset(b, 0, sizeof(*b));
}

static struct gdr_blame *add(struct gdr_fab_blame *b, enum gdr_blame_kind kind, uint32_t id,
			     uint32_t bad, uint32_t pairs)
{
	if (b->n == b->cap) {
		uint32_t c = b->cap ? 2 * b->cap : 16;
		void *g = realloc(b->v, c * sizeof(*b->v));

		if (!g) {
			gdr_err("fabric blame: out of memory");
			return NULL;
		}
		b->v = g;
		b->cap = c;
	}
	b->v[b->n] = (struct gdr_blame){kind, id, bad, pairs, ""};
	return &b->v[b->n++];
}

static unsigned route(struct tally *t, const struct gdr_fab_result *x)
{
	return x->src == x->dst ? 0 : gdr_fab_route(t->f, x->src, x->dst, t->hop);
}

static int crosses(struct tally *t, const struct gdr_fab_result *x, uint32_t link)
{
	unsigned n = route(t, x);

	for (unsigned h = 0; h < n; h++)
		if (t->hop[h] / 2 == link)
			return 1;
	return 0;
}

static int passes(struct tally *t, const struct gdr_fab_result *x, uint32_t sw)
{
	unsigned n = route(t, x);

	for (unsigned h = 0; h < n; h++) {
		const struct gdr_fab_link *l = &t->f->link[t->hop[h] / 2];

		if (l->node[0] == sw || l->node[1] == sw)
			return 1;
	}
	return 0;
}

static void tally(struct tally *t)
{
	for (uint32_t k = 0; k < t->nr; k++) {
		unsigned n = route(t, &t->r[k]);

		for (unsigned h = 0; h < n; h++) {
			t->through[t->hop[h] / 2]++;
			t->votes[t->hop[h] / 2] += t->r[k].bad != 0;
		}
		t->nic_all[t->r[k].src]++;
		t->nic_all[t->r[k].dst]++;
		t->nic_bad[t->r[k].src] += t->r[k].bad != 0;
		t->nic_bad[t->r[k].dst] += t->r[k].bad != 0;
	}
}

/* Cables with errors: named after a failed retest, else suspects. */
static int cables(struct tally *t, const struct gdr_fab_ctr *ctr, const struct gdr_fab_result *re,
		  uint32_t nre, struct gdr_fab_blame *out)
{
	for (uint32_t l = 0; l < t->f->nlink && ctr; l++) {
		uint64_t err = ctr[l].symbol + ctr[l].fec + ctr[l].downed;
		uint32_t rb = 0, rn = 0, expl = 0;
		struct gdr_blame *v;
		char tail[96];

		if (!err || !t->votes[l])
			continue;
		for (uint32_t k = 0; k < nre; k++)
			if (crosses(t, &re[k], l)) {
				rn++;
				rb += re[k].bad != 0;
			}
		for (uint32_t k = 0; k < t->nr; k++)
			if (t->r[k].bad && !t->explained[k] && crosses(t, &t->r[k], l)) {
				t->explained[k] = out->n + 1; /* the verdict added below */
				expl++;
			}
		if (!re)
			snprintf(tail, sizeof(tail),
				 "retest round over it alone pending: not named yet");
		else if (!rn)
			snprintf(tail, sizeof(tail), "no retest pair crossed it: not named");
		else if (!rb)
			snprintf(tail, sizeof(tail),
				 "retest over it alone: %u pairs OK: retest passed (transient), "
				 "not named",
				 rn);
		else
			snprintf(tail, sizeof(tail),
				 "retest over it alone: %u of %u pairs bad again", rb, rn);
		v = add(out, re && rb ? GDR_BLAME_CABLE : GDR_BLAME_CABLE_SUSPECT, l, expl,
			t->through[l]);
		if (!v)
			return -1;
		snprintf(
		    v->evidence, sizeof(v->evidence),
		    "symbol errors +%llu, FEC uncorrectable +%llu, link downed +%llu; %u of %u "
		    "pairs through it bad; %s",
		    (unsigned long long)ctr[l].symbol, (unsigned long long)ctr[l].fec,
		    (unsigned long long)ctr[l].downed, t->votes[l], t->through[l], tail);
	}
	return 0;
}

/* Transmit wait and discards: the switch with most of them, if concentrated. */
static int switches(struct tally *t, const struct gdr_fab_ctr *ctr, struct gdr_fab_blame *out,
		    uint32_t *spread)
{
	const struct gdr_fabric *f = t->f;
	uint64_t total = 0, best_w = 0, w;
	uint32_t best = GDR_FAB_NONE, moved = 0, expl = 0, through = 0, nmoved = 0;
	struct gdr_blame *v;

	*spread = 0;
	for (uint32_t l = 0; l < f->nlink && ctr; l++)
		total += ctr[l].xmit_wait + ctr[l].discards;
	if (!total)
		return 0;
	for (uint32_t s = 0; s < f->nsw; s++) {
		uint32_t m = 0;

		w = 0;
		for (uint32_t k = f->adj_start[s]; k < f->adj_start[s + 1]; k++) {
			uint64_t c = ctr[f->adj[k]].xmit_wait + ctr[f->adj[k]].discards;

			w += c;
			m += c > 0;
		}
		*spread += w > 0;
		if (w > best_w || (w == best_w && m > moved)) {
			best_w = w;
			best = s;
			moved = m;
		}
	}
	if (best == GDR_FAB_NONE || moved < 2 || (double)best_w < CONCENTRATED * (double)total)
		return 0;
	for (uint32_t k = 0; k < t->nr; k++) {
		if (!passes(t, &t->r[k], best))
			continue;
		through++;
		if (t->r[k].bad && !t->explained[k]) {
			t->explained[k] = out->n + 1;
			expl++;
		}
	}
	if (!expl)
		return 0;
	for (uint32_t k = f->adj_start[best]; k < f->adj_start[best + 1]; k++)
		nmoved += ctr[f->adj[k]].xmit_wait + ctr[f->adj[k]].discards > 0;
	v = add(out, GDR_BLAME_SWITCH, best, expl, through);
	if (!v)
		return -1;
	snprintf(v->evidence, sizeof(v->evidence),
		 "transmit wait and discards: %.0f%% of the fabric's on its ports (%u cables); %u "
		 "bad pairs through it",
		 100.0 * (double)best_w / (double)total, nmoved, expl);
	return 0;
}

/* Every pair of NIC x bad, and no cable but its own shared with other bad pairs. */
static int nic_alone(struct tally *t, uint32_t x)
{
	const struct gdr_fabric *f = t->f;
	uint32_t nb = 0, alone = 1;

	if (!t->nic_all[x] || t->nic_bad[x] != t->nic_all[x])
		return 0;
	memset(t->scratch, 0, f->nlink * sizeof(uint32_t));
	for (uint32_t k = 0; k < t->nr; k++) {
		unsigned n;

		if (!t->r[k].bad || (t->r[k].src != x && t->r[k].dst != x))
			continue;
		nb++;
		n = route(t, &t->r[k]);
		for (unsigned h = 0; h < n; h++)
			t->scratch[t->hop[h] / 2]++;
	}
	for (uint32_t l = 0; l < f->nlink; l++)
		if (l != f->nic[x].link && t->scratch[l] == nb && t->votes[l] > nb)
			alone = 0; /* a cable on all its bad routes carries other bad pairs too */
	return alone;
}

static int nics(struct tally *t, struct gdr_fab_blame *out)
{
	const struct gdr_fabric *f = t->f;
	unsigned char *cand = calloc(f->nnic + 1, 1);
	uint32_t *host_cand = calloc(f->nhost + 1, sizeof(uint32_t));
	uint32_t *host_nics = calloc(f->nhost + 1, sizeof(uint32_t));
	int rc = -1;

	if (!cand || !host_cand || !host_nics)
		goto out;
	for (uint32_t k = 0; k < t->nr; k++) {
		uint32_t e[2] = {t->r[k].src, t->r[k].dst};

		for (int j = 0; j < 2; j++)
			if (t->r[k].bad && !t->explained[k] && !cand[e[j]] && nic_alone(t, e[j]))
				cand[e[j]] = 1;
	}
	for (uint32_t i = 0; i < f->nnic; i++) {
		host_nics[f->nic[i].host] += t->nic_all[i] > 0;
		host_cand[f->nic[i].host] += cand[i];
	}
	for (uint32_t i = 0; i < f->nnic; i++) {
		uint32_t h = f->nic[i].host, expl = 0, at = out->n;
		int named = host_cand[h] == UINT32_MAX;
		int whole = named || (host_nics[h] >= 2 && host_cand[h] == host_nics[h]);
		struct gdr_blame *v = NULL;

		if (!cand[i])
			continue;
		for (uint32_t j = 0; named && j < out->n; j++) /* the host is named: add to it */
			if (out->v[j].kind == GDR_BLAME_HOST && out->v[j].id == h)
				at = j;
		for (uint32_t k = 0; k < t->nr; k++)
			if (t->r[k].bad && !t->explained[k] &&
			    (t->r[k].src == i || t->r[k].dst == i)) {
				t->explained[k] = at + 1;
				expl++;
			}
		if (named) {
			out->v[at].bad += expl;
			out->v[at].pairs += t->nic_all[i];
		}
		if (named)
			continue;
		v = add(out, whole ? GDR_BLAME_HOST : GDR_BLAME_NIC, whole ? h : i, expl,
			t->nic_all[i]);
		if (!v)
			goto out;
		if (whole) {
			snprintf(v->evidence, sizeof(v->evidence),
				 "every pair of its %u NICs bad, no shared cable explains them",
				 host_nics[h]);
			host_cand[h] = UINT32_MAX;
		} else {
			snprintf(v->evidence, sizeof(v->evidence),
				 "all %u of its pairs bad; no cable beyond its own carries other "
				 "bad pairs of them",
				 t->nic_all[i]);
		}
	}
	rc = 0;
out:
	if (rc)
		gdr_err("fabric blame: out of memory");
	free(cand);
	free(host_cand);
	free(host_nics);
	return rc;
}

static int unexplained(struct tally *t, uint32_t spread, struct gdr_fab_blame *out)
{
	uint32_t left = 0, best = GDR_FAB_NONE;
	struct gdr_blame *v;

	memset(t->scratch, 0, t->f->nlink * sizeof(uint32_t));
	for (uint32_t k = 0; k < t->nr; k++) {
		unsigned n;

		if (!t->r[k].bad || t->explained[k])
			continue;
		t->explained[k] = UINT32_MAX; /* for now: left over */
		left++;
		n = route(t, &t->r[k]);
		for (unsigned h = 0; h < n; h++)
			t->scratch[t->hop[h] / 2]++;
	}
	if (!left)
		return 0;
	for (uint32_t l = 0; l < t->f->nlink; l++)
		if (t->scratch[l] && (best == GDR_FAB_NONE || t->scratch[l] > t->scratch[best]))
			best = l;
	for (uint32_t k = 0; k < t->nr; k++)
		if (t->explained[k] == UINT32_MAX)
			t->explained[k] = out->n + 1;
	v = add(out, GDR_BLAME_UNEXPLAINED, best, left,
		best == GDR_FAB_NONE ? 0 : t->through[best]);
	if (!v)
		return -1;
	snprintf(v->evidence, sizeof(v->evidence),
		 "%u bad pairs no rule explains; %u of them cross this cable%s", left,
		 best == GDR_FAB_NONE ? 0 : t->scratch[best],
		 spread > 2 ? "; transmit wait spread over many switches: congestion?" : "");
	return 0;
}

int gdr_fab_blame(const struct gdr_fabric *f, const struct gdr_fab_result *r, uint32_t nr,
		  const struct gdr_fab_ctr *ctr, const struct gdr_fab_result *retest,
		  uint32_t nretest, struct gdr_fab_blame *out)
{
	struct tally t = {.f = f, .r = r, .nr = nr};
	uint32_t spread = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (f->tiers > 16) {
		gdr_err("fabric blame: %u tiers: at most 16", f->tiers);
		return -1;
	}
	t.votes = calloc(f->nlink + 1, sizeof(uint32_t));
	t.through = calloc(f->nlink + 1, sizeof(uint32_t));
	t.scratch = calloc(f->nlink + 1, sizeof(uint32_t));
	t.nic_bad = calloc(f->nnic + 1, sizeof(uint32_t));
	t.nic_all = calloc(f->nnic + 1, sizeof(uint32_t));
	t.explained = calloc(nr + 1, sizeof(uint32_t));
	if (!t.votes || !t.through || !t.scratch || !t.nic_bad || !t.nic_all || !t.explained) {
		gdr_err("fabric blame: out of memory");
		goto out;
	}
	tally(&t);
	if (cables(&t, ctr, retest, nretest, out) || switches(&t, ctr, out, &spread) ||
	    nics(&t, out) || unexplained(&t, spread, out))
		goto out;
	out->why = malloc((nr + 1) * sizeof(*out->why));
	if (!out->why) {
		gdr_err("fabric blame: out of memory");
		goto out;
	}
	for (uint32_t k = 0; k < nr; k++)
		out->why[k] = t.explained[k] ? t.explained[k] - 1 : GDR_FAB_NONE;
	rc = 0;
out:
	if (rc)
		gdr_fab_blame_free(out);
	free(t.votes);
	free(t.through);
	free(t.scratch);
	free(t.nic_bad);
	free(t.nic_all);
	free(t.explained);
	return rc;
}

int gdr_fab_retest_rounds(const struct gdr_fabric *f, const struct gdr_fab_blame *b,
			  const struct gdr_fab_result *r, uint32_t nr, struct gdr_fab_plan *p)
{
	struct tally t = {.f = f, .r = r, .nr = nr};
	uint32_t *used = calloc(f->nnic + 1, sizeof(uint32_t));

	if (!used) {
		gdr_err("fabric blame: out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < b->n; i++) {
		if (b->v[i].kind != GDR_BLAME_CABLE_SUSPECT)
			continue;
		if (gdr_fab_plan_round(p, GDR_FAB_RETEST, 0, 0))
			goto fail;
		for (int bad = 1; bad >= 0; bad--) /* the bad pairs first */
			for (uint32_t k = 0; k < nr; k++) {
				if ((r[k].bad != 0) != bad || used[r[k].src] == p->nround ||
				    used[r[k].dst] == p->nround || !crosses(&t, &r[k], b->v[i].id))
					continue;
				used[r[k].src] = used[r[k].dst] = p->nround;
				if (gdr_fab_plan_add(p, r[k].src, r[k].dst))
					goto fail;
			}
	}
	free(used);
	return 0;
fail:
	free(used);
	return -1;
}

const char *gdr_fab_blame_text(const struct gdr_fabric *f, const struct gdr_blame *v, char *buf,
			       unsigned len)
{
	static const char *const kind[] = {"cable", "cable (suspect)", "switch", "NIC",
					   "host",  "unexplained"};
	char name[5 * GDR_FAB_NAME + 16];

	if (v->kind == GDR_BLAME_SWITCH)
		snprintf(name, sizeof(name), "%s", f->sw[v->id].name);
	else if (v->kind == GDR_BLAME_NIC)
		gdr_fab_node_name(f, f->nsw + v->id, name, sizeof(name));
	else if (v->kind == GDR_BLAME_HOST)
		snprintf(name, sizeof(name), "%s", f->host[v->id]);
	else if (v->id != GDR_FAB_NONE)
		gdr_fab_link_name(f, v->id, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "-");
	if (v->kind == GDR_BLAME_UNEXPLAINED)
		snprintf(buf, len, "unexplained, lead %s%s: %s",
			 v->id == GDR_FAB_NONE ? "" : "cable ", name, v->evidence);
	else
		snprintf(buf, len, "%s %s: %s", kind[v->kind], name, v->evidence);
	return buf;
}
