/* SPDX-License-Identifier: MIT */
/*
 * What runs follows the path rows (driver/path_setup.c), not --staged/
 * --compare read here and there: the rows planned for the options (paths,
 * staged, compared, the host reference with GPU memory), and a run's own
 * paths' header and columns.
 */
#include "config.h"
#include "path_setup.h"
#include "run_state.h"

#include "check.h"

static void plan(bool staged, bool compare, bool want_staged, bool want_ref)
{
	struct gdr_opts o = {.staged = staged, .compare = compare};
	struct gdr_path_plan pp = gdr_paths_plan(&o, false), gpu = gdr_paths_plan(&o, true);

	CHECK(pp.staged == want_staged && pp.ref == want_ref && !pp.host_mem,
	      "staged %d compare %d: staged %d ref %d host %d", staged, compare, pp.staged, pp.ref,
	      pp.host_mem);
	/* GPU memory on either side adds the host reference to --compare only */
	CHECK(gpu.n == pp.n + compare && gpu.host_mem == compare && gpu.staged == pp.staged,
	      "staged %d compare %d with GPU memory: %u paths", staged, compare, gpu.n);
	CHECK(pp.n == (compare ? 2u : 1u), "staged %d compare %d: %u paths", staged, compare, pp.n);
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
