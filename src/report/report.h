/* SPDX-License-Identifier: MIT */
/*
 * Reporting: the fan-out a run writes its results through, to every
 * reporter the options ask for (reporter.h); the results themselves are in
 * results.h.
 */
#ifndef GDR_REPORT_H
#define GDR_REPORT_H

#include "reporter.h"
#include "results.h"

/* Fan-out to every reporter the options ask for (text always). */
#define GDR_MAX_REPORTERS 5

struct gdr_reports {
	int n;
	struct gdr_reporter r[GDR_MAX_REPORTERS];
};
int gdr_reports_open(struct gdr_reports *rs, const struct gdr_report_files *f);
/* Where the text output goes: stdout, or stderr when --json=- or --output takes stdout. */
FILE *gdr_text_stream(const struct gdr_report_files *f);
int gdr_reports_begin(struct gdr_reports *rs, const struct gdr_run_info *ri);
int gdr_reports_row(struct gdr_reports *rs, const struct gdr_run_info *ri,
		    const struct gdr_result *r);
int gdr_reports_end(struct gdr_reports *rs, const struct gdr_run_info *ri);
/*
 * Every run that opened its outputs ends here, failed or not (after end() or
 * instead of it): the outputs that keep the run's outcome write it. 0, or -1
 * (printed).
 */
int gdr_reports_finish(struct gdr_reports *rs, const struct gdr_run_info *ri,
		       const struct gdr_run_outcome *e);
void gdr_reports_close(struct gdr_reports *rs);

#endif
