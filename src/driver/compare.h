/* SPDX-License-Identifier: MIT */
/* --compare: the copy leg measured alone before each size, and what explains a staged row. */
#ifndef GDR_COMPARE_H
#define GDR_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "ctx.h"
#include "results.h"

/* The staged row r[k] of this size: its chunk, ring and streams. */
void gdr_compare_staged_plan(const struct gdr_ctx *c, uint64_t size, struct gdr_result *r);
/*
 * Measure this side's stager copy rate for its roles at this size's chunk
 * (a few ms, no network), exchange it with the peer, and return the slower
 * side's rate in *Bps (0 when no copy is timed, e.g. a read target).
 */
int gdr_compare_copy_rate(struct gdr_ctx *c, uint64_t size, double *Bps);
/* With a copy rate, the staged row r[k]'s model and efficiency (r[0]: the wire reference). */
void gdr_compare_staged_row(struct gdr_result *r, uint32_t k, double copy_Bps);
/* The staged path's choices for the header. */
void gdr_compare_describe(const struct gdr_ctx *c, char *buf, size_t n);

#endif
