/* SPDX-License-Identifier: MIT */
/*
 * Unit test: the fabric planner. On synthetic 2- and 3-tier fat trees and
 * rail-optimized fabrics up to 10,000 hosts x 8 rails, and on the fixtures
 * (ibnetdiscover from ibsim, topology.conf, a links file): every route is a
 * path of cables from its source to its destination, no NIC is twice in a
 * round, every cable carries data both ways (counted here, route by route),
 * and the rounds stay within 2 x tiers + 1. The plan as a cluster job's rank
 * pairs (ranks in a shuffled order; the data of a write or send from the
 * client to the server, of a read from the server, with -b both ways) loads
 * every cable direction the plan loads, with no rank twice in a round. The
 * checker is shown to catch a plan with a round left out and one with a NIC
 * twice in a round.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fabric_plan.h"
#include "fabric_sched.h"
#include "log.h"
#include "opts.h"

#include "check.h"
#include "fabric_synth.h"

#define FIXTURES "tests/unit/fabric" /* from the source tree ($srcdir) */

/* Every hop follows the last; from a's cable to b's. Violations. */
static unsigned route_ok(const struct gdr_fabric *f, uint32_t a, uint32_t b)
{
	uint32_t hop[2 * 16 + 2], at = f->nsw + a;
	unsigned n = gdr_fab_route(f, a, b, hop), bad = 0;

	if (!n || n > 2 * f->tiers)
		return 1;
	for (unsigned k = 0; k < n; k++) {
		const struct gdr_fab_link *l = &f->link[hop[k] / 2];

		bad += l->node[hop[k] % 2] != at;
		at = l->node[!(hop[k] % 2)];
	}
	return bad + (at != f->nsw + b);
}

struct verdict {
	unsigned twice, idle, bad_routes;
};

/* The plan's properties, counted independently of how it was made. */
static struct verdict judge(const struct gdr_fabric *f, const struct gdr_fab_plan *p)
{
	struct verdict v = {0, 0, 0};
	uint32_t *cover = calloc(2 * (size_t)f->nlink, sizeof(*cover));
	uint32_t *seen = calloc(f->nnic, sizeof(*seen)), hop[2 * 16 + 2];

	for (uint32_t r = 0; r < p->nround; r++)
		for (uint32_t k = p->round[r].first; k < p->round[r].first + p->round[r].n; k++) {
			uint32_t a = p->pair[k].src, b = p->pair[k].dst;
			unsigned n;

			v.twice += seen[a] == r + 1 || seen[b] == r + 1 || a == b;
			seen[a] = seen[b] = r + 1;
			n = gdr_fab_route(f, a, b, hop);
			v.bad_routes += !n;
			for (unsigned h = 0; h < n; h++)
				cover[hop[h]]++;
		}
	for (uint32_t d = 0; d < 2 * f->nlink; d++)
		v.idle += !cover[d];
	free(cover);
	free(seen);
	return v;
}

/*
 * The plan as rank pairs {server, client} of a job whose ranks are the NICs in
 * a shuffled order, for each flow: the cable directions their data loads
 * (client to server, server to client, or both) must be every one the plan
 * loads, no rank twice in a round. Cable directions the ranks leave idle.
 */
static unsigned ranks_idle(const struct gdr_fabric *f, const struct gdr_fab_plan *p,
			   enum gdr_fab_flow flow, unsigned *twice)
{
	uint32_t *rank = malloc(((size_t)f->nnic + 1) * sizeof(*rank));
	uint32_t *nic = malloc(((size_t)f->nnic + 1) * sizeof(*nic));
	uint32_t *want = calloc(2 * (size_t)f->nlink + 1, sizeof(*want));
	uint32_t *got = calloc(2 * (size_t)f->nlink + 1, sizeof(*got));
	uint32_t *seen = calloc((size_t)f->nnic + 1, sizeof(*seen)), hop[2 * 16 + 2];
	struct gdr_sched s;
	unsigned missing = 0, idle = 0;

	*twice = 0;
	for (uint32_t i = 0; i < f->nnic; i++) { /* 1000003 is prime: a permutation */
		rank[i] = (uint32_t)(((uint64_t)i * 1000003u + 7) % f->nnic);
		nic[rank[i]] = i;
	}
	gdr_fab_cover(f, p, want);
	if (gdr_fab_to_ranks(p, rank, (int)f->nnic, flow, &s, &missing)) {
		idle = 1;
		goto out;
	}
	for (unsigned r = 0; r < s.nrounds; r++)
		for (unsigned k = s.start[r]; k < s.start[r + 1]; k++) {
			uint32_t srv = nic[s.pair[k][0]], cli = nic[s.pair[k][1]];

			*twice += seen[srv] == r + 1 || seen[cli] == r + 1;
			seen[srv] = seen[cli] = r + 1;
			for (int d = 0; d < 2; d++) {
				int to_server = d == 0;
				unsigned n;

				if ((flow == GDR_FLOW_TO_SERVER && !to_server) ||
				    (flow == GDR_FLOW_TO_CLIENT && to_server))
					continue;
				n = gdr_fab_route(f, to_server ? cli : srv, to_server ? srv : cli,
						  hop);
				for (unsigned h = 0; h < n; h++)
					got[hop[h]]++;
			}
		}
	for (uint32_t d = 0; d < 2 * f->nlink; d++)
		idle += want[d] && !got[d];
	idle += missing;
	gdr_sched_free(&s);
out:
	free(rank);
	free(nic);
	free(want);
	free(got);
	free(seen);
	return idle;
}

/* Directed cables some pair's route loads, over every pair (small fabrics). */
static uint32_t *reachable(const struct gdr_fabric *f)
{
	uint32_t *can = calloc(2 * (size_t)f->nlink, sizeof(*can)), hop[2 * 16 + 2];

	for (uint32_t a = 0; a < f->nnic; a++)
		for (uint32_t b = 0; b < f->nnic; b++) {
			unsigned n = a == b ? 0 : gdr_fab_route(f, a, b, hop);

			for (unsigned h = 0; h < n; h++)
				can[hop[h]] = 1;
		}
	return can;
}

/*
 * regular: full leaves and pods, where the plan must load every cable both
 * ways within the bound. Otherwise (a small fabric) every cable direction that
 * any pair's route loads, and NICs at most once a round.
 */
static void fabric_case(const char *name, const struct synth *s, int regular)
{
	struct gdr_fabric f;
	struct gdr_fab_plan p;
	struct verdict v;
	unsigned bad = 0, missed = 0;

	CHECK(synth_build(&f, s) == 0, "%s: built", name);
	CHECK(f.tiers == s->tiers, "%s: %u tiers", name, f.tiers);
	CHECK(f.nplane == (s->rail_opt ? s->rails : 1), "%s: %u planes", name, f.nplane);
	CHECK(gdr_fab_plan(&f, &p) == 0, "%s: planned", name);
	v = judge(&f, &p);
	for (uint32_t i = 0; i < f.nnic && i < 4000; i += 7) {
		uint32_t b = (uint32_t)(((uint64_t)i * 2654435761u) % f.nnic);

		if (b != i && f.sw[f.nic[i].sw].plane == f.sw[f.nic[b].sw].plane)
			bad += route_ok(&f, i, b) != 0;
	}
	CHECK(!bad, "%s: %u routes not a path", name, bad);
	CHECK(!v.twice, "%s: %u NICs twice in a round", name, v.twice);
	CHECK(!v.bad_routes, "%s: %u pairs without a route", name, v.bad_routes);
	if (regular) {
		CHECK(!v.idle && !p.uncovered, "%s: %u cable directions idle (planner says %u)",
		      name, v.idle, p.uncovered);
		CHECK(p.nround <= 2 * f.tiers + 1, "%s: %u rounds over 2 x %u + 1", name, p.nround,
		      f.tiers);
	} else {
		uint32_t *can = reachable(&f), *cover = calloc(2 * (size_t)f.nlink, sizeof(*cover));

		gdr_fab_cover(&f, &p, cover);
		for (uint32_t d = 0; d < 2 * f.nlink; d++)
			missed += can[d] && !cover[d];
		CHECK(!missed, "%s: %u loadable cable directions idle", name, missed);
		free(can);
		free(cover);
	}
	for (enum gdr_fab_flow fl = GDR_FLOW_TO_SERVER; fl <= GDR_FLOW_BOTH; fl++) {
		static const char *const flows[] = {"client to server", "server to client",
						     "both ways (-b)"};
		unsigned twice, idle = ranks_idle(&f, &p, fl, &twice);

		CHECK(!idle && !twice,
		      "%s, as rank pairs, data %s: %u cable directions the plan loads left idle, "
		      "%u ranks twice in a round",
		      name, flows[fl], idle, twice);
	}
	printf("%s: %u NICs, %u switches, %u cables: %u rounds, %u pairs, %u cable directions "
	       "idle\n",
	       name, f.nnic, f.nsw, f.nlink, p.nround, p.npair, v.idle);
	gdr_fab_plan_free(&p);
	gdr_fab_free(&f);
}

/* The checker fails a plan with its last round left out, and one with a NIC twice. */
static void checker_can_fail(void)
{
	struct synth s = {2, 64, 1, 8, 4, 0, 0, 0};
	struct gdr_fabric f;
	struct gdr_fab_plan p;
	struct verdict v;

	CHECK(synth_build(&f, &s) == 0 && gdr_fab_plan(&f, &p) == 0);
	CHECK(p.nround >= 2 && p.round[0].n >= 2);
	p.nround--;
	v = judge(&f, &p);
	CHECK(v.idle > 0, "a round left out: %u idle", v.idle);
	p.nround++;
	p.pair[p.round[0].first + 1].src = p.pair[p.round[0].first].dst;
	v = judge(&f, &p);
	CHECK(v.twice > 0, "a NIC twice: %u", v.twice);
	gdr_fab_plan_free(&p);
	gdr_fab_free(&f);
}

static void fixture(const char *spec, unsigned rails, uint32_t nic, uint32_t host, uint32_t sw,
		    uint32_t tiers, uint32_t planes, uint32_t cables)
{
	struct gdr_fabric f;
	struct gdr_fab_plan p;
	struct verdict v;

	if (gdr_fab_load(&f, spec, rails)) {
		CHECK(0, "%s: loaded", spec);
		return;
	}
	CHECK(f.nnic == nic && f.nhost == host && f.nsw == sw && f.tiers == tiers &&
		  f.nplane == planes && f.nlink == cables,
	      "%s: %u NICs %u hosts %u switches %u tiers %u planes %u cables", spec, f.nnic,
	      f.nhost, f.nsw, f.tiers, f.nplane, f.nlink);
	CHECK(gdr_fab_plan(&f, &p) == 0);
	v = judge(&f, &p);
	CHECK(!v.twice && !v.idle && p.nround <= 2 * f.tiers + 1, "%s: %u twice %u idle %u rounds",
	      spec, v.twice, v.idle, p.nround);
	gdr_fab_plan_free(&p);
	gdr_fab_free(&f);
}

static void readers(void)
{
	struct gdr_fabric f;
	uint32_t n;

	/* ibsim's fabrics through ibnetdiscover */
	fixture("ibnetdiscover:" FIXTURES "/ft2-rail2.ibnd", 1, 8, 4, 8, 2, 2, 16);
	fixture("ibnetdiscover:" FIXTURES "/ft3.ibnd", 1, 8, 8, 12, 3, 1, 24);
	if (!gdr_fab_load(&f, "ibnetdiscover:" FIXTURES "/ft2-rail2.ibnd", 1)) {
		n = gdr_fab_find_nic(&f, "node3", "mlx5_1");
		CHECK(n != GDR_FAB_NONE && f.nic[n].rail == 1 &&
			  !strcmp(f.sw[f.nic[n].sw].name, "r1-leaf1"),
		      "node3 mlx5_1: rail 1 on r1-leaf1");
		gdr_fab_free(&f);
	}
	/* topology.conf: 2 leaves of 3 hosts (host lists), a spine; 2 rails a host */
	fixture("slurm:" FIXTURES "/topology.conf", 2, 12, 6, 3, 2, 1, 14);
	if (!gdr_fab_load(&f, "slurm:" FIXTURES "/topology.conf", 2)) {
		CHECK(gdr_fab_find_nic(&f, "gpu007", "rail1") != GDR_FAB_NONE, "gpu[007,9]");
		CHECK(gdr_fab_find_nic(&f, "gpu9", "rail0") != GDR_FAB_NONE, "gpu[007,9]");
		gdr_fab_free(&f);
	}
	/* a links file from LLDP: 4 hosts x 2 netdevs, 2 rail leaves, 1 spine */
	fixture("links:" FIXTURES "/lldp.links", 1, 8, 4, 3, 2, 1, 12);
	if (!gdr_fab_load(&f, "links:" FIXTURES "/lldp.links", 1)) {
		n = gdr_fab_find_nic(&f, "h2", "eth1");
		CHECK(n != GDR_FAB_NONE && f.nic[n].rail == 1, "h2:eth1 is rail 1");
		gdr_fab_free(&f);
	}
	/* bad input: refused, one line */
	CHECK(gdr_fab_load(&f, "links:" FIXTURES "/bad.links", 1) == -1);
	CHECK(gdr_fab_load(&f, "slurm:" FIXTURES "/lldp.links", 1) == -1);
	CHECK(gdr_fab_load(&f, "ibnetdiscover:" FIXTURES "/topology.conf", 1) == -1);
	CHECK(gdr_fab_load(&f, "nonsense:x", 1) == -1);
	CHECK(gdr_fab_load(&f, "links:" FIXTURES "/missing", 1) == -1);
	/* '>' goes between the cables of a route cell: no name may hold it */
	gdr_fab_init(&f);
	CHECK(gdr_fab_switch(&f, "leaf>0") == GDR_FAB_NONE &&
		  gdr_fab_add_nic(&f, "h>0", "eth0") == GDR_FAB_NONE &&
		  gdr_fab_add_nic(&f, "h0", "eth>0") == GDR_FAB_NONE &&
		  gdr_fab_switch(&f, "leaf0") != GDR_FAB_NONE &&
		  gdr_fab_add_nic(&f, "h0", "eth0") != GDR_FAB_NONE,
	      "a name holding '>' refused, the others not");
	gdr_fab_free(&f);
}

/*
 * --topology's ranks: the ibsim fixture (4 hosts x 2 rails, each rail a plane of
 * two leaves: node0-1, node2-3), ranks in reverse host order with full host names
 * and "mlx5_R:1" devices: every pair is one rail across the two leaves; a rank on
 * a host the fabric lacks leaves its NIC's pairs out, counted.
 */
static void sched(void)
{
	struct gdr_place pl[8];
	struct gdr_sched s;
	struct gdr_fab_job fj;
	unsigned missing = 9, bad = 0;
	const char *spec = "ibnetdiscover:" FIXTURES "/ft2-rail2.ibnd";

	memset(pl, 0, sizeof(pl));
	for (int r = 0; r < 8; r++) {
		snprintf(pl[r].host, sizeof(pl[r].host), "node%d.cluster.example", 3 - r / 2);
		snprintf(pl[r].nic, sizeof(pl[r].nic), "mlx5_%d:1", r % 2);
		pl[r].rail = r % 2;
	}
	CHECK(gdr_fab_sched(spec, pl, 8, GDR_FLOW_BOTH, 1, 0, &s, &missing, NULL) == 0);
	/* the ring's two rounds meet the same pairs (each runs both ways with -b): one round */
	CHECK(s.nrounds == 1 && s.npairs == 4 && missing == 0, "%u rounds %u pairs %u missing",
	      s.nrounds, s.npairs, missing);
	for (unsigned k = 0; k < s.npairs; k++) {
		unsigned a = s.pair[k][0], b = s.pair[k][1];

		bad += a % 2 != b % 2 || (3 - a / 2) / 2 == (3 - b / 2) / 2;
	}
	CHECK(!bad, "%u pairs not one rail across the leaves", bad);
	gdr_sched_free(&s);
	/* one way (a write without -b): each pair once each way, in the two rounds */
	CHECK(gdr_fab_sched(spec, pl, 8, GDR_FLOW_TO_SERVER, 1, 0, &s, &missing, &fj) == 0);
	CHECK(s.nrounds == 2 && s.npairs == 8, "one way: %u rounds %u pairs", s.nrounds, s.npairs);
	for (unsigned k = 0, back = 0; k < s.npairs; k++, bad += back != 1)
		for (unsigned i = back = 0; i < s.npairs; i++)
			back += s.pair[i][0] == s.pair[k][1] && s.pair[i][1] == s.pair[k][0];
	CHECK(!bad, "one way: %u pairs not met once the other way", bad);
	CHECK(fj.nranks == 8 && fj.nic[6] == gdr_fab_find_nic(&fj.f, "node0", "mlx5_0") &&
		  fj.rank[fj.nic[6]] == 6,
	      "the kept fabric maps rank 6 to node0 mlx5_0 and back");
	gdr_fab_job_free(&fj);
	gdr_sched_free(&s);
	CHECK(gdr_fab_flow_of(GDR_VERB_WRITE, GDR_KIND_BW, false) == GDR_FLOW_TO_SERVER &&
		  gdr_fab_flow_of(GDR_VERB_SEND, GDR_KIND_BW, false) == GDR_FLOW_TO_SERVER &&
		  gdr_fab_flow_of(GDR_VERB_READ, GDR_KIND_BW, false) == GDR_FLOW_TO_CLIENT &&
		  gdr_fab_flow_of(GDR_VERB_READ, GDR_KIND_LAT, false) == GDR_FLOW_TO_CLIENT &&
		  gdr_fab_flow_of(GDR_VERB_WRITE, GDR_KIND_LAT, false) == GDR_FLOW_BOTH &&
		  gdr_fab_flow_of(GDR_VERB_WRITE, GDR_KIND_BW, true) == GDR_FLOW_BOTH,
	      "each test's flow");
	snprintf(pl[7].host, sizeof(pl[7].host), "ghost"); /* node0 mlx5_1 has no rank */
	CHECK(gdr_fab_sched(spec, pl, 8, GDR_FLOW_BOTH, 1, 0, &s, &missing, NULL) == 0);
	CHECK(missing == 2 && s.npairs == 3, "%u missing, %u pairs", missing, s.npairs);
	gdr_sched_free(&s);
}

/*
 * --cluster --topology --ecmp: the LLDP fixture (leaves rail0 and rail1 of 4
 * NICs each, 2 cables each up to one spine: P = 2 up paths) for 8 ranks, a
 * write. The plan: 2 rounds of 4 pairs across the leaves. At EPS 0.001 a leaf
 * pair needs F = 11 flows (2 x 0.5^11 = 0.00098 <= 0.001 < 2 x 0.5^10): with
 * -q 1 a round gives 4, so 3 runs of the plan (6 rounds), -q 2: 8, 2 runs; -q
 * 4: 16, the plan alone. Each run's round k holds the plan's round k's pairs
 * in its order, no rank twice in a round; without --ecmp the plan alone.
 */
static void ecmp_sched(void)
{
	static const unsigned qps[] = {1, 2, 4}, runs[] = {3, 2, 1};
	const char *spec = "links:" FIXTURES "/lldp.links";
	struct gdr_place pl[8];
	struct gdr_sched plain, s;
	struct gdr_fab_job fj;
	unsigned missing = 0;

	memset(pl, 0, sizeof(pl));
	for (int r = 0; r < 8; r++) {
		snprintf(pl[r].host, sizeof(pl[r].host), "h%d", r / 2);
		snprintf(pl[r].nic, sizeof(pl[r].nic), "eth%d", r % 2);
		pl[r].rail = r % 2;
	}
	CHECK(gdr_fab_sched(spec, pl, 8, GDR_FLOW_TO_SERVER, 1, 0, &plain, &missing, &fj) == 0);
	CHECK(plain.nrounds == 2 && plain.npairs == 8 && fj.planned == 2 && fj.ecmp.copies == 1,
	      "no --ecmp: %u rounds %u pairs, %u planned, %u runs", plain.nrounds, plain.npairs,
	      fj.planned, fj.ecmp.copies);
	gdr_fab_job_free(&fj);
	for (unsigned i = 0; i < 3; i++) {
		unsigned bad = 0, twice = 0;

		CHECK(gdr_fab_sched(spec, pl, 8, GDR_FLOW_TO_SERVER, qps[i], 0.001, &s, &missing,
				    &fj) == 0);
		CHECK(fj.ecmp.copies == runs[i] && fj.ecmp.max_paths == 2 && fj.ecmp.flows == 11 &&
			  s.nrounds == 2 * runs[i] && s.npairs == 8 * runs[i],
		      "-q %u: %u runs (want %u) of %llu flows over %llu paths: %u rounds %u pairs",
		      qps[i], fj.ecmp.copies, runs[i], (unsigned long long)fj.ecmp.flows,
		      (unsigned long long)fj.ecmp.max_paths, s.nrounds, s.npairs);
		for (unsigned r = 0; r < s.nrounds && s.nrounds == 2 * runs[i]; r++) {
			unsigned p = r % 2, n = s.start[r + 1] - s.start[r];

			bad += n != plain.start[p + 1] - plain.start[p];
			for (unsigned k = 0; k < n && !bad; k++)
				bad +=
				    s.pair[s.start[r] + k][0] !=
					plain.pair[plain.start[p] + k][0] ||
				    s.pair[s.start[r] + k][1] != plain.pair[plain.start[p] + k][1];
			for (unsigned k = s.start[r]; k < s.start[r + 1]; k++)
				for (unsigned m = s.start[r]; m < k; m++)
					twice += s.pair[m][0] == s.pair[k][0] ||
						 s.pair[m][0] == s.pair[k][1] ||
						 s.pair[m][1] == s.pair[k][0] ||
						 s.pair[m][1] == s.pair[k][1];
		}
		CHECK(!bad && !twice, "-q %u: %u rounds not the plan's, %u ranks twice", qps[i],
		      bad, twice);
		gdr_fab_job_free(&fj);
		gdr_sched_free(&s);
	}
	gdr_sched_free(&plain);
}

int main(int argc, char **argv)
{
	int big = argc < 2 || strcmp(argv[1], "--small");

	const char *srcdir = getenv("srcdir");

	if (srcdir && chdir(srcdir)) {
		perror(srcdir);
		return 1;
	}
	readers();
	sched();
	ecmp_sched();
	checker_can_fail();
	/* {tiers, hosts, rails, NICs a leaf, uplinks, leaves a pod, cores an agg, rail-optimized}
	 */
	fabric_case("2 tiers, 3 leaves", &(struct synth){2, 6, 1, 2, 2, 0, 0, 0}, 1);
	fabric_case("2 tiers, 5 leaves (odd ring)", &(struct synth){2, 15, 1, 3, 3, 0, 0, 0}, 1);
	fabric_case("2 tiers, 8 rails on one leaf", &(struct synth){2, 256, 8, 32, 16, 0, 0, 0}, 1);
	fabric_case("rail-optimized 2 tiers, 1,024 x 8",
		    &(struct synth){2, 1024, 8, 32, 32, 0, 0, 1}, 1);
	fabric_case("3 tiers, 4 pods", &(struct synth){3, 512, 1, 16, 8, 8, 4, 0}, 1);
	fabric_case("3 tiers, 3 pods (odd ring)", &(struct synth){3, 384, 1, 16, 8, 8, 2, 0}, 1);
	fabric_case("2 tiers, last leaf short of its uplinks",
		    &(struct synth){2, 100, 1, 16, 8, 0, 0, 0}, 0);
	fabric_case("3 tiers, last pod partial", &(struct synth){3, 300, 1, 16, 8, 8, 2, 0}, 0);
	if (big) {
		fabric_case("rail-optimized 2 tiers, 10,000 x 8",
			    &(struct synth){2, 10000, 8, 16, 16, 0, 0, 1}, 1);
		fabric_case("rail-optimized 3 tiers, 10,000 x 8",
			    &(struct synth){3, 10000, 8, 16, 16, 25, 8, 1}, 1);
		fabric_case("3 tiers, 10,000 x 8 on one plane",
			    &(struct synth){3, 10000, 8, 32, 16, 25, 8, 0}, 1);
	}
	return CHECK_DONE();
}
