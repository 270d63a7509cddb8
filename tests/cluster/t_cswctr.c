/* SPDX-License-Identifier: MIT */
/*
 * Unit test of src/cluster/cswctr.c (--switch-counters). The parser on
 * perfquery's own output (tests/cluster/fixtures, made by mk-perfquery.sh
 * against ibsim): the basic port counters of lid 7 port 1 with symbol errors
 * 7, link downed 1, discards 3, transmit wait 5000 set; the extended set and
 * the refusal of a host without umad are no port counters. On ibsim's ft3
 * fabric (tests/unit/fabric/ft3.ibnd, core0 given LID 7, the only switch
 * with a LID): a round of one pair across the pods through core0 reads the
 * LID's ports on its route, before and after; a tool that is absent, or that
 * is refused, turns the reads off after one try. With ibsim, its umad
 * simulator and perfquery installed: the real tool against the simulated
 * fabric, core0 port 1's counters raised between the reads, moves that cable
 * alone (else that part is skipped, said in one line).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cblame.h"
#include "cswctr.h"
#include "log.h"

#include "../unit/check.h"

#define FIX  "tests/cluster/fixtures/"
#define SIM  "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
#define TOOL "LD_PRELOAD=" SIM " perfquery"

static char *slurp(const char *path)
{
	char *text = NULL;

	CHECK(gdr_read_text(path, &text) == 0, "read %s", path);
	return text ? text : strdup("");
}

static void parser(void)
{
	struct gdr_fab_ctr c;
	char *t = slurp(FIX "perfquery-7-1.txt");

	CHECK(gdr_perfquery_parse(t, &c) == 0 && c.symbol == 7 && c.downed == 1 &&
		  c.discards == 3 && c.xmit_wait == 5000 && !c.fec,
	      "basic counters: symbol %llu downed %llu discards %llu wait %llu",
	      (unsigned long long)c.symbol, (unsigned long long)c.downed,
	      (unsigned long long)c.discards, (unsigned long long)c.xmit_wait);
	free(t);
	t = slurp(FIX "perfquery-x-7-1.txt");
	CHECK(gdr_perfquery_parse(t, &c) == -1, "the extended set has no error counters");
	free(t);
	t = slurp(FIX "perfquery-refused.txt");
	CHECK(gdr_perfquery_parse(t, &c) == -1, "a refusal is no counters");
	free(t);
	CHECK(gdr_perfquery_parse("", &c) == -1, "nothing is no counters");
}

struct setup {
	struct gdr_fab_job fj;
	struct gdr_sched s; /* one round, one pair through core0 */
	uint32_t link;	    /* core0 port 1's cable */
	unsigned nports;    /* core0's ports on the pair's route */
};

/* ft3 with core0 at LID 7; the first NIC pair whose data crosses core0 port 1. */
static int setup(struct setup *u)
{
	char *text = slurp("tests/unit/fabric/ft3.ibnd"), *p, path[] = "/tmp/t_cswctr.XXXXXX";
	struct gdr_place pl[8];
	struct gdr_sched all;
	unsigned missing = 0;
	uint32_t hop[2 * 16 + 2], core0;
	FILE *f;
	int fd;

	p = strstr(text, "# \"core0\" base port 0 lid 0");
	CHECK(p != NULL, "ft3.ibnd names core0's switch line");
	if (p)
		memcpy(strstr(p, "lid 0"), "lid 7", 5);
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(text);
	memset(pl, 0, sizeof(pl));
	for (int r = 0; r < 8; r++) {
		snprintf(pl[r].host, sizeof(pl[r].host), "node%d", r);
		snprintf(pl[r].nic, sizeof(pl[r].nic), "mlx5_0:1");
	}
	memset(u, 0, sizeof(*u));
	{
		char spec[64];

		snprintf(spec, sizeof(spec), "ibnetdiscover:%s", path);
		if (gdr_fab_sched(spec, pl, 8, GDR_FLOW_TO_SERVER, 1, 0, &all, &missing, &u->fj)) {
			unlink(path);
			CHECK(0, "ft3 planned");
			return -1;
		}
	}
	unlink(path);
	gdr_sched_free(&all);
	core0 = gdr_fab_find_switch(&u->fj.f, "core0");
	u->link = GDR_FAB_NONE;
	for (uint32_t l = 0; l < u->fj.f.nlink; l++)
		for (int e = 0; e < 2; e++)
			if (u->fj.f.link[l].node[e] == core0 && u->fj.f.link[l].port[e] == 1)
				u->link = l;
	CHECK(core0 != GDR_FAB_NONE && u->fj.f.sw[core0].lid == 7 && u->link != GDR_FAB_NONE,
	      "core0 at LID 7 and its port 1");
	for (int a = 0; a < 8 && !u->s.npairs; a++)
		for (int b = 0; b < 8 && !u->s.npairs; b++) {
			unsigned m =
			    a == b ? 0 : gdr_fab_route(&u->fj.f, u->fj.nic[a], u->fj.nic[b], hop);
			int through = 0;

			u->nports = 0;
			for (unsigned h = 0; h < m; h++) {
				const struct gdr_fab_link *l = &u->fj.f.link[hop[h] / 2];

				through |= hop[h] / 2 == u->link;
				u->nports += (l->node[0] == core0) + (l->node[1] == core0);
			}
			if (!through)
				continue;
			u->s.nrounds = 1;
			u->s.npairs = 1;
			u->s.start = calloc(2, sizeof(*u->s.start));
			u->s.pair = calloc(1, sizeof(*u->s.pair));
			u->s.start[1] = 1;
			u->s.pair[0][0] =
			    (unsigned)b; /* a write: the client's data to the server */
			u->s.pair[0][1] = (unsigned)a;
		}
	CHECK(u->s.npairs == 1 && u->nports == 2, "a pair through core0: %u of its ports",
	      u->nports);
	return u->s.npairs == 1 ? 0 : -1;
}

static unsigned long moved_links(const struct gdr_swctr *w)
{
	unsigned long n = 0;

	for (uint32_t l = 0; l < w->fj->f.nlink; l++)
		n += w->link[l].symbol || w->link[l].downed || w->link[l].xmit_wait ||
		     w->link[l].discards;
	return n;
}

/* A tool that prints the fixture: the ports read twice each, nothing moved; absent; refused. */
static void tools(struct setup *u)
{
	struct gdr_swctr w;
	char tool[256];

	snprintf(tool, sizeof(tool), "sh -c 'cat %s; exit 0' perfquery", FIX "perfquery-7-1.txt");
	CHECK(gdr_swctr_init(&w, &u->fj, GDR_FLOW_TO_SERVER, tool) == 0 && !w.off, "init");
	gdr_swctr_before(&w, &u->s, 0);
	CHECK(w.n == 2 && w.port[0][1] == 7 && w.port[1][1] == 7, "%u ports read before", w.n);
	gdr_swctr_after(&w);
	CHECK(!w.off && w.reads == 2 * u->nports && !moved_links(&w),
	      "fixed counters: %lu reads, %lu cables moved", w.reads, moved_links(&w));
	gdr_swctr_free(&w);
	gdr_swctr_init(&w, &u->fj, GDR_FLOW_TO_SERVER, "/nonexistent/perfquery");
	gdr_swctr_before(&w, &u->s, 0);
	gdr_swctr_after(&w);
	CHECK(w.off && w.reads == 1, "absent: off after %lu read", w.reads);
	gdr_swctr_free(&w);
	snprintf(tool, sizeof(tool), "sh -c 'cat %s; exit 255' perfquery",
		 FIX "perfquery-refused.txt");
	gdr_swctr_init(&w, &u->fj, GDR_FLOW_TO_SERVER, tool);
	gdr_swctr_before(&w, &u->s, 0);
	gdr_swctr_after(&w);
	CHECK(w.off && w.reads == 1, "refused: off after %lu read", w.reads);
	gdr_swctr_free(&w);
}

/* perfquery against ibsim until core0 port 1's symbol errors read want (bounded). */
static int reads(const char *want)
{
	char cmd[512], buf[4096] = "";

	snprintf(cmd, sizeof(cmd), "%s 7 1 2>/dev/null", TOOL);
	for (int i = 0; i < 50; i++) {
		FILE *p = popen(cmd, "r");
		size_t n = p ? fread(buf, 1, sizeof(buf) - 1, p) : 0;

		if (p)
			pclose(p);
		buf[n] = '\0';
		if (strstr(buf, want))
			return 0;
		usleep(200000);
	}
	return -1;
}

static void with_ibsim(struct setup *u)
{
	char net[] = "/tmp/t_cswctr_net.XXXXXX", cmd[256], *text;
	struct gdr_swctr w;
	struct gdr_fab_ctr *all;
	FILE *sim, *f;
	int fd;

	if (system("command -v ibsim >/dev/null && command -v perfquery >/dev/null") ||
	    access(SIM, R_OK)) {
		printf("SKIP the ibsim part: ibsim (ibsim-utils), perfquery (infiniband-diags) or "
		       "%s missing\n",
		       SIM);
		return;
	}
	text = slurp("tests/unit/fabric/ft3.net"); /* core0 first: the tool attaches there */
	fd = mkstemp(net);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || strncmp(text, "Switch\t8 \"core0\"\n", 17)) {
		CHECK(0, "ft3.net with core0 first");
		free(text);
		return;
	}
	fprintf(f, "Switch\t8 \"core0\" lid 7\n%s", text + 17);
	fclose(f);
	free(text);
	snprintf(cmd, sizeof(cmd), "exec ibsim -s %s >/dev/null 2>&1", net);
	sim = popen(cmd, "w");
	CHECK(sim && reads("SymbolErrorCounter:..............0") == 0, "ibsim up");
	gdr_swctr_init(&w, &u->fj, GDR_FLOW_TO_SERVER, TOOL);
	gdr_swctr_before(&w, &u->s, 0);
	fprintf(sim, "PerformanceSet \"core0\"[1] PortCounters.SymbolErrorCounter=7\n"
		     "PerformanceSet \"core0\"[1] PortCounters.PortXmitWait=5000\n");
	fflush(sim);
	CHECK(reads("SymbolErrorCounter:..............7") == 0, "ibsim set the counters");
	gdr_swctr_after(&w);
	CHECK(!w.off && w.reads == 2 * u->nports && moved_links(&w) == 1 &&
		  w.link[u->link].symbol == 7 && w.link[u->link].xmit_wait == 5000,
	      "ibsim: %lu reads, %lu cables moved, core0[1]'s symbol +%llu wait +%llu", w.reads,
	      moved_links(&w), (unsigned long long)w.link[u->link].symbol,
	      (unsigned long long)w.link[u->link].xmit_wait);
	all = gdr_cblame_cable_ctr(&u->fj, NULL, w.link);
	CHECK(all && all[u->link].symbol == 7, "the blame's cable counters have it");
	free(all);
	gdr_swctr_free(&w);
	fprintf(sim, "Quit\n");
	pclose(sim);
	unlink(net);
}

int main(void)
{
	const char *srcdir = getenv("srcdir");
	struct setup u;

	if (srcdir && chdir(srcdir)) {
		perror(srcdir);
		return 1;
	}
	parser();
	if (!setup(&u)) {
		tools(&u);
		with_ibsim(&u);
	}
	gdr_sched_free(&u.s);
	gdr_fab_job_free(&u.fj);
	return CHECK_DONE();
}
