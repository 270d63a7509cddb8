/* SPDX-License-Identifier: MIT */
/* The tests' message sizes: expanding -s / -a / --sizes into the list a run covers. */
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "opts.h"

#define ALL_MIN 2ULL	     /* -a: 2 B ... */
#define ALL_MAX (8ULL << 20) /* ... 8 MiB */

/* Sizes MIN, MIN*F, ... <= MAX, then MAX itself if the steps did not land on it. */
static size_t range_sizes(uint64_t min, uint64_t max, uint64_t f, uint64_t *out, size_t cap)
{
	size_t n = 0;
	uint64_t s = min;

	for (;;) {
		if (n < cap)
			out[n] = s;
		n++;
		if (s == max)
			break;
		if (s > max / f) { /* next step passes MAX */
			if (n < cap)
				out[n] = max;
			n++;
			break;
		}
		s *= f; /* s <= MAX / f, so s * f <= MAX */
	}
	return n;
}

int gdr_opts_sizes(const struct gdr_opts *o, uint64_t **sizes, size_t *n)
{
	uint64_t tmp[GDR_MAX_SIZES];
	size_t cnt;

	if (o->kv_nblocks) { /* a KV run: its cells' blocks, block-major (opts_kv.c) */
		cnt = 0;
		for (uint32_t i = 0; i < o->kv_nblocks; i++)
			for (uint32_t j = 0; j < o->kv_nbatch && cnt < GDR_MAX_SIZES; j++)
				tmp[cnt++] = o->kv_blocks[i];
	} else if (o->all_sizes) {
		cnt = range_sizes(ALL_MIN, ALL_MAX, 2, tmp, GDR_MAX_SIZES);
	} else if (o->sizes_set) {
		if (o->size_min == 0 || o->size_min > o->size_max || o->size_factor < 2) {
			gdr_err("--sizes: need 0 < MIN <= MAX and FACTOR >= 2");
			return -1;
		}
		cnt = range_sizes(o->size_min, o->size_max, o->size_factor, tmp, GDR_MAX_SIZES);
		if (cnt > GDR_MAX_SIZES) {
			gdr_err("--sizes: %zu sizes, more than the %d allowed; use a larger FACTOR "
				"or a narrower range",
				cnt, GDR_MAX_SIZES);
			return -1;
		}
	} else {
		if (o->size == 0) {
			gdr_err("-s: the message size must be at least 1 byte");
			return -1;
		}
		tmp[0] = o->size;
		cnt = 1;
	}
	*sizes = malloc(cnt * sizeof(**sizes));
	if (!*sizes) {
		gdr_err("out of memory for %zu sizes", cnt);
		return -1;
	}
	memcpy(*sizes, tmp, cnt * sizeof(**sizes));
	*n = cnt;
	return 0;
}

int gdr_ud_fit_sizes(uint64_t *sizes, size_t *n, uint32_t mtu, bool all, bool given)
{
	size_t keep = 0;

	for (size_t i = 0; i < *n; i++) {
		if (sizes[i] <= mtu) {
			sizes[keep++] = sizes[i];
			continue;
		}
		if (given && !all) {
			gdr_err(
			    "-c UD: %llu-byte messages do not fit the port's MTU of %u bytes (UD "
			    "sends one packet per message: use sizes up to %u)",
			    (unsigned long long)sizes[i], mtu, mtu);
			return -1;
		}
	}
	if (keep == *n)
		return 0;
	if (all) {
		gdr_info("-c UD: -a stops at the port's MTU of %u bytes (one packet per message)",
			 mtu);
		if (keep == 0 || sizes[keep - 1] != mtu)
			sizes[keep++] = mtu;
	} else {
		gdr_info("-c UD: the default size %llu is above the port's MTU; using %u bytes "
			 "(one packet per message)",
			 (unsigned long long)sizes[0], mtu);
		sizes[keep++] = mtu;
	}
	*n = keep;
	return 0;
}
