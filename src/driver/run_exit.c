/* SPDX-License-Identifier: MIT */
/* How a pair's run ended: see run_exit.h and base/exitcode.h. */
#include "config.h"
#include <stdio.h>
#include "exitcode.h"
#include "log.h"
#include "run_state.h"
#include "run_exit.h"

int gdr_run_exit_status(int rc, bool interrupted)
{
	if (rc == 0)
		return GDR_EXIT_OK; /* --run_infinitely's Ctrl-C ends it this way too */
	if (interrupted)
		return GDR_EXIT_INTERRUPTED;
	if (rc == -4)
		return GDR_EXIT_FAIL;
	if (rc == -5)
		return GDR_EXIT_USAGE;
	return GDR_EXIT_ERROR;
}

int gdr_run_finish(struct gdr_run *r, struct gdr_reports *rs, int status)
{
	const struct gdr_opts *o = r->c.o;
	char test[32], why[400] = "";
	struct gdr_run_outcome e = {.status = status,
				    .interrupted = status == GDR_EXIT_INTERRUPTED,
				    .test = test,
				    .dev = r->c.dev_name[0] ? r->c.dev_name
					   : o->dev_name    ? o->dev_name
							    : "",
				    .why = why};

	if (!rs->n)
		return status; /* nothing was opened: a usage error */
	snprintf(test, sizeof(test), "%s_%s", gdr_verb_name(o->verb), gdr_kind_name(o->kind));
	if (e.interrupted)
		snprintf(why, sizeof(why), "%s",
			 r->ri.stopped[0] ? r->ri.stopped
					  : "interrupted while setting up the test: no size ran");
	else if (status != GDR_EXIT_OK)
		snprintf(why, sizeof(why), "%s", gdr_last_error());
	if (gdr_reports_finish(rs, &r->ri, &e) && status != GDR_EXIT_INTERRUPTED)
		return GDR_EXIT_ERROR;
	return status;
}
