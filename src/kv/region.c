/* SPDX-License-Identifier: MIT */
/* The KV pool as M memory regions (region.h). */
#include "region.h"

uint64_t gdr_kv_region_slots(uint64_t slots, uint32_t m)
{
	if (!m || m > slots || slots % m)
		return 0;
	return slots / m;
}

uint32_t gdr_kv_region_of(uint64_t slot, uint64_t slots, uint32_t m)
{
	uint64_t per = gdr_kv_region_slots(slots, m);

	return per ? (uint32_t)(slot / per) : 0;
}
