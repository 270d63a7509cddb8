/* SPDX-License-Identifier: MIT */
/*
 * The report's path columns follow the path rows (driver/path_setup.c), not
 * --staged/--compare read in the reporter: which rows run for the options,
 * and a run's own paths.
 */
#include "config.h"
#include "path_setup.h"
#include "run_state.h"

#include "check.h"

static void plan(bool staged, bool compare, bool want_staged, bool want_ref)
{
	struct gdr_opts o = {.staged = staged, .compare = compare};
	struct gdr_run_info ri = {0};

	gdr_paths_plan_info(&o, &ri);
	CHECK(ri.staged_path == want_staged && ri.ref_path == want_ref,
	      "staged %d compare %d: staged_path %d ref_path %d", staged, compare, ri.staged_path,
	      ri.ref_path);
}

int main(void)
{
	struct gdr_run r = {0};

	plan(false, false, false, false); /* direct (or host) alone */
	plan(true, false, true, false);	  /* staged alone: nothing to compare it with */
	plan(false, true, true, true);	  /* direct, staged compared with it */
	plan(true, true, true, true);

	/* a run's paths: one direct path has no header lines and no path columns */
	r.c.npaths = 1;
	r.c.path[0] = (struct gdr_path){.name = "direct", .ref = -1, .row = 1};
	gdr_paths_header(&r);
	CHECK(!r.ri.staged_path && !r.ri.ref_path && !r.ri.staged[0] && !r.ri.stage_copy[0]);
	return CHECK_DONE();
}
