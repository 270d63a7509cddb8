/* SPDX-License-Identifier: MIT */
/* Internal: set one option's field from its argument string. */
#ifndef GDR_OPTS_PARSE_H
#define GDR_OPTS_PARSE_H

#include <stdbool.h>
#include "opts_int.h"

/*
 * Parse s for row e into o. user: the string came from the command line
 * (range checks apply; defaults may hold values outside the user range, e.g.
 * -1 = automatic). Returns 0, or -1 with one error line printed.
 */
int gdr_opt_set(const struct gdr_opt *e, struct gdr_opts *o, const char *s, bool user);

#endif
