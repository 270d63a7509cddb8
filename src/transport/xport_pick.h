/* SPDX-License-Identifier: MIT */
/* --transport=NAME checked before any network step (xport_pick.c). */
#ifndef GDR_XPORT_PICK_H
#define GDR_XPORT_PICK_H

#include "opts.h"
#include "xport.h"

/*
 * The transport NAME names (NULL: the default): 0 and *xp its table (NULL
 * while verbs, built in, has no row in the registry); -1 and one line
 * printed: an unknown name with the names this build has, or a transport
 * this build lacks with what to build it with.
 */
int gdr_xport_pick(const char *name, const struct gdr_xport_ops **xp);

#endif
