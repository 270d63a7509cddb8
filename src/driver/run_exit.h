/* SPDX-License-Identifier: MIT */
/* How a pair's run ended: its exit status (base/exitcode.h) and the outputs' last word. */
#ifndef GDR_RUN_EXIT_H
#define GDR_RUN_EXIT_H

#include <stdbool.h>
#include "report.h"

struct gdr_run;

/*
 * rc: the run's own result (0 ran, -4 a row below a floor, -1 failed,
 * -2 no client came, -3 this side could not start, -5 the options do not fit
 * the device: a floor above the port's rate); interrupted: a client
 * that a SIGINT/SIGTERM stopped. Returns a GDR_EXIT_* value.
 */
int gdr_run_exit_status(int rc, bool interrupted);

/*
 * Every run that opened its outputs, failed or not: the outputs that keep the
 * run's outcome (--prom) write it, with the error or where it stopped.
 * Returns status, or GDR_EXIT_ERROR when that write failed (printed).
 */
int gdr_run_finish(struct gdr_run *r, struct gdr_reports *rs, int status);

#endif
