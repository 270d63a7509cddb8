/* SPDX-License-Identifier: MIT */
/*
 * Fan-out: the text table always (on stdout, or on stderr when --json=-
 * takes stdout), plus CSV and JSON when asked for. Every reporter sees
 * every call even when another one failed; the first failure is returned.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "report.h"

int gdr_reports_open(struct gdr_reports *rs, const struct gdr_opts *o)
{
	bool json_stdout = o->json_file && strcmp(o->json_file, "-") == 0;

	memset(rs, 0, sizeof(*rs));
	if (gdr_report_text_new(&rs->r[rs->n], json_stdout ? stderr : stdout) < 0)
		goto fail;
	rs->n++;
	if (o->csv_file) {
		if (gdr_report_csv_new(&rs->r[rs->n], o->csv_file) < 0)
			goto fail;
		rs->n++;
	}
	if (o->json_file) {
		if (gdr_report_json_new(&rs->r[rs->n], o->json_file) < 0)
			goto fail;
		rs->n++;
	}
	return 0;
fail:
	gdr_reports_close(rs);
	return -1;
}

int gdr_reports_begin(struct gdr_reports *rs, const struct gdr_run_info *ri)
{
	int i, ret = 0;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].ops->begin(rs->r[i].ctx, ri) < 0)
			ret = -1;
	return ret;
}

int gdr_reports_row(struct gdr_reports *rs, const struct gdr_run_info *ri,
		    const struct gdr_result *r)
{
	int i, ret = 0;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].ops->row(rs->r[i].ctx, ri, r) < 0)
			ret = -1;
	return ret;
}

int gdr_reports_end(struct gdr_reports *rs, const struct gdr_run_info *ri)
{
	int i, ret = 0;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].ops->end(rs->r[i].ctx, ri) < 0)
			ret = -1;
	return ret;
}

void gdr_reports_close(struct gdr_reports *rs)
{
	int i;

	for (i = 0; i < rs->n; i++)
		rs->r[i].ops->destroy(rs->r[i].ctx);
	rs->n = 0;
}
