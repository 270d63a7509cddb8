/* SPDX-License-Identifier: MIT */
/*
 * The bandwidth floors (-w, --expect-bw) against what the port can carry,
 * before any traffic: a floor above the port's rate can never pass (refused),
 * one below 1% of it passes anything (a warning naming the unit the floor was
 * read in: -w is MiB/s unless --report_gbits, --expect-bw=auto:PCT a percentage).
 */
#ifndef GDR_FLOOR_H
#define GDR_FLOOR_H

#include "conn.h"
#include "opts.h"

/*
 * The words of the check, pure: port_Bps is what the port carries (both
 * directions with -b; <= 0 unknown: nothing to say). Returns 1 refused, 0 fine,
 * -1 a warning; line holds the refusal or the warning ("" when fine).
 */
int gdr_floor_judge(const struct gdr_opts *o, double port_Bps, const char *port, char *line,
		    size_t n);

/* A client's floors against its port (c's device is open): 0, or -1 refused (printed). */
int gdr_floor_check(const struct gdr_conn *c);

#endif
