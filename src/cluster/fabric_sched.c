/* SPDX-License-Identifier: MIT */
/* --topology: the planner's rounds over the job's ranks (each NIC of the fabric to its rank). */
#include <stdlib.h>
#include <string.h>
#include "fabric_sched.h"
#include "log.h"
#include "opts.h"

enum gdr_fab_flow gdr_fab_flow_of(int verb, int kind, bool bidir)
{
	bool fetches = gdr_verb_fetches((enum gdr_verb)verb);

	if (bidir || (kind == GDR_KIND_LAT && !fetches)) /* -b, or a ping-pong */
		return GDR_FLOW_BOTH;
	return fetches ? GDR_FLOW_TO_CLIENT : GDR_FLOW_TO_SERVER;
}

void gdr_fab_job_free(struct gdr_fab_job *fj)
{
	gdr_fab_free(&fj->f);
	free(fj->rank);
	free(fj->nic);
	fj->rank = fj->nic = NULL;
}

const char *gdr_fab_job_route(const struct gdr_fab_job *fj, enum gdr_fab_flow flow, int32_t a,
			      int32_t b, char *buf, unsigned len)
{
	uint32_t srv = a >= 0 && a < fj->nranks ? fj->nic[a] : GDR_FAB_NONE;
	uint32_t cli = b >= 0 && b < fj->nranks ? fj->nic[b] : GDR_FAB_NONE;
	size_t k;

	if (!len)
		return NULL;
	buf[0] = '\0';
	if (srv == GDR_FAB_NONE || cli == GDR_FAB_NONE ||
	    !gdr_fab_route_text(&fj->f, flow == GDR_FLOW_TO_CLIENT ? srv : cli,
				flow == GDR_FLOW_TO_CLIENT ? cli : srv, buf, len))
		return NULL;
	if (flow != GDR_FLOW_BOTH)
		return buf;
	k = strlen(buf); /* and back: the server's cable again, where the data turns */
	if (k + sizeof(GDR_FAB_ROUTE_SEP) > len)
		return NULL;
	memcpy(buf + k, GDR_FAB_ROUTE_SEP, sizeof(GDR_FAB_ROUTE_SEP));
	return gdr_fab_route_text(&fj->f, srv, cli, buf, len) ? buf : NULL;
}

/* The fabric's NIC of rank pl, or GDR_FAB_NONE. by_rail[host * 64 + rail]. */
static uint32_t nic_of(const struct gdr_fabric *f, const struct gdr_place *pl,
		       const uint32_t *by_rail)
{
	char host[sizeof(pl->host)], dev[sizeof(pl->nic)];
	uint32_t n, h;

	snprintf(host, sizeof(host), "%s", pl->host);
	snprintf(dev, sizeof(dev), "%s", pl->nic);
	for (int pass = 0; pass < 2; pass++) {
		n = gdr_fab_find_nic(f, host, dev);
		if (n == GDR_FAB_NONE && strstr(dev, ":1") && !strcmp(strstr(dev, ":1"), ":1")) {
			char bare[sizeof(dev)];

			snprintf(bare, sizeof(bare), "%.*s", (int)(strlen(dev) - 2), dev);
			n = gdr_fab_find_nic(f, host, bare); /* "mlx5_3:1" is "mlx5_3" */
		}
		h = gdr_fab_find_host(f, host);
		if (n == GDR_FAB_NONE && h != GDR_FAB_NONE && pl->rail >= 0 && pl->rail < 64)
			n = by_rail[(size_t)h * 64 + (uint32_t)pl->rail];
		if (n != GDR_FAB_NONE || !strchr(host, '.'))
			return n;
		*strchr(host, '.') = '\0'; /* again with the short name */
	}
	return GDR_FAB_NONE;
}

/* Was the pair (a, b) in an earlier round? Adds it if not. */
static int seen_pair(uint64_t *set, size_t cap, uint32_t a, uint32_t b)
{
	uint64_t key = ((uint64_t)a << 32 | b) + 1;
	size_t j = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);

	for (; set[j]; j = (j + 1) & (cap - 1))
		if (set[j] == key)
			return 1;
	set[j] = key;
	return 0;
}

/* The rank pair {server, client} that carries data from rank a to rank b. */
static void direct(enum gdr_fab_flow flow, uint32_t a, uint32_t b, uint32_t *srv, uint32_t *cli)
{
	if (flow == GDR_FLOW_BOTH) {
		*srv = a < b ? a : b;
		*cli = a < b ? b : a;
	} else {
		*srv = flow == GDR_FLOW_TO_SERVER ? b : a;
		*cli = flow == GDR_FLOW_TO_SERVER ? a : b;
	}
}

int gdr_fab_to_ranks(const struct gdr_fab_plan *p, const uint32_t *rank, int nranks,
		     enum gdr_fab_flow flow, struct gdr_sched *s, unsigned *missing)
{
	uint32_t *seen = calloc((size_t)nranks + 1, sizeof(*seen));
	size_t cap = 16;
	uint64_t *set;

	while (cap < 2 * (size_t)p->npair)
		cap *= 2;
	set = calloc(cap, sizeof(*set));
	memset(s, 0, sizeof(*s));
	s->start = calloc((size_t)p->nround + 2, sizeof(*s->start));
	s->pair = calloc((size_t)p->npair + 1, sizeof(*s->pair));
	if (!seen || !set || !s->start || !s->pair) {
		free(seen);
		free(set);
		gdr_sched_free(s);
		gdr_err("--topology: out of memory");
		return -1;
	}
	for (uint32_t r = 0, copy = 0; r < p->nround; r++) {
		unsigned before = s->npairs;

		if (p->round[r].kind == GDR_FAB_ECMP && p->round[r].copy != copy) {
			copy = p->round[r].copy; /* a new run of the plan: its pairs again */
			memset(set, 0, cap * sizeof(*set));
		}

		for (uint32_t k = p->round[r].first; k < p->round[r].first + p->round[r].n; k++) {
			uint32_t a = rank[p->pair[k].src], b = rank[p->pair[k].dst], srv, cli;

			if (a == GDR_FAB_NONE || b == GDR_FAB_NONE) {
				(*missing)++;
				continue;
			}
			direct(flow, a, b, &srv, &cli);
			if (a == b || seen[a] == s->nrounds + 1 || seen[b] == s->nrounds + 1 ||
			    seen_pair(set, cap, srv, cli))
				continue; /* ranks sharing a NIC, or a pair already met */
			seen[a] = seen[b] = s->nrounds + 1;
			s->pair[s->npairs][0] = srv;
			s->pair[s->npairs][1] = cli;
			s->npairs++;
		}
		if (s->npairs > before)
			s->start[++s->nrounds] = s->npairs;
	}
	free(seen);
	free(set);
	return 0;
}

int gdr_fab_sched(const char *spec, const struct gdr_place *pl, int nranks, enum gdr_fab_flow flow,
		  unsigned qps, double eps, struct gdr_sched *s, unsigned *missing,
		  struct gdr_fab_job *keep)
{
	struct gdr_fab_job j = {.nranks = nranks, .ecmp = {1, 0, 0}};
	struct gdr_fabric *f = &j.f;
	struct gdr_fab_plan p;
	uint32_t *by_rail = NULL, rails = 1;
	int rc = -1;

	*missing = 0;
	for (int r = 0; r < nranks; r++)
		rails = pl[r].rail >= 0 && (uint32_t)pl[r].rail + 1 > rails
			    ? (uint32_t)pl[r].rail + 1
			    : rails;
	if (gdr_fab_load(f, spec, rails))
		return -1;
	if (gdr_fab_plan(f, &p))
		goto out_fab;
	j.planned = p.nround;
	if (eps > 0 && gdr_fab_ecmp(f, &p, qps, eps, &j.ecmp)) {
		gdr_fab_plan_free(&p);
		goto out_fab;
	}
	by_rail = malloc(((size_t)f->nhost * 64 + 1) * sizeof(*by_rail));
	j.rank = malloc(((size_t)f->nnic + 1) * sizeof(*j.rank));
	j.nic = malloc(((size_t)nranks + 1) * sizeof(*j.nic));
	if (!by_rail || !j.rank || !j.nic) {
		gdr_err("--topology: out of memory");
		goto out;
	}
	memset(by_rail, 0xff, ((size_t)f->nhost * 64 + 1) * sizeof(*by_rail));
	memset(j.rank, 0xff, ((size_t)f->nnic + 1) * sizeof(*j.rank));
	memset(j.nic, 0xff, ((size_t)nranks + 1) * sizeof(*j.nic));
	for (uint32_t i = 0; i < f->nnic; i++)
		if (f->nic[i].rail < 64)
			by_rail[(size_t)f->nic[i].host * 64 + f->nic[i].rail] = i;
	for (int r = 0; r < nranks; r++) {
		uint32_t n = nic_of(f, &pl[r], by_rail);

		if (n != GDR_FAB_NONE && j.rank[n] == GDR_FAB_NONE) {
			j.rank[n] = (uint32_t)r;
			j.nic[r] = n;
		}
	}
	rc = gdr_fab_to_ranks(&p, j.rank, nranks, flow, s, missing);
	if (!rc && !s->npairs) {
		gdr_err("--topology=%s: no NIC of the fabric is a rank's (host names and devices, "
			"or hosts and rails, differ)",
			spec);
		gdr_sched_free(s);
		rc = -1;
	}
out:
	free(by_rail);
	gdr_fab_plan_free(&p);
	if (!rc && keep) {
		*keep = j;
		return 0;
	}
	free(j.rank);
	free(j.nic);
out_fab:
	gdr_fab_free(f);
	return rc;
}
