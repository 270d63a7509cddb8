/* SPDX-License-Identifier: MIT */
/* The loop transport's table, for the registry (xport.c); its objects are in loop.h. */
#ifndef GDR_LOOP_XP_H
#define GDR_LOOP_XP_H

#include "xport.h"

extern const struct gdr_xport_ops gdr_xport_loop;

#endif
