/* SPDX-License-Identifier: MIT */
/*
 * Unit test: the KV pool as M regions (src/kv/region.c): the slots a region
 * holds, refused when M does not divide the slots, and for many shapes each
 * slot in exactly one region, that region's slots the run it names, every
 * region holding the same count.
 */
#include <stdio.h>
#include <stdlib.h>
#include "region.h"

#include "check.h"

int main(void)
{
	static const uint64_t slotsv[] = {1, 2, 12, 60, 64, 1024, 4096, 1u << 20};
	static const uint32_t mv[] = {1, 2, 3, 4, 5, 16, 64, 1024};

	CHECK(gdr_kv_region_slots(12, 4) == 3);
	CHECK(gdr_kv_region_slots(12, 5) == 0); /* 5 does not divide 12 */
	CHECK(gdr_kv_region_slots(4, 8) == 0);	/* more regions than slots */
	CHECK(gdr_kv_region_slots(4, 0) == 0);
	CHECK(gdr_kv_region_slots(1024, 1024) == 1);
	/* 12 slots in 4 regions: 0-2, 3-5, 6-8, 9-11 */
	CHECK(gdr_kv_region_of(0, 12, 4) == 0 && gdr_kv_region_of(2, 12, 4) == 0);
	CHECK(gdr_kv_region_of(3, 12, 4) == 1 && gdr_kv_region_of(8, 12, 4) == 2);
	CHECK(gdr_kv_region_of(11, 12, 4) == 3, "%u", gdr_kv_region_of(11, 12, 4));
	CHECK(gdr_kv_region_of(11, 12, 1) == 0);

	for (size_t i = 0; i < sizeof(slotsv) / sizeof(*slotsv); i++)
		for (size_t j = 0; j < sizeof(mv) / sizeof(*mv); j++) {
			uint64_t slots = slotsv[i], per = gdr_kv_region_slots(slots, mv[j]);
			uint64_t *count;

			if (slots % mv[j] || mv[j] > slots) {
				CHECK(per == 0, "%llu slots in %u", (unsigned long long)slots,
				      mv[j]);
				continue;
			}
			CHECK(per * mv[j] == slots);
			count = calloc(mv[j], sizeof(*count));
			if (!count)
				return CHECK_DONE();
			for (uint64_t s = 0; s < slots; s++) {
				uint32_t r = gdr_kv_region_of(s, slots, mv[j]);

				if (r >= mv[j] || s < r * per || s >= (r + 1) * per) {
					CHECK(0, "slot %llu of %llu in region %u of %u",
					      (unsigned long long)s, (unsigned long long)slots, r,
					      mv[j]);
					break;
				}
				count[r]++;
			}
			for (uint32_t r = 0; r < mv[j]; r++)
				CHECK(count[r] == per, "region %u holds %llu", r,
				      (unsigned long long)count[r]);
			free(count);
		}
	return CHECK_DONE();
}
