/* SPDX-License-Identifier: MIT */
/*
 * The staged loop's operation kind (xport.h) for one wire unit, from the
 * verb row's wire operation (options/verb_def.h): the staged path posts what
 * the direct path posts, plus the data that ends a run.
 */
#ifndef GDR_STAGE_WR_H
#define GDR_STAGE_WR_H

#include <stdbool.h>
#include <stdint.h>
#include "verb_def.h"
#include "xport.h"

/*
 * The kind (enum gdr_xop_kind) of a unit (end: its run's last; flush: an
 * empty message into a leftover receive). 0, or -1 when the staged loop
 * cannot carry op (the verb's row refuses --staged: no_staged).
 */
int gdr_stage_unit_op(enum gdr_wire_op op, bool end, bool flush, uint8_t *kind);

#endif
