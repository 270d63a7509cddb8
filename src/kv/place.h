/* SPDX-License-Identifier: MIT */
/*
 * Where a KV-cache-shaped transfer's blocks land in the remote pool: block k
 * of batch b goes to a pool slot (slot x block size = its byte offset), as a
 * pure function of the placement, the pool and the batch. Slots of one batch
 * never repeat (a batch's blocks never overlap); placements are reproducible.
 *
 *   seq          block i (i = b x batch + k) in slot i mod M (M: slots in the pool)
 *   stride:N     block i N slots after block i-1, wrapping; when N and M share a
 *                factor, each wrap starts one slot further, so any M consecutive
 *                blocks fill the M slots once
 *   random[:S]   each batch's slots drawn from the pool with seed S (default 1),
 *                without repeats inside the batch
 *
 * Runs (--sge=N, run = N): the placement places runs of N consecutive slots,
 * as above over the pool's slots / N runs and batch / N runs a batch; run r at
 * place s holds slots s x N .. s x N + N - 1 (aligned to N), in order.
 */
#ifndef GDR_KV_PLACE_H
#define GDR_KV_PLACE_H

#include <stddef.h>
#include <stdint.h>

enum gdr_kv_place_kind { GDR_KV_SEQ = 0, GDR_KV_STRIDE, GDR_KV_RANDOM, GDR_KV_NPLACE };

#define GDR_KV_SEED_DEFAULT 1

struct gdr_kv_place {
	enum gdr_kv_place_kind kind;
	uint64_t stride; /* stride:N, in slots (blocks), >= 1 */
	uint64_t seed;	 /* random:S */
	uint64_t slots;	 /* M: blocks the pool holds (pool / block) */
	uint32_t batch;	 /* blocks per batch (<= slots) */
	uint32_t run;	 /* --sge: blocks placed as runs of this many slots (0 or 1: each alone) */
};

/* "seq", "stride:N", "random", "random:SEED" into *pl (kind, stride, seed): 0, or -1 and why. */
int gdr_kv_place_parse(const char *s, struct gdr_kv_place *pl, char *why, size_t whylen);
/* The placement's name as the option takes it: "seq", "stride:4", "random:7". */
void gdr_kv_place_name(const struct gdr_kv_place *pl, char *buf, size_t len);
/* Slots of batch b, one per block, into slot[0 .. batch-1]: 0, or -1 (no slots, batch > slots,
 * a run dividing neither the batch nor the slots, out of memory). */
int gdr_kv_place_batch(const struct gdr_kv_place *pl, uint64_t b, uint64_t *slot);

#endif
