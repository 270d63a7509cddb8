/* SPDX-License-Identifier: MIT */
/* --compare: the copy leg measured alone before each size, and what explains a staged row. */
#ifndef GDR_COMPARE_H
#define GDR_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "ctx.h"

/* Bytes per stager copy of a full run of this size (per message in latency tests). */
uint64_t gdr_compare_chunk(const struct gdr_ctx *c, uint64_t size);
/*
 * Measure this side's stager copy rate for its roles at this size's chunk
 * (a few ms, no network), exchange it with the peer, and return the slower
 * side's rate in *Bps (0 when no copy is timed, e.g. a read target).
 */
int gdr_compare_copy_rate(struct gdr_ctx *c, uint64_t size, double *Bps);
/* Fill the staged row r[k]: chunk, and with a copy rate the model and efficiency. */
void gdr_compare_staged_row(struct gdr_result *r, uint32_t k, uint64_t chunk, double copy_Bps);
/* The staged path's choices for the header. */
void gdr_compare_describe(const struct gdr_ctx *c, char *buf, size_t n);

#endif
