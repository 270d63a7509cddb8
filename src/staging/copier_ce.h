/* SPDX-License-Identifier: MIT */
/*
 * The copy engine copier's calls, shared with the batch copier (copier_batch.c),
 * which differs only in how it queues a block list: one owner of the lanes'
 * streams, single copies, completion and drain.
 */
#ifndef GDR_COPIER_CE_H
#define GDR_COPIER_CE_H

#include "copier.h"

/* The memory backend's stream of the n-th copy of direction d. */
int gdr_copier_ce_stream(const struct gdr_copier *cp, enum gdr_copy_dir d, uint64_t n);
/* ops->submit, ops->reap and ops->drain of the copy engine (copier.h). */
int gdr_copier_ce_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host,
			 size_t len);
int gdr_copier_ce_reap(struct gdr_copier *cp, enum gdr_copy_dir d);
int gdr_copier_ce_drain(struct gdr_copier *cp, enum gdr_copy_dir d);

#endif
