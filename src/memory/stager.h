/* SPDX-License-Identifier: MIT */
/*
 * The stager: moves data between the test's memory and pinned host memory
 * (the bounce ring) with the backend's asynchronous copies. Each direction
 * has its own streams (device->host on one set, host->device on another),
 * one copy in flight per stream; copies of a direction complete in the
 * order they were submitted. Host memory copies with memcpy (done at once).
 * The staged path and gdr_stage_bw both use it, so gdr_stage_bw measures
 * exactly the copy leg that --staged runs.
 */
#ifndef GDR_STAGER_H
#define GDR_STAGER_H

#include <stddef.h>
#include <stdint.h>
#include "mem.h"

#define GDR_STAGER_STREAMS (GDR_MEM_STREAMS / 2) /* most streams per direction */

struct gdr_stager {
	struct gdr_mem *data;
	unsigned int streams; /* per direction */
	uint64_t submitted[2], done[2];
};

/* streams per direction: 1..GDR_STAGER_STREAMS (0 = the most). */
void gdr_stager_init(struct gdr_stager *s, struct gdr_mem *data, unsigned int streams);
/* Copies that direction d can take now. */
unsigned int gdr_stager_room(const struct gdr_stager *s, enum gdr_copy_dir d);
/* Queue a copy of len bytes between test memory at off and host (needs room). 0 or -1. */
int gdr_stager_submit(struct gdr_stager *s, enum gdr_copy_dir d, size_t off, void *host,
		      size_t len);
/* Copies of direction d newly complete, in submission order (>= 0), or -1. */
int gdr_stager_reap(struct gdr_stager *s, enum gdr_copy_dir d);
/* Wait for every copy of direction d (bounded by the backend). 0 or -1. */
int gdr_stager_drain(struct gdr_stager *s, enum gdr_copy_dir d);

/*
 * Copy rate alone, no network: chunk-byte copies for about budget_s seconds
 * in the directions dirs (bit 1 << GDR_TO_HOST, bit 1 << GDR_FROM_HOST;
 * both = at once): device->host from test memory [0, span) into host
 * [0, span), host->device from host [rx, rx + span) into test memory
 * [rx, rx + span). Bytes per second summed over the directions, or -1.
 */
double gdr_stager_rate(struct gdr_stager *s, unsigned int dirs, uint8_t *host, size_t chunk,
		       size_t span, size_t rx, double budget_s);

#endif
