/* SPDX-License-Identifier: MIT */
/* The state of one run in the driver, around the connection (every driver file reads it). */
#ifndef GDR_RUN_STATE_H
#define GDR_RUN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "allow.h"
#include "conn.h"
#include "oob.h"
#include "report.h"
#include "staging.h"
#include "stop.h"
#include "test_req.h"

struct gdr_run_hooks; /* run.h */

/*
 * One run of a test on one side: the connection (transport) and what only
 * the driver keeps: the report's header, the server's admission, where a
 * stopped client was.
 */
struct gdr_run {
	struct gdr_conn c;	     /* c.o points at o */
	const struct gdr_opts *base; /* this side's own options, never written */
	struct gdr_opts o;	     /* the run's: base, on a server with the client's test */
	struct gdr_test_req req;     /* the negotiated test (the client's, or its HELLO) */
	FILE *samples;		     /* --samples (client), or NULL */
	struct gdr_run_info ri;
	char test_name[32];
	char scatter_desc[96]; /* scatter-to-CQE setting, for the header */
	/* server: admission */
	int lfd;		/* listening socket, -1 when closed */
	struct gdr_busy busy;	/* refuses further clients during the test */
	struct gdr_allow allow; /* --allow */
	bool admitted;		/* a client's test was accepted */
	bool sizes_started;	/* setup is over: the sizes began */
	struct gdr_stage_copy stage_copy; /* the staged path's copier per size (this side) */
	const struct gdr_run_hooks *hooks; /* NULL: a plain run */
	/* client: where a SIGINT/SIGTERM stopped the run, for its last line */
	struct {
		struct gdr_stop_at at; /* a timed loop saw it (gdr_interrupted) */
		bool reported;	   /* the driver said where */
		uint64_t size;	   /* the size under way (0: none yet) */
		size_t sizes_done; /* sizes whose rows are written */
	} stop;
};

#endif
