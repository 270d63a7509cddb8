/* SPDX-License-Identifier: MIT */
/* The driver's one entry point: a test binary's main hands it argv and its default test. */
#ifndef GDR_RUN_H
#define GDR_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "oob.h"
#include "opts.h"
#include "report.h"
#include "results.h"
#include "run_state.h"

/* How cluster mode runs one side of one pair; NULL: as the options say (TCP). */
struct gdr_run_hooks {
	struct gdr_oob *oob; /* a connected channel, taken over (closed at the end) */
	bool is_server;
	struct gdr_reporter *sink; /* gets every row instead of text/CSV/JSON */
	int listen_fd;		   /* > 0: a server's listening socket, held by the launcher */
	bool samples;		   /* with a sink: this side still writes --samples' file */
	/* client: called before each size (--rails: a barrier across rails); non-zero stops */
	int (*before_size)(void *ctx, uint64_t size);
	void *ctx;
};

/* One side of one test from parsed options: a GDR_EXIT_* status (base/exitcode.h). (serve.c) */
int gdr_run(const struct gdr_opts *o, const struct gdr_test *t, const struct gdr_run_hooks *h);

/* Inside the driver (run.c): one run from the device up, and what it leaves to release. */
int gdr_run_once(struct gdr_run *r, const struct gdr_test *t, struct gdr_reports *rs,
		 const struct gdr_run_hooks *h);
void gdr_run_end(struct gdr_run *r, struct gdr_reports *rs);

#endif
