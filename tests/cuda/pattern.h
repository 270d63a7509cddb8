/* SPDX-License-Identifier: MIT */
/*
 * The validation pattern (mem.h, gdr_pattern_byte) in a host buffer, for the
 * GPU tests: b[i] holds the pattern's byte of source offset src_off + i.
 */
#ifndef GDR_TEST_PATTERN_H
#define GDR_TEST_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include "mem.h"

static inline void pattern_fill(uint8_t *b, size_t len, size_t src_off, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		b[i] = gdr_pattern_byte(src_off + i, seed);
}

/* The first i where b differs from the pattern, or len. */
static inline size_t pattern_first_bad(const uint8_t *b, size_t len, size_t src_off, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (b[i] != gdr_pattern_byte(src_off + i, seed))
			return i;
	return len;
}

#endif
