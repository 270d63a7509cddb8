/* SPDX-License-Identifier: MIT */
/*
 * Acceptance around each size of a run: the port's rate as the row's
 * ceiling, the -w/-y/--expect-bw verdict, and with -W the counters that
 * moved during the size. run.c calls before() and after() around each row.
 */
#ifndef GDR_ACCEPT_H
#define GDR_ACCEPT_H

#include "conn.h"
#include "results.h"

struct gdr_accept_state;

struct gdr_accept {
	struct gdr_accept_state *s; /* NULL: nothing asked for */
	int failed;		    /* rows below a limit */
};

/*
 * Sets up what the options ask for, and with a verdict to give, ri->verdict
 * (the header's line: the path judged, the limits, auto's arithmetic); 0, or
 * -1 out of memory (printed).
 */
int gdr_accept_init(struct gdr_accept *a, const struct gdr_conn *c, struct gdr_run_info *ri);
/* -W LIST: every counter it names exists on this side's port; 0, or -1 (printed). */
int gdr_accept_check_list(const struct gdr_conn *c);
/* Before a row is measured: the first counter read. */
void gdr_accept_before(struct gdr_accept *a);
/* After path p's row: ceiling, verdict (a failure is printed) and counter deltas into r. */
void gdr_accept_after(struct gdr_accept *a, const struct gdr_conn *c, const struct gdr_path *p,
		      struct gdr_result *r);
/*
 * The most events a port counter can have seen while a row ran: packets sent
 * and received (data, and its acknowledgements or responses, one each at
 * most) at the row's message rate (iters / duration_s), messages of bytes cut
 * at mtu bytes, over secs (the time between the counter reads).
 */
double gdr_accept_row_events(uint64_t bytes, uint64_t iters, double duration_s, uint32_t mtu,
			     double secs);
/* Frees; returns the number of rows that failed a limit. */
int gdr_accept_end(struct gdr_accept *a);

#endif
