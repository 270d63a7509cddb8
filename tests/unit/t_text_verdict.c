/* SPDX-License-Identifier: MIT */
/*
 * A pair's text output with a floor set (issue 34 item 6): each judged row ends
 * with PASS or FAIL, and a verdict line under the table counts them; without a
 * floor the table has neither.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reporter.h"

#include "check.h"

/* The text table of rows r[0..n) (verdicts as given), in a malloc'ed string. */
static char *table_of(const struct gdr_result *r, int n, char *rails)
{
	struct gdr_opts o = {.kind = GDR_KIND_BW, .rails = rails};
	struct gdr_run_info ri = {
	    .test = "write_bw", .kind = GDR_KIND_BW, .role = "client", .opts = &o};
	struct gdr_reporter rep;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f && gdr_report_text_new(&rep, f) == 0);
	CHECK(rep.ops->begin(rep.ctx, &ri) == 0);
	for (int i = 0; i < n; i++)
		CHECK(rep.ops->row(rep.ctx, &ri, &r[i]) == 0);
	CHECK(rep.ops->end(rep.ctx, &ri) == 0);
	rep.ops->destroy(rep.ctx);
	fclose(f);
	return text;
}

static char *table(const struct gdr_result *r, int n)
{
	return table_of(r, n, NULL);
}

int main(void)
{
	struct gdr_result r[2] = {
	    {.path = "host",
	     .bytes = 4096,
	     .iters = 10,
	     .duration_s = 1,
	     .bw_avg_Bps = 5e7,
	     .bw_peak_Bps = 5e7,
	     .verdict = GDR_VERDICT_PASS},
	    {.path = "host",
	     .bytes = 65536,
	     .iters = 10,
	     .duration_s = 1,
	     .bw_avg_Bps = 4e7,
	     .bw_peak_Bps = 4e7,
	     .verdict = GDR_VERDICT_FAIL},
	};
	char *t = table(r, 2);

	CHECK(strstr(t, " PASS\n") && strstr(t, " FAIL\n"), "%s", t);
	CHECK(strstr(t, "\n verdict: FAIL (1 of 2 judged rows below their floor)\n"), "%s", t);
	free(t);
	t = table(r, 1);
	CHECK(strstr(t, "\n verdict: PASS (1 of 1 judged rows at or above their floor)\n"), "%s",
	      t);
	free(t);
	/* --rails: a rail that could not run FAILs with no floor; its verdict in one column */
	r[0].verdict = GDR_VERDICT_NONE;
	snprintf(r[1].why, sizeof(r[1].why), "rail rxe1:1 failed: server: not this server's run");
	t = table_of(r, 2, "rxe0,rxe1");
	CHECK(!strstr(t, "below their floor") && !strstr(t, "FAIL  FAIL") &&
		  !strstr(t, "FAIL FAIL") && strstr(t, "   FAIL: rail rxe1:1 failed") &&
		  strstr(t, "\n verdict: FAIL (1 of 1 judged rows: below a floor or a rail failed"),
	      "%s", t);
	free(t);
	r[0].verdict = GDR_VERDICT_NONE; /* no floor: no verdict anywhere */
	t = table(r, 1);
	CHECK(!strstr(t, "PASS") && !strstr(t, "verdict"), "%s", t);
	free(t);
	return CHECK_DONE();
}
