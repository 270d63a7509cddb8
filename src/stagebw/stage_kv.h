/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw --block: the measuring loop of block lists (stage_kv.c), open to its unit test. */
#ifndef GDR_STAGE_KV_H
#define GDR_STAGE_KV_H

#include <stdbool.h>
#include <stdint.h>
#include "copier.h"
#include "place.h"

/* One block x batch cell: its blocks' pool offsets, ntable batches of batch each. */
struct stage_kv_cell {
	uint64_t block;
	uint32_t batch;
	uint32_t ntable;
	uint64_t *off; /* [ntable x batch], bytes into the pool */
};

/*
 * Byte offsets of batches 0..nbatches-1 of placement pl (its slots and batch
 * set) into off[b x batch + k]: slot x block. 0, or -1 (no placement).
 */
int stage_kv_offsets(const struct gdr_kv_place *pl, uint64_t block, uint32_t batch,
		     uint32_t nbatches, uint64_t *off);
/*
 * Queue copy cp->submitted[d] of the cell on its lane (host + lane x lane_len):
 * the block list of table entry (copy mod ntable), or with contig the same
 * bytes as one copy at pool offset 0. 0, or -1 (printed).
 */
int stage_kv_submit(struct gdr_copier *cp, const struct stage_kv_cell *c, enum gdr_copy_dir d,
		    bool contig, uint8_t *host, size_t lane_len);
/* iters copies of the cell through the open copier, lanes kept full: seconds, or -1. */
double stage_kv_measure(struct gdr_copier *cp, const struct stage_kv_cell *c, enum gdr_copy_dir d,
			bool contig, uint8_t *host, size_t lane_len, uint64_t iters);

#endif
