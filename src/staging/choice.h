/* SPDX-License-Identifier: MIT */
/*
 * --stage_copy: which copier stages each size (pure functions, no CUDA, no
 * network; choose.c measures, this file decides and words the decision).
 *
 * auto probes each candidate copier that opens on this side at a size's
 * chunk (probe.c) and keeps the fastest; the header states the choice per
 * run of sizes ("sm up to 16 KiB, ce from 32 KiB") and names, once, each
 * copier that could not open with its reason.
 */
#ifndef GDR_STAGE_CHOICE_H
#define GDR_STAGE_CHOICE_H

#include <stddef.h>
#include <stdint.h>
#include "copier.h"

/* the candidates of auto, in order of preference on a tie: GDR_GPU_COPIERS */
#define GDR_STAGE_NCAND GDR_NGPU_COPIERS
extern const enum gdr_copier_kind gdr_stage_cand[GDR_STAGE_NCAND];

/*
 * The fastest candidate given each one's probed rate at one size (bytes/s;
 * < 0: it did not open). A rate of 0 (this side times no copy, e.g. a read
 * target) counts as opened but unmeasured: with no rate above 0 the first
 * candidate that opened wins. GDR_COPIER_AUTO when none opened.
 */
enum gdr_copier_kind gdr_stage_pick(const double rate[GDR_STAGE_NCAND]);

/*
 * The choice across the sizes (ascending), in words: "ce at every size",
 * "sm up to 16 KiB, ce from 32 KiB", "sm up to 4 KiB, gdrcopy from 8 KiB to
 * 64 KiB, ce from 128 KiB". The name of kind k: gdr_stage_copy_name.
 */
void gdr_stage_crossover(const uint64_t *sizes, const enum gdr_copier_kind *kind, size_t n,
			 char *buf, size_t len);
/* "ce", "gdrcopy", "sm", "memcpy", "auto" (or "?" for another value). */
const char *gdr_stage_copy_name(enum gdr_copier_kind k);
/* A row's stage_copy cell: one name when both sides agree, else "client/server". */
void gdr_stage_copy_cell(enum gdr_copier_kind client, enum gdr_copier_kind server, char *buf,
			 size_t len);

#endif
