/* SPDX-License-Identifier: MIT */
/*
 * --matrix's cells without a device (launch/matrix.c): each cell runs with a run token of
 * this run's own (a stray local client that reaches a cell's port is refused), and no
 * output gets a row before its header, even when no single cell reported its facts and
 * the first row is a --matrix_shared run's.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "matrix_int.h"
#include "opts.h"
#include "rails_int.h"
#include "report.h"

static void cell_token(void)
{
	static struct mx m;
	struct gdr_opts o = {.matrix_time = 2}, co;
	size_t len;

	m.o = &o;
	m.size = 4096;
	co = mx_cell_opts(&m);
	len = co.run_token ? strlen(co.run_token) : 0;
	CHECK(len >= 1 && len <= 31 && strspn(co.run_token, GDR_RUN_TOKEN_CHARS) == len,
	      "a cell's own token: '%s'", co.run_token ? co.run_token : "(none)");
	CHECK(!o.run_token, "the run's options keep none");
	CHECK(co.size == 4096 && co.duration == 2 && co.compare && !co.matrix);
	o.run_token = (char *)"given.1";
	co = mx_cell_opts(&m);
	CHECK(co.run_token && !strcmp(co.run_token, "given.1"), "a given token is the cells'");
}

static char seq[16], head_test[32];

static int s_begin(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx;
	strcat(seq, "B");
	snprintf(head_test, sizeof(head_test), "%s", ri->test ? ri->test : "");
	return 0;
}
static int s_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	(void)ctx, (void)ri, (void)r;
	strcat(seq, "R");
	return 0;
}
static int s_end(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx, (void)ri;
	return 0;
}
static void s_destroy(void *ctx)
{
	(void)ctx;
}
static const struct gdr_reporter_ops seq_ops = {"seq", s_begin, s_row, s_end, s_destroy, NULL};

static void header_first(void)
{
	static struct mx m;
	static struct rail silent, said;
	struct gdr_reports rs = {.n = 1, .r = {{&seq_ops, NULL}}};
	struct gdr_result row = {.path = "direct"};
	struct gdr_run_info ri = {.gid_index = -1};

	/* every cell failed before its header: none begins the outputs */
	CHECK(!mx_begin(&m, &rs, &silent) && !strcmp(seq, ""), "'%s'", seq);
	/* then a shared run's row: its rail's facts head the outputs, then the row */
	said.has_info = true;
	snprintf(said.test, sizeof(said.test), "write_bw");
	CHECK(mx_row(&m, &rs, &said, &ri, &row) == 0 && !strcmp(seq, "BR"), "'%s'", seq);
	CHECK(!strcmp(head_test, "write_bw") && m.begun, "the header: '%s'", head_test);
	CHECK(mx_row(&m, &rs, &silent, &ri, &row) == 0 && !strcmp(seq, "BRR"), "one header: '%s'",
	      seq);
	CHECK(mx_begin(&m, &rs, &said) && !strcmp(seq, "BRR"), "'%s'", seq);
}

int main(void)
{
	cell_token();
	header_first();
	return CHECK_DONE();
}
