/* SPDX-License-Identifier: MIT */
/*
 * --compare's closing lines: per range of consecutive sizes, which path is
 * faster and by how much, judged over the repeats. A size whose ratio's
 * range over the repeats crosses 1.0 gets no verdict; a staged row whose
 * model says what bounds it (its copier, or the wire) says so.
 */
#ifndef GDR_CMP_VERDICT_H
#define GDR_CMP_VERDICT_H

#include <stddef.h>
#include "results.h"

enum { GDR_BOUND_NONE, GDR_BOUND_COPY, GDR_BOUND_WIRE };

struct gdr_cmp_point {
	uint64_t bytes;
	double med, lo, hi; /* the ratio (> 1: direct faster): median and range over repeats */
	uint32_t repeats;
	int bound;	 /* staged bandwidth: what bounds its model, GDR_BOUND_* */
	char copier[24]; /* BOUND_COPY: the row's copier ("ce", "sm/ce": client/server) */
};

/* One ratio of a run: direct over one other path, one point a size. */
struct gdr_cmp_summary {
	const char *of; /* "staged", "gpu-proxy" */
	bool lat;	/* latency: the ratio is of/direct */
	int n;
	struct gdr_cmp_point p[GDR_MAX_SIZES];
};

/* Adds r's ratio to s when r carries one (r->speedup > 0) for s->of (set from the first). */
void gdr_cmp_add(struct gdr_cmp_summary *s, const struct gdr_result *r);
/*
 * The summary's lines into buf, each "LABEL: ..." and '\n'-ended:
 * "direct vs staged: direct 1.51-2.64x faster from 16 KiB to 512 KiB over 3
 * repeats; staged bounded by the copy (ce, sm)", "... no verdict from 4 KiB to
 * 8 KiB: the ratio's range over 3 repeats (0.77-3.05x) crosses 1.0". Returns
 * the number of lines.
 */
int gdr_cmp_lines(const struct gdr_cmp_summary *s, char *buf, size_t len);

#endif
