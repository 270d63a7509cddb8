/* SPDX-License-Identifier: MIT */
/*
 * Unit test: the KV placement (src/kv/place.c): each placement's slots by hand
 * for small pools, then for many shapes every slot in range and no slot twice
 * in a batch; random reproducible from its seed and different across seeds;
 * stride wrapping onto the slots it has not visited; --place parsing; runs
 * (--sge): each run N consecutive slots at a multiple of N, by hand and random.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "place.h"

#include "check.h"

static void want(const struct gdr_kv_place *pl, uint64_t b, const uint64_t *exp)
{
	uint64_t got[64];

	CHECK(gdr_kv_place_batch(pl, b, got) == 0);
	for (uint32_t k = 0; k < pl->batch; k++)
		CHECK(got[k] == exp[k], "kind %d batch %llu block %u: slot %llu, want %llu",
		      (int)pl->kind, (unsigned long long)b, k, (unsigned long long)got[k],
		      (unsigned long long)exp[k]);
}

static void by_hand(void)
{
	struct gdr_kv_place seq = {.kind = GDR_KV_SEQ, .slots = 10, .batch = 4};
	struct gdr_kv_place st3 = {.kind = GDR_KV_STRIDE, .stride = 3, .slots = 10, .batch = 4};
	/* 4 and 8 share 4: the orbit 0,4 is 2 long; each wrap starts one slot on */
	struct gdr_kv_place st4 = {.kind = GDR_KV_STRIDE, .stride = 4, .slots = 8, .batch = 8};

	want(&seq, 0, (const uint64_t[]){0, 1, 2, 3});
	want(&seq, 2, (const uint64_t[]){8, 9, 0, 1}); /* blocks 8..11 wrap */
	want(&st3, 0, (const uint64_t[]){0, 3, 6, 9});
	want(&st3, 1, (const uint64_t[]){2, 5, 8, 1});
	want(&st3, 2, (const uint64_t[]){4, 7, 0, 3}); /* block 10 is block 0 again */
	want(&st4, 0, (const uint64_t[]){0, 4, 1, 5, 2, 6, 3, 7});
	want(&st4, 1, (const uint64_t[]){0, 4, 1, 5, 2, 6, 3, 7});
}

/* Every slot in [0, slots), none twice in a batch, over many batches. */
static void in_range_no_overlap(enum gdr_kv_place_kind kind, uint64_t stride, uint64_t slots,
				uint32_t batch)
{
	struct gdr_kv_place pl = {
	    .kind = kind, .stride = stride, .seed = 42, .slots = slots, .batch = batch};
	uint64_t *s = calloc(batch, sizeof(*s));
	bool *seen = calloc(slots, sizeof(*seen));

	CHECK(s && seen);
	if (!s || !seen)
		goto out;
	for (uint64_t b = 0; b < 40; b++) {
		memset(seen, 0, slots * sizeof(*seen));
		CHECK(gdr_kv_place_batch(&pl, b, s) == 0);
		for (uint32_t k = 0; k < batch; k++) {
			CHECK(s[k] < slots, "kind %d slots %llu: slot %llu", (int)kind,
			      (unsigned long long)slots, (unsigned long long)s[k]);
			if (s[k] >= slots)
				continue;
			CHECK(!seen[s[k]],
			      "kind %d stride %llu slots %llu batch %u: slot %llu "
			      "twice in batch %llu",
			      (int)kind, (unsigned long long)stride, (unsigned long long)slots,
			      batch, (unsigned long long)s[k], (unsigned long long)b);
			seen[s[k]] = true;
		}
	}
out:
	free(s);
	free(seen);
}

static void shapes(void)
{
	static const uint64_t slots[] = {1, 7, 8, 64, 100, 1000};
	static const uint64_t strides[] = {1, 2, 3, 4, 8, 64, 999, 1000, 1024};

	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		uint32_t batches[] = {1, (uint32_t)(slots[i] / 2 ? slots[i] / 2 : 1),
				      (uint32_t)slots[i]};

		for (size_t j = 0; j < 3; j++) {
			in_range_no_overlap(GDR_KV_SEQ, 1, slots[i], batches[j]);
			in_range_no_overlap(GDR_KV_RANDOM, 1, slots[i], batches[j]);
			for (size_t k = 0; k < sizeof(strides) / sizeof(strides[0]); k++)
				in_range_no_overlap(GDR_KV_STRIDE, strides[k], slots[i],
						    batches[j]);
		}
	}
}

static void random_seeded(void)
{
	struct gdr_kv_place a = {.kind = GDR_KV_RANDOM, .seed = 7, .slots = 1 << 20, .batch = 32};
	struct gdr_kv_place c = a;
	uint64_t x[32], y[32], z[32], w[32];

	c.seed = 8;
	CHECK(gdr_kv_place_batch(&a, 3, x) == 0 && gdr_kv_place_batch(&a, 3, y) == 0);
	CHECK(!memcmp(x, y, sizeof(x)), "the same seed and batch gave other slots");
	CHECK(gdr_kv_place_batch(&c, 3, z) == 0);
	CHECK(memcmp(x, z, sizeof(x)), "seeds 7 and 8 gave the same slots");
	CHECK(gdr_kv_place_batch(&a, 4, w) == 0);
	CHECK(memcmp(x, w, sizeof(x)), "batches 3 and 4 gave the same slots");
}

/* Runs of n slots (--sge=n): the placement over slots / n runs, each spread over its slots. */
static void runs(void)
{
	/* stride 3 over 5 runs of 2: runs 0 3 | 1 4 */
	struct gdr_kv_place st3 = {
	    .kind = GDR_KV_STRIDE, .stride = 3, .slots = 10, .batch = 4, .run = 2};
	struct gdr_kv_place rnd = {
	    .kind = GDR_KV_RANDOM, .seed = 5, .slots = 64, .batch = 16, .run = 4};
	uint64_t s[16];

	want(&st3, 0, (const uint64_t[]){0, 1, 6, 7});
	want(&st3, 1, (const uint64_t[]){2, 3, 8, 9});
	st3.run = 1; /* 1: each block alone, as without runs */
	want(&st3, 0, (const uint64_t[]){0, 3, 6, 9});
	for (uint64_t b = 0; b < 20; b++) {
		bool seen[64] = {false};

		CHECK(gdr_kv_place_batch(&rnd, b, s) == 0);
		for (uint32_t k = 0; k < 16; k++) {
			CHECK(s[k] < 64 && !seen[s[k]] && s[k] == s[k / 4 * 4] + k % 4 &&
				  s[k / 4 * 4] % 4 == 0,
			      "batch %llu block %u: slot %llu", (unsigned long long)b, k,
			      (unsigned long long)s[k]);
			if (s[k] < 64)
				seen[s[k]] = true;
		}
	}
	rnd.run = 3; /* dividing neither the batch of 16 nor the 64 slots */
	CHECK(gdr_kv_place_batch(&rnd, 0, s) == -1, "runs of 3 in a batch of 16 were placed");
	rnd.run = 8;
	rnd.slots = 60; /* 8 divides the batch, not the slots */
	CHECK(gdr_kv_place_batch(&rnd, 0, s) == -1, "runs of 8 in 60 slots were placed");
}

static void refused(void)
{
	struct gdr_kv_place pl = {.kind = GDR_KV_SEQ, .slots = 3, .batch = 4};
	uint64_t s[4];

	CHECK(gdr_kv_place_batch(&pl, 0, s) == -1, "a batch of 4 in 3 slots was placed");
	pl.kind = GDR_KV_RANDOM;
	CHECK(gdr_kv_place_batch(&pl, 0, s) == -1, "a random batch of 4 in 3 slots was placed");
	pl.slots = 0;
	CHECK(gdr_kv_place_batch(&pl, 0, s) == -1, "a pool of no slots was used");
}

static void parse(void)
{
	struct gdr_kv_place pl;
	char why[128], name[32];

	CHECK(gdr_kv_place_parse("seq", &pl, why, sizeof(why)) == 0 && pl.kind == GDR_KV_SEQ);
	CHECK(gdr_kv_place_parse("stride:5", &pl, why, sizeof(why)) == 0 &&
	      pl.kind == GDR_KV_STRIDE && pl.stride == 5);
	gdr_kv_place_name(&pl, name, sizeof(name));
	CHECK(!strcmp(name, "stride:5"), "%s", name);
	CHECK(gdr_kv_place_parse("random", &pl, why, sizeof(why)) == 0 &&
	      pl.kind == GDR_KV_RANDOM && pl.seed == GDR_KV_SEED_DEFAULT);
	CHECK(gdr_kv_place_parse("random:99", &pl, why, sizeof(why)) == 0 && pl.seed == 99);
	gdr_kv_place_name(&pl, name, sizeof(name));
	CHECK(!strcmp(name, "random:99"), "%s", name);
	static const char *const bad[] = {
	    "",		 "seqq",    "stride",	"stride:",  "stride:0", "stride:-2",
	    "stride:3x", "random:", "random:x", "randomly", "Seq"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(gdr_kv_place_parse(bad[i], &pl, why, sizeof(why)) == -1 && why[0],
		      "'%s' accepted", bad[i]);
}

int main(void)
{
	by_hand();
	shapes();
	random_seeded();
	refused();
	runs();
	parse();
	return CHECK_DONE();
}
