/* SPDX-License-Identifier: MIT */
/*
 * Fan-out: every registered kind of reporter the options ask for (the text
 * table always, CSV and JSON when asked). Every reporter sees every call
 * even when another one failed; the first failure is returned.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "report.h"

/* Every kind of reporter, in the order they see each call. */
static const struct gdr_reporter_kind *const kinds[] = {
    &gdr_reporter_text,
    &gdr_reporter_number,
    &gdr_reporter_csv,
    &gdr_reporter_json,
    &gdr_reporter_prom,
};

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) <= GDR_MAX_REPORTERS,
	       "struct gdr_reports holds one reporter of each kind");

int gdr_reports_open(struct gdr_reports *rs, const struct gdr_report_files *f)
{
	memset(rs, 0, sizeof(*rs));
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		int rc = kinds[i]->open(&rs->r[rs->n], f);

		if (rc < 0) {
			gdr_reports_close(rs);
			return -1;
		}
		rs->n += rc;
	}
	return 0;
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

int gdr_reports_finish(struct gdr_reports *rs, const struct gdr_run_info *ri,
		       const struct gdr_run_outcome *e)
{
	int i, ret = 0;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].ops->finish && rs->r[i].ops->finish(rs->r[i].ctx, ri, e) < 0)
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
