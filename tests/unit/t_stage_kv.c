/* SPDX-License-Identifier: MIT */
/*
 * gdr_stage_bw --block's measuring loop (stage_kv.c) with the memcpy copier on
 * host memory: the placement's byte offsets (slot x block, as src/kv/place.c
 * gives the slots), a gather of three batches on two lanes (copy i: table entry
 * i mod 3 on lane i mod 2; each lane must end holding its last batch's blocks,
 * byte for byte, from the pool at their offsets), the contiguous reference (the
 * pool's first block x batch bytes), and a scatter of two batches (each host
 * block lands at its slot; slots no block goes to are untouched).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "copier.h"
#include "log.h"
#include "mem.h"
#include "place.h"
#include "stage_kv.h"

#include "check.h"

#define BLK   4099u /* no power of two: a shifted block shows */
#define SLOTS 16u
#define BATCH 5u
#define NT    3u
#define LANE  (BATCH * BLK)

static uint8_t ring[2 * LANE];

/* Does host block k hold the pool's bytes at off? */
static bool same(const uint8_t *pool, uint64_t off, const uint8_t *host)
{
	return !memcmp(pool + off, host, BLK);
}

static void gather(struct gdr_mem *m, const struct stage_kv_cell *c)
{
	const uint8_t *pool = m->addr;
	struct gdr_copier cp;
	char why[160];

	memset(ring, 0, sizeof(ring));
	CHECK(gdr_copier_open(&cp, GDR_COPIER_MEMCPY, m, ring, sizeof(ring), 2, 1000000000ull, why,
			      sizeof(why)) == 0,
	      "open: %s", why);
	CHECK(stage_kv_measure(&cp, c, GDR_TO_HOST, false, ring, LANE, NT) >= 0);
	CHECK(cp.done[GDR_TO_HOST] == NT);
	/* copy 2 (entry 2) on lane 0, copy 1 (entry 1) on lane 1 */
	for (uint32_t k = 0; k < BATCH; k++) {
		CHECK(same(pool, c->off[2 * BATCH + k], ring + k * BLK),
		      "gather: lane 0 block %u is not entry 2's", k);
		CHECK(same(pool, c->off[1 * BATCH + k], ring + LANE + k * BLK),
		      "gather: lane 1 block %u is not entry 1's", k);
	}
	gdr_copier_close(&cp);
	/* the reference: one copy of the pool's first block x batch bytes */
	memset(ring, 0, sizeof(ring));
	CHECK(gdr_copier_open(&cp, GDR_COPIER_MEMCPY, m, ring, sizeof(ring), 2, 1000000000ull, why,
			      sizeof(why)) == 0);
	CHECK(stage_kv_measure(&cp, c, GDR_TO_HOST, true, ring, LANE, 1) >= 0);
	CHECK(!memcmp(ring, pool, LANE), "contig: not the pool's first bytes");
	gdr_copier_close(&cp);
}

static void scatter(struct gdr_mem *m, const struct stage_kv_cell *c)
{
	uint8_t *pool = m->addr;
	struct gdr_copier cp;
	char why[160];
	bool hit[SLOTS] = {false};

	memset(pool, 0, SLOTS * BLK);
	for (size_t i = 0; i < sizeof(ring); i++)
		ring[i] = (uint8_t)(i * 7 + 1);
	CHECK(gdr_copier_open(&cp, GDR_COPIER_MEMCPY, m, ring, sizeof(ring), 2, 1000000000ull, why,
			      sizeof(why)) == 0);
	CHECK(stage_kv_measure(&cp, c, GDR_FROM_HOST, false, ring, LANE, 2) >= 0);
	gdr_copier_close(&cp);
	for (uint32_t e = 0; e < 2; e++)
		for (uint32_t k = 0; k < BATCH; k++) {
			uint64_t off = c->off[e * BATCH + k];

			CHECK(same(pool, off, ring + e * LANE + k * BLK),
			      "scatter: entry %u block %u not at pool offset %llu", e, k,
			      (unsigned long long)off);
			hit[off / BLK] = true;
		}
	for (uint32_t j = 0; j < SLOTS; j++) {
		if (hit[j])
			continue;
		for (uint32_t i = 0; i < BLK; i++)
			if (pool[j * BLK + i]) {
				CHECK(0, "scatter: slot %u, where no block goes, was written", j);
				break;
			}
	}
}

int main(void)
{
	struct gdr_mem m = {.ops = &gdr_mem_host_ops};
	struct gdr_kv_place pl = {
	    .kind = GDR_KV_STRIDE, .stride = 3, .slots = SLOTS, .batch = BATCH};
	uint64_t off[NT * BATCH], slot[BATCH];
	struct stage_kv_cell c = {.block = BLK, .batch = BATCH, .ntable = NT, .off = off};
	uint8_t *pool;

	gdr_set_prog("t_stage_kv");
	CHECK(m.ops->alloc(&m, SLOTS * BLK) == 0);
	pool = m.addr;
	for (size_t i = 0; i < SLOTS * BLK; i++)
		pool[i] = (uint8_t)(i * 131 + i / BLK);
	/* stride:3 over 16 slots: batches 0, 1, 2 take 15 distinct slots, out of order */
	CHECK(stage_kv_offsets(&pl, BLK, BATCH, NT, off) == 0);
	for (uint32_t b = 0; b < NT; b++) {
		CHECK(gdr_kv_place_batch(&pl, b, slot) == 0);
		for (uint32_t k = 0; k < BATCH; k++)
			CHECK(off[b * BATCH + k] == slot[k] * BLK, "batch %u block %u", b, k);
	}
	CHECK(off[1] == 3 * BLK && off[BATCH] == 15 * BLK, "stride:3: slots 0, 3, ... then 15");
	gather(&m, &c);
	scatter(&m, &c);
	/* random placement: the same offsets as its slots */
	pl.kind = GDR_KV_RANDOM;
	pl.seed = 7;
	CHECK(stage_kv_offsets(&pl, BLK, BATCH, NT, off) == 0);
	CHECK(gdr_kv_place_batch(&pl, 2, slot) == 0);
	for (uint32_t k = 0; k < BATCH; k++)
		CHECK(off[2 * BATCH + k] == slot[k] * BLK);
	gather(&m, &c);
	m.ops->free(&m);
	return CHECK_DONE();
}
