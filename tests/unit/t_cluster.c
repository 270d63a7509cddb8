/* SPDX-License-Identifier: MIT */
/* Unit test: cluster placement to units, verdicts (SLOW, suspects) and the long CSV. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cluster_int.h"
#include "log.h"

#include "check.h"
#include "put.h"

static struct gdr_place pl[6];

/* hosts a a b b b c: rails 0 1 0 1 2 0 */
static void placement(void)
{
	static const char *const h[] = {"a", "a", "b", "b", "b", "c"};
	struct gdr_units u;
	int out[8][2];
	size_t n;

	for (int i = 0; i < 6; i++) {
		snprintf(pl[i].host, sizeof(pl[i].host), "%s", h[i]);
		snprintf(pl[i].nic, sizeof(pl[i].nic), "mlx5_%d:1", i);
		snprintf(pl[i].gpu, sizeof(pl[i].gpu), "host");
	}
	gdr_place_rails(pl, 6);
	CHECK(pl[0].rail == 0 && pl[1].rail == 1 && pl[2].rail == 0 && pl[4].rail == 2 &&
	      pl[5].rail == 0);
	CHECK(gdr_units_build(&u, pl, 6, false) == 0);
	CHECK(u.n == 3, "%u host units", u.n);
	CHECK(gdr_units_max_pairs(&u) == 3);
	/* a (ranks 0,1) with b (2,3,4): rail 0, rail 1, and b's rail 2 alone */
	n = gdr_units_pairs(&u, 0, 1, out);
	CHECK(n == 3 && out[0][0] == 0 && out[0][1] == 2 && out[1][0] == 1 && out[1][1] == 3 &&
		  out[2][0] == 4 && out[2][1] == -1,
	      "a-b: %zu pairs", n);
	n = gdr_units_pairs(&u, 1, 2, out);
	CHECK(n == 3 && out[0][0] == 2 && out[0][1] == 5 && out[1][1] == -1 && out[2][1] == -1);
	gdr_units_free(&u);
	CHECK(gdr_units_build(&u, pl, 6, true) == 0 && u.n == 6);
	n = gdr_units_pairs(&u, 0, 1, out);
	CHECK(n == 1 && out[0][0] == 0 && out[0][1] == 1);
	gdr_units_free(&u);
}

static struct gdr_crow bw(int round, int a, int b, double gbps)
{
	struct gdr_crow r = {.status = GDR_CS_OK,
			     .round = round,
			     .a = a,
			     .b = b,
			     .rail = 0,
			     .bytes = 65536,
			     .iters = 10,
			     .bw_gbps = gbps,
			     .seconds = 1};

	snprintf(r.path, sizeof(r.path), "host");
	return r;
}

static void verdicts(void)
{
	/* four pairs at 100, one at 85 (< 90% of the median 100), one failed */
	struct gdr_crow rows[6] = {bw(1, 0, 2, 100), bw(1, 1, 3, 100), bw(2, 0, 3, 100),
				   bw(2, 1, 2, 85),  bw(3, 0, 1, 100), bw(3, 2, 3, 0)};
	char buf[4096];
	FILE *f;
	size_t bad;

	rows[5].status = GDR_CS_TIMEOUT;
	gdr_verdict_apply(rows, 6, NULL, 0, 0, 0, 90);
	CHECK(rows[3].status == GDR_CS_SLOW, "85 of median 100: %s",
	      gdr_cstatus_name(rows[3].status));
	for (int i = 0; i < 3; i++)
		CHECK(rows[i].status == GDR_CS_OK);
	CHECK(rows[5].status == GDR_CS_TIMEOUT);
	/* an absolute threshold flags everything under it */
	rows[0].status = GDR_CS_OK;
	{
		struct gdr_crow one[2] = {bw(1, 0, 1, 100), bw(1, 2, 3, 200)};

		gdr_verdict_apply(one, 2, NULL, 0, 150, 0, 90);
		CHECK(one[0].status == GDR_CS_SLOW && one[1].status == GDR_CS_OK);
	}
	/* and a latency threshold flags every median over it (no relative rule here) */
	{
		struct gdr_crow lat[3] = {bw(1, 0, 1, 0), bw(1, 2, 3, 0), bw(2, 0, 2, 0)};

		lat[0].lat_med_us = 40, lat[1].lat_med_us = 300, lat[2].lat_med_us = 100;
		gdr_verdict_apply(lat, 3, NULL, 0, 0, 100, 0);
		CHECK(lat[0].status == GDR_CS_OK && lat[1].status == GDR_CS_SLOW &&
			  lat[2].status == GDR_CS_OK,
		      "%d %d %d", lat[0].status, lat[1].status, lat[2].status);
	}
	f = fmemopen(buf, sizeof(buf), "w");
	bad = gdr_verdict_summary(f, rows, 6, pl, 4, NULL);
	fclose(f);
	CHECK(bad == 2, "%zu flagged", bad);
	/* rank 2 was in 3 pairs, 2 flagged: suspect; ranks 0, 1, 3: 0, 1, 1 of 3 */
	CHECK(strstr(buf, "suspect rail: b rail 0 NIC mlx5_2:1"), "summary: %s", buf);
	CHECK(!strstr(buf, "suspect rail: b rail 1"), "summary: %s", buf);
	CHECK(!strstr(buf, "flagged link"), "both flagged pairs have a suspect end: %s", buf);
	CHECK(!strstr(buf, "suspect rail: a rail 0"), "summary: %s", buf);
	CHECK(strstr(buf, "6 pairs tested, 2 flagged"), "summary: %s", buf);
}

/* one slow pair among six, its ends fine elsewhere: the link is named, no suspect */
static void link(void)
{
	struct gdr_crow rows[6] = {bw(1, 0, 2, 100), bw(1, 1, 3, 100), bw(2, 0, 3, 100),
				   bw(2, 1, 2, 50),  bw(3, 0, 1, 100), bw(3, 2, 3, 100)};
	char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	gdr_verdict_apply(rows, 6, NULL, 0, 0, 0, 0);
	CHECK(rows[3].status == GDR_CS_OK, "--slow-pct=0 has no relative rule");
	gdr_verdict_apply(rows, 6, NULL, 0, 0, 0, 40);
	CHECK(rows[3].status == GDR_CS_OK, "50 is over 40%% of 100");
	gdr_verdict_apply(rows, 6, NULL, 0, 0, 0, 90);
	CHECK(gdr_verdict_summary(f, rows, 6, pl, 4, NULL) == 1);
	fclose(f);
	CHECK(strstr(buf, "flagged link: a rail 1 <-> b rail 0 (round 2)"), "%s", buf);
	CHECK(!strstr(buf, "suspect"), "%s", buf);
}

static void csv(void)
{
	struct gdr_crow r[2] = {bw(1, 0, 2, 12.5), bw(1, 4, -1, 0)};
	struct gdr_ccsv cx = {"run1",	     "pairwise",
			      "write_bw",    pl,
			      "1.2",	     "2026-11-24T21:00:00Z",
			      "slow-pct=90", "gdr_write_bw --cluster", NULL,
			      NULL,	     NULL,
			      0};
	char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	r[1].status = GDR_CS_SKIP;
	r[1].bytes = r[1].iters = 0;
	r[1].seconds = 0;
	snprintf(r[1].path, sizeof(r[1].path), "-");
	snprintf(r[1].err, sizeof(r[1].err), "no partner, \"rail 2\"");
	gdr_ccsv_header(f);
	gdr_ccsv_rows(f, &cx, r, 2, true);
	fclose(f);
	CHECK(strstr(buf, "error,tool_version,started,slow_rule,command,counters,blame,route\n"), "%s", buf);
	/* the run's facts on every row, the command line on the file's first row only */
	CHECK(strstr(buf, "\nrun1,1,pairwise,write_bw,65536,host,a,0,mlx5_0:1,host,b,0,mlx5_2:1,"
			  "host,OK,12.500,,,10,1.000,,1.2,2026-11-24T21:00:00Z,slow-pct=90,"
			  "gdr_write_bw --cluster,,,\n"),
	      "%s", buf);
	CHECK(strstr(buf, "\nrun1,1,pairwise,write_bw,,-,b,2,mlx5_4:1,host,,,,,SKIP,,,,,,"
			  "\"no partner, \"\"rail 2\"\"\",1.2,2026-11-24T21:00:00Z,slow-pct=90,,,,\n"),
	      "%s", buf);
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_cjson_rows(f, &cx, r, 2, false);
	fclose(f);
	CHECK(strstr(buf, "\"slow_rule\":\"slow-pct=90\",\"command\":null,\"counters\":null,"
			  "\"blame\":null,\"route\":null}\n") &&
		  strstr(buf, "\"tool_version\":\"1.2\",\"started\":\"2026-11-24T21:00:00Z\""),
	      "%s", buf);
	{
		char *argv[] = {"gdr_write_bw", "--rails=mlx5_0,mlx5_1", "-s", "it's 1"};
		char line[128];

		gdr_shell_line(line, sizeof(line), 4, argv);
		CHECK(!strcmp(line, "gdr_write_bw --rails=mlx5_0,mlx5_1 -s 'it'\\''s 1'"), "%s",
		      line);
		gdr_slow_rule(line, sizeof(line), 90, 100, 0);
		CHECK(!strcmp(line, "slow-pct=90 expect-bw=100"), "%s", line);
	}
}

/*
 * Ranks sharing a NIC: in one round two pairs on one NIC share it, so the
 * relative rule leaves their rows out; on NICs of their own it applies.
 */
static void shared_nic(void)
{
	struct gdr_place one[4] = {0};
	struct gdr_crow rows[6] = {bw(1, 0, 1, 100), bw(1, 2, 3, 50),  bw(2, 0, 2, 100),
				   bw(2, 1, 3, 100), bw(3, 0, 3, 100), bw(3, 1, 2, 100)};
	char buf[4096];
	FILE *f;

	for (int i = 0; i < 4; i++) {
		snprintf(one[i].host, sizeof(one[i].host), "node");
		snprintf(one[i].nic, sizeof(one[i].nic), "rxe0:1");
		one[i].rail = i;
	}
	for (int i = 0; i < 6; i++)
		rows[i].rail = -1; /* --same-host: one group */
	CHECK(gdr_nic_id(one, 3) == 0);
	CHECK(gdr_verdict_apply(rows, 6, one, 4, 0, 0, 90) == 6, "all 6 rows share rxe0");
	CHECK(rows[1].status == GDR_CS_OK, "a pair sharing its NIC is not judged against others");
	/* an absolute threshold still applies */
	rows[1].status = GDR_CS_OK;
	gdr_verdict_apply(rows, 6, one, 4, 75, 0, 90);
	CHECK(rows[1].status == GDR_CS_SLOW && rows[0].status == GDR_CS_OK);
	/* a NIC each: the relative rule flags the slow pair */
	for (int i = 0; i < 4; i++)
		snprintf(one[i].nic, sizeof(one[i].nic), "mlx5_%d:1", i);
	rows[1].status = GDR_CS_OK;
	CHECK(gdr_verdict_apply(rows, 6, one, 4, 0, 0, 90) == 0);
	CHECK(rows[1].status == GDR_CS_SLOW, "%s", gdr_cstatus_name(rows[1].status));
	/* one host: rank 2 is in 3 pairs, 1 flagged... make 2 of its 3 flagged: a suspect rail,
	 * but no suspect node (there is no other node to stand out from) */
	rows[2].status = GDR_CS_FAIL;
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_verdict_summary(f, rows, 6, one, 4, NULL);
	fclose(f);
	CHECK(strstr(buf, "suspect rail: node rail 2"), "%s", buf);
	CHECK(!strstr(buf, "suspect node"), "one host, no suspect node: %s", buf);
	/* two hosts: the same rows name the node */
	snprintf(one[2].host, sizeof(one[2].host), "other");
	snprintf(one[3].host, sizeof(one[3].host), "other");
	f = fmemopen(buf, sizeof(buf), "w");
	gdr_verdict_summary(f, rows, 6, one, 4, NULL);
	fclose(f);
	CHECK(strstr(buf, "suspect node: other"), "%s", buf);
}

/* -R: the server listens on its rail's address, the client binds its own */
static void cm_addrs(void)
{
	struct gdr_place p[2] = {0};
	const char *listen, *dst, *src;

	snprintf(p[0].ip, sizeof(p[0].ip), "10.0.0.1");
	snprintf(p[1].ip, sizeof(p[1].ip), "10.0.0.2");
	gdr_cm_addrs(p, 0, 0, &listen, &dst, &src);
	CHECK(listen && !strcmp(listen, "10.0.0.1") && !dst && !src);
	gdr_cm_addrs(p, 0, 1, &listen, &dst, &src);
	CHECK(!listen && dst && !strcmp(dst, "10.0.0.1") && src && !strcmp(src, "10.0.0.2"),
	      "client source %s", src ? src : "(none)");
}

/* A counter file of the fixture dir/class/infiniband/rxe9/ports/1/hw_counters. */
static void put_count(const char *dir, const char *name, unsigned long v)
{
	char rel[256], text[32];

	snprintf(rel, sizeof(rel), "class/infiniband/rxe9/ports/1/hw_counters/%s", name);
	snprintf(text, sizeof(text), "%lu\n", v);
	put(dir, rel, text);
}

/*
 * -W in cluster mode on a busy mlx5 port (the extended counter set: 64-bit
 * data and packets, issue 43.3): its traffic is traffic, not SATURATED.
 */
static void counters_busy_port(void)
{
	char dir[] = "/tmp/t_cluster.XXXXXX", side[GDR_CSIDE_LEN], why[256], cmd[64];
	const char *c = "class/infiniband/mlx5_9/ports/1/counters/";
	struct gdr_cwatch *w;
	char rel[160];

	CHECK(mkdtemp(dir));
	snprintf(rel, sizeof(rel), "%sport_xmit_data", c);
	put(dir, rel, "912345678901\n");
	snprintf(rel, sizeof(rel), "%sunicast_xmit_packets", c);
	put(dir, rel, "98765432109\n");
	snprintf(rel, sizeof(rel), "%sport_rcv_packets", c);
	put(dir, rel, "98765432100\n");
	setenv("GDR_SYSFS_ROOT", dir, 1);
	w = gdr_cwatch_start("mlx5_9", 1, why, sizeof(why));
	CHECK(w && !why[0], "start: %s", why);
	snprintf(rel, sizeof(rel), "%sport_xmit_data", c);
	put(dir, rel, "912345688901\n"); /* +10000 words */
	gdr_cwatch_end(w, side, sizeof(side));
	CHECK(!strcmp(side, "mlx5_9: port_xmit_data_bytes +40000"), "side: %s", side);
	unsetenv("GDR_SYSFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* -W in cluster mode: a side's text, a pair's cell, the CSV column, the summary line */
static void counters(void)
{
	char dir[] = "/tmp/t_cluster.XXXXXX", path[512], buf[4096], why[256], side[GDR_CSIDE_LEN];
	const char *sub[] = {"class", "class/infiniband", "class/infiniband/rxe9",
			     "class/infiniband/rxe9/ports", "class/infiniband/rxe9/ports/1",
			     "class/infiniband/rxe9/ports/1/hw_counters"};
	struct gdr_ctexts ct = {0};
	struct gdr_cwatch *w;
	FILE *f;

	CHECK(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sub[i]);
		CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
	}
	put_count(dir, "sent_pkts", 100);
	put_count(dir, "rcvd_pkts", 7);
	put_count(dir, "out_of_seq_request", 0);
	setenv("GDR_SYSFS_ROOT", dir, 1);
	w = gdr_cwatch_start("rxe9", 1, why, sizeof(why));
	CHECK(w && !why[0], "start: %s", why);
	put_count(dir, "sent_pkts", 1300);
	put_count(dir, "out_of_seq_request", 3);
	gdr_cwatch_end(w, side, sizeof(side));
	/* trouble first, traffic after; what did not move is left out */
	CHECK(!strcmp(side, "rxe9: out_of_seq_request +3, sent_pkts +1200"), "side: %s", side);
	w = gdr_cwatch_start("rxe9", 1, why, sizeof(why));
	gdr_cwatch_end(w, side, sizeof(side));
	CHECK(!strcmp(side, "rxe9: none moved"), "side: %s", side);
	CHECK(!gdr_cwatch_start("nosuch0", 1, why, sizeof(why)) && why[0], "why: %s", why);
	unsetenv("GDR_SYSFS_ROOT");
	for (int i = (int)(sizeof(sub) / sizeof(sub[0])) - 1; i >= 0; i--) {
		const char *names[] = {"sent_pkts", "rcvd_pkts", "out_of_seq_request"};

		if (i == 5)
			for (int k = 0; k < 3; k++) {
				snprintf(path, sizeof(path), "%s/%s/%s", dir, sub[i], names[k]);
				remove(path);
			}
		snprintf(path, sizeof(path), "%s/%s", dir, sub[i]);
		remove(path);
	}
	remove(dir);

	/* the pair's cell: two hosts are named; one NIC (same host, same device) once */
	gdr_cpair_text(buf, 512, pl, 1, 2, "mlx5_1: symbol_error +7", "mlx5_2: none moved");
	CHECK(!strcmp(buf, "a mlx5_1: symbol_error +7; b mlx5_2: none moved"), "%s", buf);
	gdr_cpair_text(buf, 512, pl, 0, 1, "", "mlx5_1: symbol_error +7");
	CHECK(!strcmp(buf, "mlx5_1: symbol_error +7"), "%s", buf);
	{
		struct gdr_place one[2] = {pl[0], pl[0]};

		gdr_cpair_text(buf, 512, one, 0, 1, "mlx5_0: x +1", "mlx5_0: x +2");
		CHECK(!strcmp(buf, "mlx5_0: x +1"), "%s", buf);
	}

	/* the CSV's last column and the summary's line beside a flagged pair */
	{
		struct gdr_crow rows[6] = {bw(1, 0, 2, 100), bw(1, 1, 3, 100), bw(2, 0, 3, 100),
					   bw(2, 1, 2, 50),  bw(3, 0, 1, 100), bw(3, 2, 3, 100)};
		struct gdr_ccsv cx = {"run1", "pairwise", "write_bw", pl, "1.2", "t", "r", "c", &ct, NULL,
				      NULL,  0};

		CHECK(gdr_ctexts_add(&ct, "") == 0);
		rows[0].cnt = gdr_ctexts_add(&ct, "a mlx5_0: rcvd_pkts +5; b mlx5_2: none moved");
		rows[3].cnt = gdr_ctexts_add(&ct, "a mlx5_1: port_rcv_errors +1204, symbol_error +7");
		CHECK(rows[0].cnt == 1 && rows[3].cnt == 2, "ids %d %d", rows[0].cnt, rows[3].cnt);
		gdr_verdict_apply(rows, 6, NULL, 0, 0, 0, 90);
		f = fmemopen(buf, sizeof(buf), "w");
		CHECK(gdr_verdict_summary(f, rows, 6, pl, 4, &ct) == 1);
		fclose(f);
		CHECK(strstr(buf, "\ncounters: a rail 1 <-> b rail 0 (round 2, SLOW): a mlx5_1: "
				  "port_rcv_errors +1204, symbol_error +7\n"),
		      "%s", buf);
		CHECK(!strstr(buf, "rcvd_pkts"), "an OK pair's counters are not in the summary: %s",
		      buf);
		f = fmemopen(buf, sizeof(buf), "w");
		gdr_ccsv_header(f);
		gdr_ccsv_rows(f, &cx, rows, 2, true);
		fclose(f);
		CHECK(strstr(buf, ",command,counters,blame,route\n") &&
			  strstr(buf, ",r,c,a mlx5_0: rcvd_pkts +5; b mlx5_2: none moved,,\n") &&
			  strstr(buf, ",r,,,,\n"),
		      "%s", buf);
		f = fmemopen(buf, sizeof(buf), "w");
		gdr_cjson_rows(f, &cx, rows + 3, 2, false);
		fclose(f);
		CHECK(strstr(buf, "\"counters\":\"a mlx5_1: port_rcv_errors +1204, symbol_error "
				  "+7\",\"blame\":null,\"route\":null}\n") &&
			  strstr(buf, "\"command\":null,\"counters\":null,\"blame\":null,"
				  "\"route\":null}\n"),
		      "%s", buf);
		gdr_ctexts_free(&ct);
	}
}

int main(void)
{
	placement();
	shared_nic();
	cm_addrs();
	verdicts();
	link();
	csv();
	counters();
	counters_busy_port();
	return CHECK_DONE();
}
