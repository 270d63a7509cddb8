/* SPDX-License-Identifier: MIT */
/*
 * The unit tests' one pseudo-random source (xorshift64*), reproducible: a
 * test may #define RNG_SEED before including this header.
 */
#ifndef GDR_TEST_RNG_H
#define GDR_TEST_RNG_H

#include <stdint.h>

#ifndef RNG_SEED
#define RNG_SEED 0x9e3779b97f4a7c15ULL
#endif

static uint64_t rng_state = RNG_SEED;

static inline uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, 1). */
static inline double urand(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

#endif
