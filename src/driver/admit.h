/* SPDX-License-Identifier: MIT */
/* The server's admission: what it announces, and each client's request checked. */
#ifndef GDR_ADMIT_H
#define GDR_ADMIT_H

#include "conn.h"
#include "oob.h"
#include "opts.h"
#include "run_state.h"

/* Combinations the tests do not have: 0, or -1 (printed). */
int gdr_check_combination(const struct gdr_opts *o);
/* The server says at once what it is doing, and how to start its client. */
void gdr_announce(const struct gdr_conn *c, const char *prog);
/*
 * A client's request, checked: 0 accepted (run->o is the server's own
 * options with the client's test, run->req the test), else
 * GDR_REFUSED(_FATAL) (REJECT sent).
 */
int gdr_admit(struct gdr_run *run, const struct gdr_msg *m);
/* Wait for an admitted client: 0, -1 (printed), -2 none within --listen_timeout. */
int gdr_await_client(struct gdr_run *run);

/* Seconds to milliseconds for the channel's waits; a negative time: -1 (no limit). */
static inline int gdr_ms(double s)
{
	return s < 0 ? -1 : (int)(s * 1000);
}

#endif
