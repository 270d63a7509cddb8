/* SPDX-License-Identifier: MIT */
/* A pair's exit status (base/exitcode.h) from how its run ended. */
#ifndef GDR_RUN_EXIT_H
#define GDR_RUN_EXIT_H

#include <stdbool.h>

/*
 * rc: the run's own result (0 ran, -4 a row below a floor, -1 failed,
 * -2 no client came, -3 this side could not start); interrupted: a client
 * that a SIGINT/SIGTERM stopped. Returns a GDR_EXIT_* value.
 */
int gdr_run_exit_status(int rc, bool interrupted);

#endif
