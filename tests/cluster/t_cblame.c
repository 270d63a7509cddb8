/* SPDX-License-Identifier: MIT */
/*
 * Unit test of src/cluster/cblame.c: a cluster run's blame, from its rows to
 * its CSV, JSON Lines and summary. The LLDP fixture (4 hosts x 2 netdevs on two
 * leaves under one spine, two cables a leaf) planned for 8 ranks as a write
 * (data from client to server) and as -b; one injected slow cable, rail0[31] -
 * spine[1]: the rows of every pair whose data crosses it are SLOW, the others
 * OK. The run reads no switch counters, so the blame must be "unexplained" with
 * that cable as its lead, and nothing else; every SLOW row's blame cell (CSV
 * and JSON) names it, no OK or SKIP row has one, and the summary prints it in
 * one line (a pair run both ways, -b, counts once each way). Without the
 * cable's slowness: no verdict, no cell. A slow access cable (every pair of
 * h1 eth0 SLOW: here its one partner is h1 eth1, both ways) reads as the
 * host without counters (each of its NICs has only bad pairs); with -W's
 * side texts saying its port's symbol errors moved, it is a suspect cable,
 * not named before its retest, and no host or NIC is blamed. The retest
 * round (cretest.c): the suspect's pairs, the bad one first, no rank twice,
 * in one round; none without counters. Its rows (pattern topology-retest)
 * bad again: the cable is named; OK: it stays a suspect, "retest passed
 * (transient)"; and a retest row's blame cell is its pair's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cblame.h"
#include "cretest.h"
#include "log.h"

#include "../unit/check.h"

#define SPEC	"links:tests/unit/fabric/lldp.links" /* from the source tree ($srcdir) */
#define CABLE	"rail0[31] - spine[1]"
#define NSIZE	2
#define MAXROWS 64

static struct gdr_place pl[8];

/* The rows of the schedule's pairs, NSIZE sizes each, SLOW when the data crosses cable x. */
static size_t run(const struct gdr_fab_job *fj, const struct gdr_sched *s, enum gdr_fab_flow fl,
		  uint32_t x, struct gdr_crow *rows, size_t *nslow)
{
	uint32_t hop[2 * 16 + 2];
	size_t n = 0;

	*nslow = 0;
	for (unsigned r = 0; r < s->nrounds; r++)
		for (unsigned k = s->start[r]; k < s->start[r + 1]; k++) {
			uint32_t srv = fj->nic[s->pair[k][0]], cli = fj->nic[s->pair[k][1]];
			int slow = 0;

			for (int d = 0; d < 2; d++) {
				unsigned m;

				if ((fl == GDR_FLOW_TO_SERVER && d) ||
				    (fl == GDR_FLOW_TO_CLIENT && !d))
					continue;
				m = gdr_fab_route(&fj->f, d ? srv : cli, d ? cli : srv, hop);
				for (unsigned h = 0; h < m; h++)
					slow |= hop[h] / 2 == x;
			}
			for (int z = 0; z < NSIZE && n < MAXROWS; z++, n++) {
				rows[n] =
				    (struct gdr_crow){.status = slow ? GDR_CS_SLOW : GDR_CS_OK,
						      .round = (int32_t)r + 1,
						      .a = (int32_t)s->pair[k][0],
						      .b = (int32_t)s->pair[k][1],
						      .rail = -1,
						      .bytes = 4096u << z,
						      .iters = 100,
						      .bw_gbps = slow ? 9.5 : 95.0,
						      .seconds = 1};
				snprintf(rows[n].path, sizeof(rows[n].path), "host");
				*nslow += slow != 0;
			}
		}
	rows[n] = (struct gdr_crow){.status = GDR_CS_SKIP, .round = 1, .a = 0, .b = -1};
	snprintf(rows[n].path, sizeof(rows[n].path), "-");
	return n + 1;
}

static size_t count(const char *hay, const char *needle)
{
	size_t c = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		c++;
	return c;
}

static void one(const char *name, enum gdr_fab_flow fl, int inject)
{
	struct gdr_fab_job fj;
	struct gdr_sched s;
	struct gdr_fab_blame b;
	struct gdr_ctexts pool = {0};
	struct gdr_crow rows[MAXROWS + 1];
	struct gdr_ccsv cx = {"run1", "topology", "write_bw", pl,    "1.2", "t",
			      "r",    "c",	  NULL,	      &pool, &fj,   (int)fl};
	unsigned missing = 0;
	uint32_t x = GDR_FAB_NONE;
	size_t n, nslow, tagged = 0, wrong = 0, crossing = 0, times;
	char cable[160], buf[65536];
	FILE *f;

	if (gdr_fab_sched(SPEC, pl, 8, fl, 1, 0, &s, &missing, &fj)) {
		CHECK(0, "%s: planned", name);
		return;
	}
	for (uint32_t l = 0; l < fj.f.nlink; l++)
		if (!strcmp(gdr_fab_link_name(&fj.f, l, cable, sizeof(cable)), CABLE))
			x = l;
	CHECK(x != GDR_FAB_NONE, "%s: the cable %s", name, CABLE);
	n = run(&fj, &s, fl, inject ? x : GDR_FAB_NONE, rows, &nslow);
	CHECK(!inject || nslow >= 2 * NSIZE, "%s: %zu SLOW rows", name, nslow);
	CHECK(gdr_cblame(&fj, fl, rows, n, NULL, NULL, false, &pool, &b) == 0, "%s: blamed", name);
	if (inject)
		CHECK(b.n == 1 && b.v[0].kind == GDR_BLAME_UNEXPLAINED && b.v[0].id == x &&
			  b.v[0].bad == nslow / NSIZE * (fl == GDR_FLOW_BOTH ? 2 : 1),
		      "%s: %u verdicts, the first kind %d id %u (want unexplained, lead %s)", name,
		      b.n, b.n ? (int)b.v[0].kind : -1, b.n ? b.v[0].id : 0, CABLE);
	else
		CHECK(b.n == 0, "%s: no slow pair, %u verdicts", name, b.n);
	for (size_t i = 0; i < n; i++) {
		const char *c = gdr_ctexts_get(&pool, rows[i].blame);

		tagged += c != NULL;
		wrong += (rows[i].status == GDR_CS_SLOW) != (c && strstr(c, "unexplained, lead "
									    "cable " CABLE ": "));
	}
	CHECK(!wrong && tagged == nslow, "%s: %zu rows' cells wrong, %zu tagged of %zu SLOW", name,
	      wrong, tagged, nslow);
	/* the CSV's last column and the JSON Lines' last member */
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_ccsv_header(f);
	gdr_ccsv_rows(f, &cx, rows, n, true);
	fclose(f);
	CHECK(strstr(buf, ",counters,blame,route\n") &&
		  count(buf, ",\"unexplained, lead cable " CABLE ": ") == nslow &&
		  count(buf, ",r,,,,") == n - nslow - (rows[0].status != GDR_CS_SLOW),
	      "%s: CSV:\n%s", name, buf);
	if (inject && fl == GDR_FLOW_TO_SERVER && getenv("T_CBLAME_CSV")) {
		/* tests/report/topo.csv: T_CBLAME_CSV=FILE tests/cluster/t_cblame */
		FILE *out = fopen(getenv("T_CBLAME_CSV"), "w");

		CHECK(out && fputs(buf, out) >= 0 && !fclose(out), "%s: T_CBLAME_CSV written", name);
	}
	/* the route cells: a row's route crosses the slow cable exactly when it was made SLOW */
	times = count(buf, " > " CABLE " > "); /* -b: twice a row, there and back */
	for (char *l = strchr(buf, '\n'), *e; l && (e = strchr(l + 1, '\n')); l = e) {
		char *cell = l + 1;

		*e = '\0';
		for (char *c = strchr(cell, ','); c && c < e; c = strchr(c + 1, ','))
			if (c[1] !=
			    ' ') /* a comma inside the quoted blame cell has a space after */
				cell = c + 1;
		crossing += strstr(cell, " > " CABLE " > ") != NULL;
		wrong += inject && (strstr(l + 1, ",SLOW,") != NULL) !=
				       (strstr(cell, " > " CABLE " > ") != NULL);
		wrong += !*cell != (strstr(l + 1, ",SKIP,") != NULL);
		*e = '\n';
	}
	CHECK(!wrong && (!inject || crossing == nslow),
	      "%s: %zu route cells wrong, %zu cross %s of %zu SLOW", name, wrong, crossing, CABLE,
	      nslow);
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_cjson_rows(f, &cx, rows, n, true);
	fclose(f);
	CHECK(count(buf, "\"blame\":\"unexplained, lead cable " CABLE ": ") == nslow &&
		  count(buf, "\"blame\":null,\"route\":\"") == n - nslow - 1 &&
		  count(buf, "\"route\":null}\n") == 1 && count(buf, " > " CABLE " > ") == times,
	      "%s: JSON: %zu %zu %zu %zu:\n%s", name,
	      count(buf, "\"blame\":\"unexplained, lead cable " CABLE ": "),
	      count(buf, "\"blame\":null,\"route\":\""), count(buf, "\"route\":null}\n"),
	      count(buf, " > " CABLE " > "), buf);
	/* the summary: one line a verdict */
	buf[0] = '\0';
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_cblame_print(f, &fj, &b);
	fclose(f);
	if (inject)
		CHECK(!strncmp(buf, "blame: unexplained, lead cable " CABLE ": ", 48) &&
			  count(buf, "\n") == 1,
		      "%s: summary: %s", name, buf);
	else
		CHECK(!buf[0], "%s: summary: %s", name, buf);
	printf("%s: %zu rows, %zu SLOW; %s", name, n, nslow, buf[0] ? buf : "no blame\n");
	gdr_fab_blame_free(&b);
	gdr_ctexts_free(&pool);
	gdr_sched_free(&s);
	gdr_fab_job_free(&fj);
}

/* SPEC's plan for writes, and the cable of rank 2's NIC (x, named in cable): 0, or -1 checked. */
static int plan_rank2(const char *name, struct gdr_fab_job *fj, struct gdr_sched *s,
		      unsigned *missing, uint32_t *x, char *cable, size_t len)
{
	if (gdr_fab_sched(SPEC, pl, 8, GDR_FLOW_TO_SERVER, 1, 0, s, missing, fj)) {
		CHECK(0, "%s: planned", name);
		return -1;
	}
	*x = fj->f.nic[fj->nic[2]].link;
	gdr_fab_link_name(&fj->f, *x, cable, len);
	return 0;
}

/* Every pair of rank 2's NIC (h1 eth0) slow: the host, or with its port's errors its cable. */
static void access_cable(const char *name, int with_counters)
{
	struct gdr_fab_job fj;
	struct gdr_sched s;
	struct gdr_fab_blame b = {0};
	struct gdr_ctexts pool = {0};
	struct gdr_crow rows[MAXROWS + 1];
	struct gdr_fab_ctr ctr[8];
	unsigned missing = 0;
	uint32_t x;
	size_t n, nslow, wrong = 0;
	char cable[160], want[256];

	memset(ctr, 0, sizeof(ctr));
	if (plan_rank2(name, &fj, &s, &missing, &x, cable, sizeof(cable)))
		return;
	if (with_counters) { /* rounds 1 and 2 of rank 2, and another rank's traffic only */
		gdr_cblame_ctr_add(&ctr[2], "eth0: symbol_error +5, link_downed +1, rcvd_pkts +9");
		gdr_cblame_ctr_add(&ctr[2], "eth0: port_symbol_error +50, symbol_error +2");
		gdr_cblame_ctr_add(&ctr[5], "eth1: sent_pkts +400");
		CHECK(ctr[2].symbol == 7 && ctr[2].downed == 1 && !ctr[5].symbol,
		      "side texts: symbol %llu downed %llu", (unsigned long long)ctr[2].symbol,
		      (unsigned long long)ctr[2].downed);
		snprintf(
		    want, sizeof(want),
		    "cable (suspect) %s: symbol errors +7, FEC uncorrectable +0, link downed +1; ",
		    cable);
	} else {
		snprintf(want, sizeof(want), "host h1: every pair of its 2 NICs bad");
	}
	n = run(&fj, &s, GDR_FLOW_TO_SERVER, x, rows, &nslow);
	CHECK(gdr_cblame(&fj, GDR_FLOW_TO_SERVER, rows, n, with_counters ? ctr : NULL, NULL, false,
			 &pool, &b) == 0,
	      "%s: blamed", name);
	for (size_t i = 0; i < n; i++) {
		const char *c = gdr_ctexts_get(&pool, rows[i].blame);

		wrong += (rows[i].status == GDR_CS_SLOW) != (c && !strncmp(c, want, strlen(want)));
	}
	CHECK(nslow == 2 * NSIZE && b.n == 1 && !wrong,
	      "%s: %zu SLOW rows, %u verdicts, %zu cells "
	      "not \"%s...\"",
	      name, nslow, b.n, wrong, want);
	if (with_counters)
		CHECK(b.n && b.v[0].kind == GDR_BLAME_CABLE_SUSPECT && b.v[0].id == x &&
			  strstr(b.v[0].evidence, "retest round over it alone pending"),
		      "%s: a suspect cable, not named", name);
	printf("%s: %s\n", name,
	       b.n ? gdr_fab_blame_text(&fj.f, &b.v[0], want, sizeof(want)) : "-");
	gdr_fab_blame_free(&b);
	gdr_ctexts_free(&pool);
	gdr_sched_free(&s);
	gdr_fab_job_free(&fj);
}

/* No rank twice in a round of s, and every pair with rank r in it. */
static int one_nic_each(const struct gdr_sched *s, unsigned r)
{
	for (unsigned q = 0; q < s->nrounds; q++)
		for (unsigned k = s->start[q]; k < s->start[q + 1]; k++) {
			if (s->pair[k][0] != r && s->pair[k][1] != r)
				return 0;
			for (unsigned m = s->start[q]; m < k; m++)
				if (s->pair[m][0] == s->pair[k][0] ||
				    s->pair[m][0] == s->pair[k][1] ||
				    s->pair[m][1] == s->pair[k][0] ||
				    s->pair[m][1] == s->pair[k][1])
					return 0;
		}
	return 1;
}

/*
 * Rank 2's access cable slow, its port's errors moved: the retest round over
 * it, then its rows bad again (fails) or OK: named, or a transient suspect.
 */
static void retest(const char *name, int with_counters, int fails)
{
	struct gdr_fab_job fj;
	struct gdr_sched s, rs = {0};
	struct gdr_fab_blame b = {0};
	struct gdr_ctexts pool = {0};
	struct gdr_crow rows[2 * MAXROWS + 2];
	struct gdr_ccsv cx = {"run1", "topology", "write_bw", pl,    "1.2", "t",
			      "r",    "c",	  NULL,	      &pool, NULL,  0};
	struct gdr_fab_ctr ctr[8];
	unsigned missing = 0, suspects = 9;
	uint32_t x;
	size_t n, m, nslow, rslow, cells = 0;
	char cable[160], want[256], buf[65536];
	FILE *f;

	memset(ctr, 0, sizeof(ctr));
	if (plan_rank2(name, &fj, &s, &missing, &x, cable, sizeof(cable)))
		return;
	if (with_counters)
		gdr_cblame_ctr_add(&ctr[2], "eth0: symbol_error +5, link_downed +1");
	n = run(&fj, &s, GDR_FLOW_TO_SERVER, x, rows, &nslow);
	CHECK(gdr_cretest_plan(&fj, GDR_FLOW_TO_SERVER, rows, n, with_counters ? ctr : NULL, NULL,
			       &rs, &suspects) == 0,
	      "%s: retest planned", name);
	if (!with_counters) {
		CHECK(suspects == 0 && rs.nrounds == 0 && rs.npairs == 0,
		      "%s: no counters: %u suspects, %u retest rounds", name, suspects, rs.nrounds);
		goto out;
	}
	/* rank 2 is in 2 bad pairs; no NIC twice: one retest pair, in one round */
	CHECK(suspects == 1 && rs.nrounds == 1 && rs.npairs == 1 && one_nic_each(&rs, 2),
	      "%s: %u suspects, %u retest rounds of %u pairs, each with rank 2 once a round", name,
	      suspects, rs.nrounds, rs.npairs);
	m = run(&fj, &rs, GDR_FLOW_TO_SERVER, fails ? x : GDR_FAB_NONE, rows + n, &rslow);
	for (size_t i = n; i < n + m; i++) {
		rows[i].retest = 1;
		rows[i].round += (int32_t)s.nrounds;
	}
	CHECK(gdr_cblame(&fj, GDR_FLOW_TO_SERVER, rows, n + m, ctr, NULL, true, &pool, &b) == 0,
	      "%s: blamed", name);
	snprintf(want, sizeof(want), fails ? "cable %s: " : "cable (suspect) %s: ", cable);
	CHECK(b.n == 1 && b.v[0].id == x &&
		  b.v[0].kind == (fails ? GDR_BLAME_CABLE : GDR_BLAME_CABLE_SUSPECT) &&
		  strstr(b.v[0].evidence, fails ? "retest over it alone: 1 of 1 pairs bad again"
						: "retest passed (transient)"),
	      "%s: %u verdicts: %s", name, b.n,
	      b.n ? gdr_fab_blame_text(&fj.f, &b.v[0], buf, sizeof(buf)) : "-");
	for (size_t i = 0; i < n + m; i++) {
		const char *c = gdr_ctexts_get(&pool, rows[i].blame);

		cells += c && !strncmp(c, want, strlen(want));
	}
	CHECK(cells == nslow + rslow && rslow == (fails ? NSIZE : 0),
	      "%s: %zu cells \"%s...\" for %zu + %zu SLOW rows", name, cells, want, nslow, rslow);
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_ccsv_rows(f, &cx, rows, n + m, true);
	fclose(f);
	CHECK(count(buf, ",topology-retest,") == m && count(buf, ",topology,") == n,
	      "%s: CSV: %zu retest rows of %zu:\n%s", name, m, n + m, buf);
	printf("%s: %s\n", name,
	       b.n ? gdr_fab_blame_text(&fj.f, &b.v[0], want, sizeof(want)) : "-");
out:
	gdr_fab_blame_free(&b);
	gdr_ctexts_free(&pool);
	gdr_sched_free(&rs);
	gdr_sched_free(&s);
	gdr_fab_job_free(&fj);
}

/* The CSV's last cell and the JSON Lines' last member of row r (its pair's route), into cell. */
static void route_of(struct gdr_ccsv *cx, const struct gdr_crow *r, char *csv, char *json,
		     size_t len)
{
	char buf[8192], *p;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	gdr_ccsv_rows(f, cx, r, 1, false);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	p = strrchr(buf, ',');
	snprintf(csv, len, "%s", p ? p + 1 : "(no comma)");
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_cjson_rows(f, cx, r, 1, false);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	p = strstr(buf, ",\"route\":");
	snprintf(json, len, "%s", p ? p + 9 : "(no route member)");
}

/*
 * The route column: the cables a pair's data crosses, in the order it crosses
 * them. Server rank 1 (h0 eth1: rail1, port 1), client rank 2 (h1 eth0: rail0,
 * port 2). A write's data goes from the client up rail0's uplink that the
 * server's place on rail1 picks (D-mod-K: its first, port 31), across the
 * spine and down rail1's first; a read's the other way, up rail1's second
 * uplink (the client is second on rail0) and down rail0's second; -b's there
 * and back. A row without a partner has none; without --topology no row has.
 */
static void route_cells(void)
{
	static const char *const up = "h1:eth0[1] - rail0[2] > rail0[31] - spine[1] > "
				      "rail1[31] - spine[3] > h0:eth1[1] - rail1[1]";
	static const char *const down = "h0:eth1[1] - rail1[1] > rail1[32] - spine[4] > "
					"rail0[32] - spine[2] > h1:eth0[1] - rail0[2]";
	const struct {
		const char *name;
		enum gdr_fab_flow fl;
		const char *want[2];
	} c[] = {{"a write", GDR_FLOW_TO_SERVER, {up, ""}},
		 {"a read", GDR_FLOW_TO_CLIENT, {down, ""}},
		 {"-b", GDR_FLOW_BOTH, {up, down}}};
	struct gdr_crow r = {.status = GDR_CS_OK, .round = 1, .a = 1, .b = 2, .bytes = 4096};
	struct gdr_crow skip = {.status = GDR_CS_SKIP, .round = 1, .a = 3, .b = -1};
	struct gdr_fab_job fj;
	struct gdr_sched s;
	unsigned missing = 0;
	char want[1024], csv[1024], json[1024], qwant[1040];

	snprintf(r.path, sizeof(r.path), "host");
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct gdr_ccsv cx = {"run1", "topology", "write_bw", pl,   "1.2", "t",
				      "r",    "c",	  NULL,	      NULL, &fj,   (int)c[i].fl};

		if (gdr_fab_sched(SPEC, pl, 8, c[i].fl, 1, 0, &s, &missing, &fj)) {
			CHECK(0, "route, %s: planned", c[i].name);
			continue;
		}
		snprintf(want, sizeof(want), "%s%s%s", c[i].want[0], *c[i].want[1] ? " > " : "",
			 c[i].want[1]);
		snprintf(qwant, sizeof(qwant), "\"%s\"}", want);
		route_of(&cx, &r, csv, json, sizeof(csv));
		CHECK(!strcmp(csv, want) && !strcmp(json, qwant),
		      "route, %s: CSV cell\n  %s\nJSON\n  %s\nwant\n  %s", c[i].name, csv, json,
		      want);
		route_of(&cx, &skip, csv, json, sizeof(csv));
		CHECK(!*csv && !strcmp(json, "null}"), "route, %s: a row without a pair: %s, %s",
		      c[i].name, csv, json);
		cx.fab = NULL;
		route_of(&cx, &r, csv, json, sizeof(csv));
		CHECK(!*csv && !strcmp(json, "null}"), "route, %s: no --topology: %s, %s",
		      c[i].name, csv, json);
		printf("route, %s: %s\n", c[i].name, want);
		gdr_sched_free(&s);
		gdr_fab_job_free(&fj);
	}
}

int main(void)
{
	const char *srcdir = getenv("srcdir");

	if (srcdir && chdir(srcdir)) {
		perror(srcdir);
		return 1;
	}
	for (int r = 0; r < 8; r++) {
		snprintf(pl[r].host, sizeof(pl[r].host), "h%d", r / 2);
		snprintf(pl[r].nic, sizeof(pl[r].nic), "eth%d", r % 2);
		snprintf(pl[r].gpu, sizeof(pl[r].gpu), "host");
		pl[r].rail = r % 2;
	}
	one("a write, a slow cable", GDR_FLOW_TO_SERVER, 1);
	one("a read, a slow cable", GDR_FLOW_TO_CLIENT, 1);
	one("-b, a slow cable", GDR_FLOW_BOTH, 1);
	one("a write, nothing slow", GDR_FLOW_TO_SERVER, 0);
	access_cable("a slow access cable, no counters", 0);
	access_cable("a slow access cable, -W: its port's symbol errors", 1);
	retest("retest, no counters: none", 0, 0);
	retest("retest, -W: bad again: named", 1, 1);
	retest("retest, -W: OK: transient", 1, 0);
	route_cells();
	return CHECK_DONE();
}
