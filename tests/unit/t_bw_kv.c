/* SPDX-License-Identifier: MIT */
/*
 * Unit test: a KV row's ring and batch times (src/engine/bw_kv.c): the ring's
 * batches for a pool, each entry's local and remote offsets by hand, the
 * batches' completion times from their post and completion stamps (FIFO per
 * QP), the pattern seeds of distinct slots apart, and with the pool in
 * regions (--regions) each entry's key its slot's region's; with --sge each
 * entry a run of blocks: its SGEs' local places and its remote run by hand.
 */
#include "config.h"
#include <stdbool.h>
#include <stdio.h>
#include "bw_kv.h"
#include "xport.h"

#include "check.h"

int main(void)
{
	struct gdr_kv_place pl = {.kind = GDR_KV_STRIDE, .stride = 3, .slots = 10, .batch = 4};
	struct gdr_kv_place big = {.kind = GDR_KV_SEQ, .slots = 1 << 20, .batch = 64};
	struct gdr_kv_place huge = {.kind = GDR_KV_SEQ, .slots = 1 << 20, .batch = 4096};
	struct gdr_bw_kv k;
	struct gdr_xop op;

	/* 10 slots hold 2 batches of 4 side by side; the ring stops at 4096 operations */
	CHECK(gdr_bw_kv_ring_batches(&pl) == 2);
	CHECK(gdr_bw_kv_ring_batches(&big) == 64, "%u", gdr_bw_kv_ring_batches(&big));
	CHECK(gdr_bw_kv_ring_batches(&huge) == 1);

	CHECK(gdr_bw_kv_init(&k, &pl, 1000, 50, 7000, 2, 8, 3) == 0);
	if (!k.slot)
		return CHECK_DONE();
	CHECK(k.nb_ring == 2 && k.inflight == 2 && k.cap == 6);
	/* entry 5 is block 1 of batch 1: stride 3 over 10 slots puts block 5 in slot 5 */
	gdr_bw_kv_op(&k, 5, &op);
	CHECK(op.len == 1000 && op.loff == 50 + 5 * 1000 && op.roff == 7000 + 5 * 1000,
	      "len %u loff %llu roff %llu", op.len, (unsigned long long)op.loff,
	      (unsigned long long)op.roff);
	/* entry 1: block 1 of batch 0 in slot 3 */
	gdr_bw_kv_op(&k, 1, &op);
	CHECK(op.loff == 1050 && op.roff == 10000, "loff %llu roff %llu",
	      (unsigned long long)op.loff, (unsigned long long)op.roff);
	CHECK(!op.rkey_set, "one region: the path's key");
	{
		/* 10 slots in 5 regions of 2: stride 3 puts entries 0..7 in slots 0 3 6 9 2 5 8 1
		 */
		static const uint64_t keys[5] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4};
		static const uint64_t slot_of[8] = {0, 3, 6, 9, 2, 5, 8, 1};

		k.rkeys = keys;
		k.nrkeys = 5;
		for (uint32_t e = 0; e < 8; e++) {
			gdr_bw_kv_op(&k, e, &op);
			CHECK(k.slot[e] == slot_of[e] && op.rkey_set &&
				  op.rkey == keys[slot_of[e] / 2],
			      "entry %u: slot %llu, key 0x%llx", e, (unsigned long long)k.slot[e],
			      (unsigned long long)op.rkey);
		}
		k.rkeys = NULL;
		k.nrkeys = 0;
	}

	/* QP 0 posts at 100 and 200 ns, QP 1 at 150; completions in each QP's order */
	gdr_bw_kv_posted(&k, 0, 100);
	gdr_bw_kv_posted(&k, 0, 200);
	gdr_bw_kv_posted(&k, 1, 150);
	gdr_bw_kv_done(&k, 0, 1100);   /* 1000 ns */
	gdr_bw_kv_done(&k, 1, 2150);   /* 2000 ns */
	gdr_bw_kv_posted(&k, 0, 1200); /* the FIFO wraps */
	gdr_bw_kv_done(&k, 0, 3200);   /* 3000 ns: the batch posted at 200 */
	gdr_bw_kv_done(&k, 0, 5200);   /* 4000 ns */
	gdr_bw_kv_done(&k, 0, 9999);   /* nothing in flight: no sample */
	CHECK(k.nus == 4, "%zu samples", k.nus);
	CHECK(k.nus == 4 && k.us[0] == 1.0 && k.us[1] == 2.0 && k.us[2] == 3.0 && k.us[3] == 4.0,
	      "%g %g %g %g", k.us[0], k.us[1], k.us[2], k.us[3]);
	gdr_bw_kv_free(&k);

	/* a batch the pool cannot hold is refused */
	pl.batch = 11;
	CHECK(gdr_bw_kv_init(&k, &pl, 1000, 0, 0, 1, 11, 1) == -1);

	{
		/*
		 * --sge=4: 16 slots, batches of 8 blocks = 2 work requests; stride 3 over the
		 * 4 runs puts work requests 0..3 at runs 0 3 2 1 (slots 0 12 8 4); the ring's
		 * 16 blocks lie transposed: block j of request w at j x 4 + w.
		 */
		struct gdr_kv_place sg = {
		    .kind = GDR_KV_STRIDE, .stride = 3, .slots = 16, .batch = 8, .run = 4};
		static const uint64_t run_of[4] = {0, 12, 8, 4};
		static const uint64_t keys[2] = {0xb0, 0xb1};
		bool seen[16] = {false};

		CHECK(gdr_bw_kv_ring_batches(&sg) == 2);
		CHECK(gdr_bw_kv_init(&k, &sg, 1000, 50, 7000, 1, 4, 3) == 0);
		if (!k.slot)
			return CHECK_DONE();
		CHECK(k.sge == 4 && k.batch == 2 && k.nb_ring == 2 && k.inflight == 2,
		      "sge %u batch %u nb_ring %u inflight %u", k.sge, k.batch, k.nb_ring,
		      k.inflight);
		k.rkeys = keys; /* 2 regions of 8 slots */
		k.nrkeys = 2;
		for (uint32_t e = 0; e < 4; e++) {
			gdr_bw_kv_op(&k, e, &op);
			CHECK(op.len == 4000 && op.nsge == 4 && op.sge_stride == 4000 &&
				  op.loff == 50 + e * 1000 && op.roff == 7000 + run_of[e] * 1000 &&
				  !op.inline_ok && op.rkey_set && op.rkey == keys[run_of[e] / 8],
			      "entry %u: len %u nsge %u stride %llu loff %llu roff %llu key 0x%llx",
			      e, op.len, op.nsge, (unsigned long long)op.sge_stride,
			      (unsigned long long)op.loff, (unsigned long long)op.roff,
			      (unsigned long long)op.rkey);
			for (uint32_t j = 0; j < 4; j++) {
				uint64_t at = gdr_bw_kv_local(e * 4 + j, 4, 16);

				CHECK(at == j * 4 + e &&
					  50 + at * 1000 == op.loff + j * op.sge_stride,
				      "block %u of entry %u at %llu", j, e, (unsigned long long)at);
				if (at < 16)
					seen[at] = true;
			}
		}
		for (uint32_t i = 0; i < 16; i++)
			CHECK(seen[i], "local block %u holds no block of the ring", i);
		CHECK(gdr_bw_kv_local(5, 1, 16) == 5, "one SGE: the blocks one after another");
		k.rkeys = NULL;
		k.nrkeys = 0;
		gdr_bw_kv_free(&k);
	}

	for (uint64_t j = 1; j < 1000; j++)
		CHECK(gdr_bw_kv_seed(4096, j) != gdr_bw_kv_seed(4096, j - 1));
	return CHECK_DONE();
}
