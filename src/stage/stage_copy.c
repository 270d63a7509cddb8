/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw's copies: one GPU's buffers and a timed measurement through the stager. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "log.h"
#include "stage_copy.h"
#include "stager.h"

static double now_s(void)
{
	return (double)gdr_now_ns() * 1e-9;
}

uint64_t stage_auto_iters(uint64_t size)
{
	uint64_t n = (2ULL << 30) / size;

	return n < 20 ? 20 : n > 10000 ? 10000 : n;
}

int stage_streams(const struct stage_opts *o)
{
	if (o->streams <= GDR_STAGER_STREAMS)
		return o->streams;
	gdr_warn("--streams=%d: the stager (the copy leg of --staged) uses at most %d "
		 "streams per direction; measuring with %d",
		 o->streams, GDR_STAGER_STREAMS, GDR_STAGER_STREAMS);
	return GDR_STAGER_STREAMS;
}

const char *stage_dir_name(enum stage_dir d)
{
	return d == STAGE_H2D ? "h2d" : d == STAGE_D2H ? "d2h" : "bidir";
}

static void *host_get(struct stage_bufs *b, size_t len)
{
	void *p;

	if (!b->pageable)
		return b->m.ops->host_alloc(&b->m, len);
	p = malloc(len);
	if (!p) {
		gdr_err("cannot allocate %zu bytes of pageable host memory", len);
		return NULL;
	}
	memset(p, 0x3c, len); /* fault the pages in before timing */
	return p;
}

static void host_put(struct stage_bufs *b, void *p)
{
	if (!p)
		return;
	if (b->pageable)
		free(p);
	else
		b->m.ops->host_free(&b->m, p, b->host_len);
}

int stage_bufs_alloc(struct stage_bufs *b, const struct stage_opts *o, int ns)
{
	uint64_t max = 0;
	int dev_regions = ((o->dirs & STAGE_BIDIR) ? 2 : 1) * ns;

	for (size_t i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > max)
			max = o->sizes[i];
	b->pageable = o->pageable;
	b->region = max;
	b->host_len = (size_t)ns * max;
	if (b->m.ops->alloc(&b->m, (size_t)dev_regions * max))
		return -1;
	if ((o->dirs & (STAGE_H2D | STAGE_BIDIR)) && !(b->up = host_get(b, b->host_len)))
		return -1;
	if ((o->dirs & (STAGE_D2H | STAGE_BIDIR)) && !(b->down = host_get(b, b->host_len)))
		return -1;
	return 0;
}

void stage_bufs_free(struct stage_bufs *b)
{
	if (!b->m.ops)
		return;
	host_put(b, b->up);
	host_put(b, b->down);
	b->up = b->down = NULL;
	b->m.ops->free(&b->m);
	b->m.ops = NULL;
}

/*
 * Each direction on its own streams, completions reaped in order (the
 * stager), as --staged copies.
 */
double stage_measure(struct stage_bufs *b, enum stage_dir dir, uint64_t size, uint64_t iters,
		     int streams)
{
	struct gdr_stager st;
	size_t down_base = dir == STAGE_BIDIR ? (size_t)streams * b->region : 0;
	bool up = dir & (STAGE_H2D | STAGE_BIDIR), down = dir & (STAGE_D2H | STAGE_BIDIR);
	double t0 = now_s();

	gdr_stager_init(&st, &b->m, (unsigned int)streams);
	while ((up && st.done[GDR_FROM_HOST] < iters) || (down && st.done[GDR_TO_HOST] < iters)) {
		for (int d = GDR_TO_HOST; d <= GDR_FROM_HOST; d++) {
			enum gdr_copy_dir cd = (enum gdr_copy_dir)d;
			bool on = cd == GDR_TO_HOST ? down : up;

			if (!on)
				continue;
			if (gdr_stager_reap(&st, cd) < 0)
				return -1;
			while (st.submitted[cd] < iters && gdr_stager_room(&st, cd)) {
				size_t off = (size_t)(st.submitted[cd] % st.streams) * b->region;
				int rc = cd == GDR_TO_HOST
					     ? gdr_stager_submit(&st, cd, down_base + off,
								 b->down + off, size)
					     : gdr_stager_submit(&st, cd, off, b->up + off, size);

				if (rc)
					return -1;
			}
		}
	}
	return now_s() - t0;
}
