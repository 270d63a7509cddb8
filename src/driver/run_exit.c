/* SPDX-License-Identifier: MIT */
/* A pair's exit status: see run_exit.h and base/exitcode.h. */
#include "config.h"
#include "exitcode.h"
#include "run_exit.h"

int gdr_run_exit_status(int rc, bool interrupted)
{
	if (rc == 0)
		return GDR_EXIT_OK; /* --run_infinitely's Ctrl-C ends it this way too */
	if (interrupted)
		return GDR_EXIT_INTERRUPTED;
	if (rc == -4)
		return GDR_EXIT_FAIL;
	return GDR_EXIT_ERROR;
}
