/* SPDX-License-Identifier: MIT */
/*
 * --output=bandwidth|message_rate|latency: perftest's single number, the one
 * scripts parse. In place of the text table, each row prints its average
 * alone on a line of stdout, as perftest's "%lf\n": the average bandwidth in
 * the table's unit (MiB/s, Gb/s with --report_gbits), the average message rate
 * in Mpps, or the average latency in usec. Nothing else goes to stdout.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "log.h"
#include "report_priv.h"

struct number {
	FILE *out;
	enum gdr_output what;
};

static int number_begin(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx;
	(void)ri;
	return 0;
}

double gdr_output_value(enum gdr_output what, bool gbits, const struct gdr_result *r)
{
	switch (what) {
	case GDR_OUTPUT_BANDWIDTH:
		return r->has_lat ? NAN
		       : gbits	  ? gdr_to_gbps(r->bw_avg_Bps)
				  : gdr_to_mibps(r->bw_avg_Bps);
	case GDR_OUTPUT_MESSAGE_RATE:
		return r->has_lat ? NAN : r->msg_rate_pps / 1e6;
	case GDR_OUTPUT_LATENCY:
		return r->has_lat ? r->lat.avg : NAN;
	default:
		return NAN;
	}
}

static int number_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct number *n = ctx;
	double v = gdr_output_value(n->what, ri->report_gbits, r);

	if (isfinite(v))
		fprintf(n->out, "%f\n", v);
	else
		fprintf(n->out, "-\n"); /* a row without the figure keeps its line */
	fflush(n->out);
	return ferror(n->out) ? -1 : 0;
}

static int number_end(void *ctx, const struct gdr_run_info *ri)
{
	struct number *n = ctx;

	(void)ri;
	if (fflush(n->out) != 0 || ferror(n->out)) {
		gdr_err(
		    "cannot write the --output figures (is the output closed or the disk full?)");
		return -1;
	}
	return 0;
}

static void number_destroy(void *ctx)
{
	free(ctx);
}

static const struct gdr_reporter_ops number_ops = {
    .name = "output",
    .begin = number_begin,
    .row = number_row,
    .end = number_end,
    .destroy = number_destroy,
};

int gdr_report_number_new(struct gdr_reporter *r, FILE *out, enum gdr_output what)
{
	struct number *n = calloc(1, sizeof(*n));

	if (!n) {
		gdr_err("out of memory");
		return -1;
	}
	n->out = out;
	n->what = what;
	r->ops = &number_ops;
	r->ctx = n;
	return 0;
}

static int number_open(struct gdr_reporter *r, const struct gdr_report_files *f)
{
	if (f->output == GDR_OUTPUT_TABLE)
		return 0;
	return gdr_report_number_new(r, stdout, (enum gdr_output)f->output) < 0 ? -1 : 1;
}

const struct gdr_reporter_kind gdr_reporter_number = {"output", number_open};
