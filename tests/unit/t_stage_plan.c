/* SPDX-License-Identifier: MIT */
/*
 * The staged plan against an independent computation: every byte of every
 * message is copied exactly once, small messages only in runs of whole
 * messages up to a chunk, large ones in ceil(size/chunk) pieces, runs fit
 * the send queue, the ring and the receive queues, and ring slots in use
 * at once never overlap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "plan.h"

struct cfg {
	uint64_t size, chunk, msgs;
	uint32_t tx, rx, nqp;
	bool send;
};

/* Walk the copies of `msgs` messages; mark each message byte's copies in `seen`. */
static void check_cfg(const struct cfg *k)
{
	struct gdr_stage_in in = {.size = k->size,
				  .chunk = k->chunk,
				  .tx_depth = k->tx,
				  .rx_depth = k->rx,
				  .nqp = k->nqp,
				  .send = k->send};
	struct gdr_stage_plan p;
	uint64_t pieces = k->size <= k->chunk ? 1 : (k->size + k->chunk - 1) / k->chunk;
	uint64_t units = k->msgs * pieces, runs, total = k->msgs * k->size;
	uint8_t *seen = calloc(total, 1);

	gdr_stage_plan(&p, &in);
	CHECK(seen != NULL);
	CHECK(p.per_msg == pieces, "size %llu chunk %llu: %llu pieces, want %llu",
	      (unsigned long long)k->size, (unsigned long long)k->chunk,
	      (unsigned long long)p.per_msg, (unsigned long long)pieces);
	CHECK(p.run >= 1 && p.run <= k->tx, "run %llu, tx depth %u", (unsigned long long)p.run,
	      k->tx);
	if (k->size <= k->chunk)
		CHECK(p.run * k->size <= k->chunk);
	else
		CHECK(p.run == 1);
	/* as many whole messages as a chunk holds, unless a queue depth limits it */
	if (k->size <= k->chunk && k->tx >= k->chunk / k->size && !k->send)
		CHECK(p.run == k->chunk / k->size, "run %llu, want %llu", (unsigned long long)p.run,
		      (unsigned long long)(k->chunk / k->size));
	if (k->send)
		CHECK(((p.window + k->nqp - 1) / k->nqp + 1) * p.run <= k->rx,
		      "send: %llu receives per QP > rx depth %u",
		      (unsigned long long)(((p.window + k->nqp - 1) / k->nqp + 1) * p.run), k->rx);
	CHECK(p.window >= 1 && p.window <= p.ring_runs);
	CHECK(p.data_msgs * p.per_msg == p.run * p.ring_runs, "the ring holds whole messages");
	runs = (units + p.run - 1) / p.run;
	for (uint64_t i = 0; i < runs && seen; i++) {
		uint64_t j = i * p.run, n = gdr_stage_run_units(&p, i, units);
		uint64_t bytes = gdr_stage_run_bytes(&p, i, units);
		uint64_t doff = gdr_stage_data_off(&p, j), roff = gdr_stage_ring_off(&p, j);
		/* message and offset of the run's first byte, computed without the plan */
		uint64_t m = j / pieces, b = j % pieces * k->chunk;

		CHECK(n >= 1 && bytes >= 1 && bytes <= k->chunk && bytes <= k->size * p.run);
		CHECK(doff == m % p.data_msgs * k->size + b);
		CHECK(doff + bytes <= gdr_stage_data_bytes(&p) &&
		      roff + bytes <= gdr_stage_ring_bytes(&p));
		if (k->size <= k->chunk)
			CHECK(bytes == n * k->size && doff % k->size == 0,
			      "a run of whole messages");
		/* the bytes of unit j onward: messages m.. (or one piece of m) */
		for (uint64_t x = 0; x < bytes; x++) {
			uint64_t at = m * k->size + b + x;

			if (at < total)
				seen[at]++;
		}
		/* the next ring_runs - 1 runs use other ring bytes */
		if (i + 1 < runs && p.ring_runs > 1) {
			uint64_t o = gdr_stage_ring_off(&p, (i + 1) * p.run);

			CHECK(o >= roff + bytes || o + p.run * p.stride <= roff);
		}
	}
	for (uint64_t x = 0; x < total && seen; x++)
		if (seen[x] != 1) {
			CHECK(seen[x] == 1, "size %llu chunk %llu: byte %llu copied %u times",
			      (unsigned long long)k->size, (unsigned long long)k->chunk,
			      (unsigned long long)x, seen[x]);
			break;
		}
	/* unit lengths add up to the message */
	for (uint64_t m = 0, sum = 0; m < 1; m++, sum = 0) {
		for (uint64_t q = 0; q < pieces; q++)
			sum += gdr_stage_unit_len(&p, m * pieces + q);
		CHECK(sum == k->size);
	}
	free(seen);
}

int main(void)
{
	static const struct cfg cases[] = {
	    {65536, 1 << 20, 100, 128, 512, 1, false}, /* 16 messages a run */
	    {65536, 1 << 20, 100, 128, 512, 4, true},
	    {4096, 1 << 20, 1000, 128, 512, 1, false}, /* the send queue limits the run */
	    {4096, 1 << 20, 1000, 4096, 512, 1, true}, /* the receive queue does */
	    {2, 4096, 5000, 128, 512, 1, true},
	    {3000, 16384, 77, 128, 512, 2, false}, /* a chunk is not a multiple */
	    {20000, 4096, 9, 128, 512, 1, false},  /* split: 5 pieces, the last short */
	    {20000, 4096, 9, 128, 512, 3, true},
	    {100000, 8192, 5, 128, 16, 4, false},
	    {1 << 20, 1 << 20, 20, 128, 512, 1, true}, /* exactly a chunk */
	    {(1 << 20) + 1, 1 << 20, 3, 128, 512, 1, false},
	    {8 << 20, 1 << 20, 3, 128, 512, 2, true},
	    {65536, 1 << 20, 100, 1, 2, 1, true}, /* the smallest depths */
	    {65536, 1 << 20, 100, 1, 1, 1, false},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_cfg(&cases[i]);
	/* default chunk when none is given */
	{
		struct gdr_stage_in in = {
		    .size = 65536, .tx_depth = 128, .rx_depth = 512, .nqp = 1};
		struct gdr_stage_plan p;

		gdr_stage_plan(&p, &in);
		CHECK(p.chunk == GDR_STAGE_CHUNK_DEFAULT && p.run == 16);
		in.lat = true;
		gdr_stage_plan(&p, &in);
		CHECK(p.run == 1 && p.ring_runs == 1 && p.per_msg == 1, "latency: per message");
	}
	return CHECK_DONE();
}
