/* SPDX-License-Identifier: MIT */
/*
 * The KV pool as M memory regions (--regions=M, docs/kv.md): the pool's slots
 * (pool / block of them) split into M equal runs, region r holding slots
 * r x S .. (r + 1) x S - 1 with S = slots / M, so a block never straddles two
 * regions and its remote key is its region's. Pure; M must divide the slots.
 */
#ifndef GDR_KV_REGION_H
#define GDR_KV_REGION_H

#include <stdint.h>

/* Slots a region holds: slots / m, or 0 when m is 0, above slots or does not divide them. */
uint64_t gdr_kv_region_slots(uint64_t slots, uint32_t m);
/* The region (0 .. m-1) holding pool slot `slot` of `slots` in m regions (m divides slots). */
uint32_t gdr_kv_region_of(uint64_t slot, uint64_t slots, uint32_t m);

#endif
