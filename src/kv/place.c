/* SPDX-License-Identifier: MIT */
/* The placement of a batch's blocks in the remote pool (place.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "place.h"

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	*v = strtoull(s, &end, 0);
	return !*end;
}

int gdr_kv_place_parse(const char *s, struct gdr_kv_place *pl, char *why, size_t whylen)
{
	uint64_t v = 0;

	pl->stride = 1;
	pl->seed = GDR_KV_SEED_DEFAULT;
	if (!strcmp(s, "seq")) {
		pl->kind = GDR_KV_SEQ;
		return 0;
	}
	if (!strncmp(s, "stride:", 7)) {
		if (!parse_u64(s + 7, &v) || v < 1) {
			snprintf(why, whylen, "stride:N takes a whole number of blocks >= 1");
			return -1;
		}
		pl->kind = GDR_KV_STRIDE;
		pl->stride = v;
		return 0;
	}
	if (!strcmp(s, "random") || !strncmp(s, "random:", 7)) {
		if (s[6] == ':' && !parse_u64(s + 7, &v)) {
			snprintf(why, whylen, "random:SEED takes a whole number");
			return -1;
		}
		pl->kind = GDR_KV_RANDOM;
		if (s[6] == ':')
			pl->seed = v;
		return 0;
	}
	snprintf(why, whylen, "seq, stride:N or random[:SEED]");
	return -1;
}

void gdr_kv_place_name(const struct gdr_kv_place *pl, char *buf, size_t len)
{
	if (pl->kind == GDR_KV_STRIDE)
		snprintf(buf, len, "stride:%" PRIu64, pl->stride);
	else if (pl->kind == GDR_KV_RANDOM)
		snprintf(buf, len, "random:%" PRIu64, pl->seed);
	else
		snprintf(buf, len, "seq");
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* stride: over i in [0, M) a bijection: the wrap q shifts the orbit of the stride by q slots */
static uint64_t stride_slot(const struct gdr_kv_place *pl, uint64_t i)
{
	uint64_t m = pl->slots, n = pl->stride % m;
	uint64_t cyc = m / gcd(n, m); /* n == 0: gcd is m, each block its own wrap */

	i %= m;
	return (uint64_t)(((unsigned __int128)(i % cyc) * n + i / cyc) % m);
}

/* splitmix64: a counter-based generator, the same numbers on every host */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* random: draw, and on a slot already in this batch take the next free one (open hashing) */
static int random_batch(const struct gdr_kv_place *pl, uint64_t b, uint64_t *slot)
{
	size_t cap = 1;
	uint64_t *set;

	while (cap < 2 * (size_t)pl->batch)
		cap <<= 1;
	set = calloc(cap, sizeof(*set)); /* slot + 1; 0 empty */
	if (!set)
		return -1;
	for (uint32_t k = 0; k < pl->batch; k++) {
		uint64_t s = mix(pl->seed ^ mix(b * pl->batch + k)) % pl->slots;

		for (;;) {
			size_t h = (size_t)mix(s) & (cap - 1);

			while (set[h] && set[h] != s + 1)
				h = (h + 1) & (cap - 1);
			if (!set[h]) {
				set[h] = s + 1;
				break;
			}
			s = s + 1 == pl->slots ? 0 : s + 1;
		}
		slot[k] = s;
	}
	free(set);
	return 0;
}

/* Runs of n slots: the runs placed as blocks over slots / n, each spread over its n slots. */
static int runs_batch(const struct gdr_kv_place *pl, uint64_t b, uint64_t *slot)
{
	struct gdr_kv_place r = *pl;
	uint32_t n = pl->run, nr = pl->batch / n;

	if (pl->batch % n || pl->slots % n)
		return -1;
	r.run = 1;
	r.slots = pl->slots / n;
	r.batch = nr;
	if (gdr_kv_place_batch(&r, b, slot)) /* the runs' places into slot[0 .. nr - 1] */
		return -1;
	for (uint32_t k = nr; k-- > 0;) /* last first: slot[k] is read before it is written */
		for (uint32_t j = n; j-- > 0;)
			slot[(size_t)k * n + j] = slot[k] * n + j;
	return 0;
}

int gdr_kv_place_batch(const struct gdr_kv_place *pl, uint64_t b, uint64_t *slot)
{
	if (pl->run > 1)
		return runs_batch(pl, b, slot);
	if (!pl->slots || pl->batch > pl->slots)
		return -1; /* a batch would overlap itself */
	if (pl->kind == GDR_KV_RANDOM)
		return random_batch(pl, b, slot);
	for (uint32_t k = 0; k < pl->batch; k++) {
		uint64_t i = b * pl->batch + k;

		slot[k] = pl->kind == GDR_KV_STRIDE ? stride_slot(pl, i) : i % pl->slots;
	}
	return 0;
}
