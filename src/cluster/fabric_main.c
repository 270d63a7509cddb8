/* SPDX-License-Identifier: MIT */
/*
 * gdr_fabric_plan: the rounds that load every cable of a fabric both ways,
 * printed from its topology (ibnetdiscover, topology.conf or a links file).
 *
 *   gdr_fabric_plan --topology=ibnetdiscover:FILE [--summary | --pairs-file]
 *   gdr_fabric_plan --topology=slurm:FILE --rails=8
 *   gdr_fabric_plan --topology=links:FILE --ecmp=0.001 --qps=4 (RoCE: the rounds again
 *     on new QPs until every leaf pair's ECMP paths are likely hit, fabric_ecmp.c)
 *
 * --pairs-file prints the rounds as rank pairs for --cluster --pairs-file,
 * rank = host (by name) x NICs a host + rail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fabric_ecmp.h"
#include "fabric_plan.h"
#include "log.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage(void)
{
	fprintf(stderr, "usage: gdr_fabric_plan --topology={ibnetdiscover,slurm,links}:FILE "
			"[--rails=N] [--ecmp[=EPS] [--qps=N]] [--summary | --pairs-file]\n");
	return 2;
}

static const struct gdr_fabric *name_f;

static int host_cmp(const void *a, const void *b)
{
	return strcmp(name_f->host[*(const uint32_t *)a], name_f->host[*(const uint32_t *)b]);
}

/* rank of each NIC: hosts by name, rails in order; 0 or -1. */
static int ranks(const struct gdr_fabric *f, uint32_t *rank)
{
	uint32_t *order = malloc(((size_t)f->nhost + 1) * sizeof(*order)), *place, per = 0;

	place = malloc(((size_t)f->nhost + 1) * sizeof(*place));
	if (!order || !place) {
		free(order);
		free(place);
		return -1;
	}
	for (uint32_t h = 0; h < f->nhost; h++)
		order[h] = h;
	name_f = f;
	qsort(order, f->nhost, sizeof(*order), host_cmp);
	for (uint32_t h = 0; h < f->nhost; h++)
		place[order[h]] = h;
	for (uint32_t i = 0; i < f->nnic; i++)
		per = f->nic[i].rail + 1 > per ? f->nic[i].rail + 1 : per;
	for (uint32_t i = 0; i < f->nnic; i++)
		rank[i] = place[f->nic[i].host] * per + f->nic[i].rail;
	free(order);
	free(place);
	return 0;
}

static void print_plan(const struct gdr_fabric *f, const struct gdr_fab_plan *p, int summary)
{
	char a[2 * GDR_FAB_NAME + 2], b[2 * GDR_FAB_NAME + 2];

	for (uint32_t r = 0; r < p->nround; r++) {
		const struct gdr_fab_round *rd = &p->round[r];

		if (rd->kind == GDR_FAB_SHIFT)
			printf("round %u: ring of the pods below tier %u, part %u: %u pairs\n",
			       r + 1, rd->tier, rd->part + 1, rd->n);
		else if (rd->kind == GDR_FAB_ECMP)
			printf(
			    "round %u: round %u again on new QPs (new UDP source ports), copy %u: "
			    "%u pairs\n",
			    r + 1, rd->part + 1, rd->copy, rd->n);
		else
			printf("round %u: fix-up for cables the rings left idle: %u pairs\n", r + 1,
			       rd->n);
		for (uint32_t k = rd->first; k < rd->first + rd->n && !summary; k++)
			printf("  %s > %s\n",
			       gdr_fab_node_name(f, f->nsw + p->pair[k].src, a, sizeof(a)),
			       gdr_fab_node_name(f, f->nsw + p->pair[k].dst, b, sizeof(b)));
	}
}

/* The first 20 idle cable directions, by name. */
static void print_idle(const struct gdr_fabric *f, const struct gdr_fab_plan *p)
{
	uint32_t *cover = calloc(2 * (size_t)f->nlink + 1, sizeof(*cover)), shown = 0;
	char name[5 * GDR_FAB_NAME + 16];

	if (!cover)
		return;
	gdr_fab_cover(f, p, cover);
	for (uint32_t d = 0; d < 2 * f->nlink && shown < 20; d++)
		if (!cover[d]) {
			printf("  idle: %s, %s\n", gdr_fab_link_name(f, d / 2, name, sizeof(name)),
			       d % 2 ? "right to left" : "left to right");
			shown++;
		}
	free(cover);
}

static int print_pairs(const struct gdr_fabric *f, const struct gdr_fab_plan *p)
{
	uint32_t *rank = malloc(((size_t)f->nnic + 1) * sizeof(*rank));

	if (!rank || ranks(f, rank)) {
		free(rank);
		gdr_err("gdr_fabric_plan: out of memory");
		return -1;
	}
	printf("# rank = host (sorted by name) x NICs a host + rail; data flows client > server:\n"
	       "# run with --bidirectional so that every cable carries data both ways\n");
	for (uint32_t r = 0; r < p->nround; r++) {
		for (uint32_t k = p->round[r].first; k < p->round[r].first + p->round[r].n; k++)
			printf("%s%u:%u", k == p->round[r].first ? "" : " ", rank[p->pair[k].src],
			       rank[p->pair[k].dst]);
		printf("\n");
	}
	free(rank);
	return 0;
}

int main(int argc, char **argv)
{
	const char *topo = NULL;
	unsigned rails = 1, qps = 1;
	double eps = 0; /* --ecmp: a path missed with at most this probability */
	struct gdr_fab_ecmp_info ecmp = {1, 0, 0};
	int summary = 0, pairs = 0, rc = 1;
	struct gdr_fabric f;
	struct gdr_fab_plan p;
	double t0;
	clock_t c0;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strncmp(argv[i], "--topology=", 11))
			topo = argv[i] + 11;
		else if (!strncmp(argv[i], "--rails=", 8)) {
			unsigned long v = strtoul(argv[i] + 8, &end, 10);

			if (*end || !argv[i][8] || v < 1 || v > 64) {
				gdr_err("--rails=%s: expected 1 to 64", argv[i] + 8);
				return 2;
			}
			rails = (unsigned)v;
		} else if (!strcmp(argv[i], "--ecmp") || !strncmp(argv[i], "--ecmp=", 7)) {
			eps = argv[i][6] ? strtod(argv[i] + 7, &end) : 0.001;
			if ((argv[i][6] && (*end || !argv[i][7])) || !(eps > 0 && eps < 1)) {
				gdr_err("%s: expected --ecmp or --ecmp=EPS, 0 < EPS < 1", argv[i]);
				return 2;
			}
		} else if (!strncmp(argv[i], "--qps=", 6)) {
			unsigned long v = strtoul(argv[i] + 6, &end, 10);

			if (*end || !argv[i][6] || v < 1 || v > 64) {
				gdr_err("--qps=%s: expected 1 to 64", argv[i] + 6);
				return 2;
			}
			qps = (unsigned)v;
		} else if (!strcmp(argv[i], "--summary"))
			summary = 1;
		else if (!strcmp(argv[i], "--pairs-file"))
			pairs = 1;
		else
			return usage();
	}
	if (!topo)
		return usage();
	if (gdr_fab_load(&f, topo, rails))
		return 2;
	t0 = now_s();
	c0 = clock();
	if (gdr_fab_plan(&f, &p))
		goto out;
	if (eps > 0 && gdr_fab_ecmp(&f, &p, qps, eps, &ecmp)) {
		gdr_fab_plan_free(&p);
		goto out;
	}
	fprintf(stderr, "planned in %.3f s (%.3f s of CPU)\n", now_s() - t0,
		(double)(clock() - c0) / CLOCKS_PER_SEC);
	if (pairs) {
		rc = print_pairs(&f, &p) ? 1 : 0;
		gdr_fab_plan_free(&p);
		goto out;
	}
	printf("fabric: %u NICs on %u hosts, %u switches in %u tiers, %u planes, %u cables\n",
	       f.nnic, f.nhost, f.nsw, f.tiers, f.nplane, f.nlink);
	printf("plan: %u rounds (the bound for fat trees: 2 x tiers + 1 = %u), %u pairs\n",
	       p.nround, 2 * f.tiers + 1, p.npair);
	if (p.uncovered)
		printf("plan: %u cable directions carry no data under the routing model "
		       "(cables between switches of one tier, or unreachable)\n",
		       p.uncovered);
	else
		printf("plan: every cable carries data both ways under the routing model\n");
	if (eps > 0)
		printf(
		    "ecmp: %u run(s) of the rounds (1: the plan alone), so that each leaf pair's "
		    "flows (its NIC pairs x %u QPs x runs) hit each of its up paths (%llu at "
		    "most, %llu flows needed) with probability >= 1 - %g under a uniform hash\n",
		    ecmp.copies, qps, (unsigned long long)ecmp.max_paths,
		    (unsigned long long)ecmp.flows, eps);
	if (p.uncovered)
		print_idle(&f, &p);
	print_plan(&f, &p, summary);
	rc = p.uncovered ? 1 : 0;
	gdr_fab_plan_free(&p);
out:
	gdr_fab_free(&f);
	return rc;
}
