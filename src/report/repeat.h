/* SPDX-License-Identifier: MIT */
/*
 * --repeat: one row of a path from its repeated runs of a size. Every figure
 * is the median of the repeats' figures, the key figure (bandwidth average,
 * latency median) and the ratio also carry their range and spread.
 */
#ifndef GDR_REPEAT_H
#define GDR_REPEAT_H

#include "results.h"

/*
 * out: the row of rep[0..n) (one path, n repeats, n <= GDR_SPREAD_MAX): the
 * first repeat's words (path, copier, flags) with each figure the repeats'
 * median, repeats = n, fig_* the key figure's spread and speedup_* the
 * ratio's range (speedup > 0 in every repeat, else none); a KV row's
 * kv_efficiency likewise the median of each repeat's own (none unless every
 * repeat has one). n == 1: rep[0].
 */
void gdr_result_repeats(const struct gdr_result *rep, uint32_t n, struct gdr_result *out);

#endif
