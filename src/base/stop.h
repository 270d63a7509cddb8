/* SPDX-License-Identifier: MIT */
/* A clean stop on SIGINT/SIGTERM (--run_infinitely): the signal only sets a flag loops read. */
#ifndef GDR_STOP_H
#define GDR_STOP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * From now on the first SIGINT or SIGTERM asks for a stop (gdr_stop_requested);
 * a second one, a second or more later, ends the process as usual (an
 * immediate repeat, as timeout(1) sends, is the same stop). 0 or -1.
 */
int gdr_stop_on_signals(void);
/*
 * As gdr_stop_on_signals, for a launcher that holds what its children completed: the
 * second signal (a second or more after the first) asks it to hurry (gdr_stop_hurried)
 * instead of ending it; a third, a second or more after that, ends it. 0 or -1.
 */
int gdr_stop_on_signals_hurry(void);
bool gdr_stop_requested(void);
bool gdr_stop_hurried(void);
/* "SIGINT" or "SIGTERM": the signal that asked for the stop ("a signal" before one came). */
const char *gdr_stop_signal_name(void);

/* Where a timed loop saw the stop (gdr_interrupted); the driver's run keeps it. */
struct gdr_stop_at {
	bool in_loop;	      /* a timed loop saw it (done/total are set) */
	uint64_t done, total; /* its messages so far, of total (0: -D) */
};

#endif
