/* SPDX-License-Identifier: MIT */
/*
 * Atomic counters: every QP's ring slot on its own 64-byte line (no two
 * operations in flight on one address), one counter under
 * --atomic_contention and in latency tests, and the sum --validate expects,
 * worked out by hand.
 */
#include "config.h"
#include <stdlib.h>
#include "atomic.h"
#include "check.h"

static struct gdr_opts bw(uint32_t qps, uint32_t depth)
{
	return (struct gdr_opts){
	    .verb = GDR_VERB_ATOMIC, .kind = GDR_KIND_BW, .num_qps = qps, .tx_depth = depth};
}

/* Offsets are distinct, 64 bytes apart, and all inside ncounters lines. */
static void spread(void)
{
	struct gdr_opts o = bw(4, 128);
	size_t n = gdr_atomic_ncounters(&o);
	char *seen = calloc(n, 1);

	CHECK(n == 4 * 128, "%zu", n);
	for (uint32_t q = 0; q < 4; q++)
		for (size_t s = 0; s < 128; s++) {
			uint64_t off = gdr_atomic_offset(&o, q, s);

			CHECK(off % 64 == 0 && off / 64 < n, "q %u slot %zu: %llu", q, s,
			      (unsigned long long)off);
			if (off / 64 < n) {
				CHECK(!seen[off / 64], "q %u slot %zu shares a counter", q, s);
				seen[off / 64] = 1;
			}
		}
	free(seen);
	CHECK(gdr_atomic_offset(&o, 0, 1) == 64 && gdr_atomic_offset(&o, 1, 0) == 128 * 64);
	CHECK(gdr_atomic_offset(&o, 0, 128) == 0, "slot wraps at the ring");
}

static void contention(void)
{
	struct gdr_opts o = bw(4, 128);

	o.atomic_contention = true;
	CHECK(gdr_atomic_ncounters(&o) == 1);
	CHECK(gdr_atomic_offset(&o, 3, 77) == 0, "every operation on the one word");
	o = bw(1, 128);
	o.kind = GDR_KIND_LAT;
	CHECK(gdr_atomic_ncounters(&o) == 1, "latency: one operation at a time");
}

static void expected(void)
{
	struct gdr_opts o = bw(4, 128);

	CHECK(gdr_atomic_expected(&o, 400, 4) == 400, "fetch-and-add: every one adds 1");
	o.atomic_op = GDR_ATOMIC_CAS;
	CHECK(gdr_atomic_expected(&o, 400, 4) == 400, "100 per QP, 100 counters each touched");
	CHECK(gdr_atomic_expected(&o, 4000, 4) == 512, "1000 per QP: all 128 counters of each");
	CHECK(gdr_atomic_expected(&o, 0, 4) == 0);
	o.atomic_contention = true;
	CHECK(gdr_atomic_expected(&o, 4000, 4) == 1, "one word: the first swaps, the rest find 1");
	CHECK(gdr_atomic_expected(&o, 0, 4) == 0);
}

int main(void)
{
	spread();
	contention();
	expected();
	return CHECK_DONE();
}
