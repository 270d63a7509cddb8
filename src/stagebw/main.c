/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw: host<->GPU copy bandwidth, the copy leg of --staged, without a NIC. */
#include "config.h"
#include "exitcode.h"
#include "log.h"
#include "stage.h"

int main(int argc, char **argv)
{
	struct stage_opts o;
	int rc;

	gdr_set_prog(argv[0]);
	rc = stage_parse(&o, argc, argv);
	if (rc) {
		stage_opts_free(&o);
		return rc < 0 ? GDR_EXIT_USAGE : GDR_EXIT_OK;
	}
	gdr_quiet = o.quiet;
	rc = stage_run(&o);
	stage_opts_free(&o);
	return rc ? GDR_EXIT_ERROR
		  : GDR_EXIT_OK; /* no floors: a failure is a run that could not end */
}
