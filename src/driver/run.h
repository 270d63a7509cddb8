/* SPDX-License-Identifier: MIT */
/* The driver's one entry point: a test binary's main hands it argv and its default test. */
#ifndef GDR_RUN_H
#define GDR_RUN_H

#include <stdbool.h>
#include "oob.h"
#include "opts.h"
#include "report.h"

/* How cluster mode runs one side of one pair; NULL: as the options say (TCP). */
struct gdr_run_hooks {
	struct gdr_oob *oob; /* a connected channel, taken over (closed at the end) */
	bool is_server;
	struct gdr_reporter *sink; /* gets every row instead of text/CSV/JSON */
};
/* One side of one test from parsed options. 0, or 1 (error printed). */
int gdr_run(const struct gdr_opts *o, const struct gdr_test *t, const struct gdr_run_hooks *h);

#endif
