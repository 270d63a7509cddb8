/* SPDX-License-Identifier: MIT */
/* Unit test: schedules the user gives (--pairs-file) and retest's pick of flagged pairs. */
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "log.h"

#include "check.h"

/* Every round of s: no rank twice; returns the pairs seen, in order, as "a:b ". */
static const char *rounds_text(const struct gdr_sched *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned r = 0; r < s->nrounds; r++) {
		unsigned used[64] = {0};

		for (unsigned k = s->start[r]; k < s->start[r + 1]; k++) {
			CHECK(s->pair[k][0] < s->pair[k][1], "pair %u", k);
			CHECK(!used[s->pair[k][0]] && !used[s->pair[k][1]], "round %u", r);
			used[s->pair[k][0]] = used[s->pair[k][1]] = 1;
			n += (size_t)snprintf(buf + n, len - n, "%u:%u ", s->pair[k][0], s->pair[k][1]);
		}
		n += (size_t)snprintf(buf + n, len - n, "| ");
	}
	return buf;
}

static void pairs_file(void)
{
	struct gdr_sched s;
	char buf[512];

	CHECK(gdr_pairs_parse("# two rounds\n0:1 2-3\n\n3:0, 2:1 # comment\n", "f", 4, &s) == 0);
	CHECK(s.nrounds == 2 && s.npairs == 4, "%u rounds %u pairs", s.nrounds, s.npairs);
	CHECK(!strcmp(rounds_text(&s, buf, sizeof(buf)), "0:1 2:3 | 0:3 1:2 | "), "%s", buf);
	gdr_sched_free(&s);
	/* refused: a rank twice in a round, out of range, itself, not a pair, nothing */
	CHECK(gdr_pairs_parse("0:1 1:2\n", "f", 4, &s) == -1);
	CHECK(s.start == NULL && s.pair == NULL);
	CHECK(gdr_pairs_parse("0:4\n", "f", 4, &s) == -1);
	CHECK(gdr_pairs_parse("2:2\n", "f", 4, &s) == -1);
	CHECK(gdr_pairs_parse("0:1 2\n", "f", 4, &s) == -1);
	CHECK(gdr_pairs_parse("0:1x\n", "f", 4, &s) == -1);
	CHECK(gdr_pairs_parse("-1:2\n", "f", 4, &s) == -1);
	CHECK(gdr_pairs_parse("# none\n\n", "f", 4, &s) == -1);
	/* the same rank in two rounds is fine */
	CHECK(gdr_pairs_parse("0:1\n0:1\n", "f", 2, &s) == 0 && s.nrounds == 2);
	gdr_sched_free(&s);
}

static void retest(void)
{
	/* hosts a a b b: rails 0 1 0 1 */
	static const char *const h[] = {"a", "a", "b", "b"};
	static const char csv[] =
	    "run_id,round,pattern,test,bytes,path,host_a,rail_a,nic_a,gpu_a,host_b,rail_b,nic_b,"
	    "gpu_b,status,bw_gbps,lat_median_us,lat_p99_us,iterations,seconds,error\n"
	    "r,1,pairwise,write_bw,4096,host,a,0,x:1,host,b,0,x:1,host,OK,1,,,1,1,\n"
	    "r,1,pairwise,write_bw,4096,host,a,1,x:1,host,b,1,x:1,host,SLOW,1,,,1,1,\n"
	    "r,1,pairwise,write_bw,8192,host,a,1,x:1,host,b,1,x:1,host,SLOW,1,,,1,1,\n"
	    "r,2,pairwise,write_bw,4096,-,a,0,x:1,host,a,1,x:1,host,FAIL,,,,,1,\"x, \"\"y\"\"\"\n"
	    "r,2,pairwise,write_bw,4096,-,b,0,x:1,host,b,1,x:1,host,TIMEOUT,,,,,1,lost\n"
	    "r,3,pairwise,write_bw,4096,-,c,0,x:1,host,b,1,x:1,host,FAIL,,,,,1,no c here\n"
	    "r,3,pairwise,write_bw,,-,b,0,x:1,host,,,,,SKIP,,,,,,no partner\n";
	struct gdr_place pl[4] = {0};
	struct gdr_sched s;
	unsigned skipped = 9;
	char buf[512];

	for (int i = 0; i < 4; i++)
		snprintf(pl[i].host, sizeof(pl[i].host), "%s", h[i]);
	gdr_place_rails(pl, 4);
	CHECK(gdr_retest_parse(csv, "c", pl, 4, &s, &skipped) == 0);
	/* 1:3 (twice in the CSV, once here), 0:1 and 2:3 in one round, 1:3 in another */
	CHECK(skipped == 1, "%u", skipped);
	CHECK(s.npairs == 3 && s.nrounds == 2, "%u pairs %u rounds", s.npairs, s.nrounds);
	CHECK(!strcmp(rounds_text(&s, buf, sizeof(buf)), "0:1 2:3 | 1:3 | "), "%s", buf);
	gdr_sched_free(&s);
	/* nothing flagged: no rounds */
	CHECK(gdr_retest_parse("host_a,rail_a,host_b,rail_b,status\na,0,b,0,OK\n", "c", pl, 4, &s,
			       &skipped) == 0 &&
	      s.nrounds == 0 && s.npairs == 0);
	gdr_sched_free(&s);
	CHECK(gdr_retest_parse("a,b,c\n1,2,3\n", "c", pl, 4, &s, &skipped) == -1);
}

int main(void)
{
	gdr_quiet = 1;
	pairs_file();
	retest();
	return CHECK_DONE();
}
