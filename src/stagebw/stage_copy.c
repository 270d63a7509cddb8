/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw's copies: one GPU's buffers and a timed measurement through a copier. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "log.h"
#include "copier.h"
#include "stage_copy.h"

/* The copier of each --copier word (stage_copier_words): GDR_GPU_COPIERS. */
#define KIND(name, NAME) GDR_COPIER_##NAME,
static const enum gdr_copier_kind copier_kinds[] = {GDR_GPU_COPIERS(KIND)};
#undef KIND

/* Bound on a copier's own waits (gdr_stage_bw has no --timeout). */
#define COPY_TIMEOUT_NS (60ULL * 1000000000ULL)

enum gdr_copier_kind stage_copier_kind(const struct stage_opts *o)
{
	return copier_kinds[o->copier];
}

static double now_s(void)
{
	return (double)gdr_now_ns() * 1e-9;
}

uint64_t stage_auto_iters(uint64_t size)
{
	uint64_t n = (2ULL << 30) / size;

	return n < 20 ? 20 : n > 10000 ? 10000 : n;
}

uint64_t stage_timed_iters(double secs, double (*measure)(void *ctx, uint64_t n), void *ctx)
{
	const double most = 1e8;

	for (uint64_t n = 2;; n *= 2) {
		double t = measure(ctx, n), k;

		if (t < 0)
			return 0;
		if (t < secs / 10 && n < (uint64_t)most)
			continue;
		k = t > 0 ? secs / t * (double)n : most;
		return k < 1 ? 1 : k > most ? (uint64_t)most : (uint64_t)(k + 0.5);
	}
}

int stage_streams(const struct stage_opts *o)
{
	if (o->streams <= GDR_COPIER_LANES)
		return o->streams;
	gdr_warn("--streams=%d: the stager (the copy leg of --staged) uses at most %d "
		 "streams per direction; measuring with %d",
		 o->streams, GDR_COPIER_LANES, GDR_COPIER_LANES);
	return GDR_COPIER_LANES;
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
		b->m.ops->host_free(&b->m, p, b->host_total);
}

int stage_bufs_alloc(struct stage_bufs *b, const struct stage_opts *o, int ns)
{
	uint64_t max = 0;
	int dev_regions = ((o->dirs & STAGE_BIDIR) ? 2 : 1) * ns;
	bool up = o->dirs & (STAGE_H2D | STAGE_BIDIR), down = o->dirs & (STAGE_D2H | STAGE_BIDIR);

	for (size_t i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > max)
			max = o->sizes[i];
	b->pageable = o->pageable;
	b->kind = stage_copier_kind(o);
	b->region = max;
	b->host_len = (size_t)ns * max;
	if (b->m.ops->alloc(&b->m, (size_t)dev_regions * max))
		return -1;
	/* one host block, [up][down], so a copier sees one host range */
	b->host_total = (size_t)(up + down) * b->host_len;
	if (!(b->host = host_get(b, b->host_total)))
		return -1;
	b->up = up ? b->host : NULL;
	b->down = down ? b->host + (up ? b->host_len : 0) : NULL;
	return 0;
}

void stage_bufs_free(struct stage_bufs *b)
{
	if (!b->m.ops)
		return;
	host_put(b, b->host);
	b->host = b->up = b->down = NULL;
	b->m.ops->free(&b->m);
	b->m.ops = NULL;
}

int stage_copier_check(struct stage_bufs *b, int ns, char *why, size_t n)
{
	const struct gdr_copier_ops *ops = gdr_copier_of(b->kind);
	struct gdr_copier cp;
	char r[256];

	if (gdr_copier_open(&cp, b->kind, &b->m, b->host, b->host_total, (unsigned int)ns,
			    COPY_TIMEOUT_NS, r, sizeof(r))) {
		snprintf(why, n, "--copier=%s cannot run here: %s", ops ? ops->name : "?", r);
		return -1;
	}
	gdr_copier_close(&cp);
	return 0;
}

/*
 * Each direction on its own lanes, completions reaped in order, through the
 * copier --copier names (ce: the one --staged uses for GPU memory by
 * default; copier.h), as --staged copies.
 */
double stage_measure(struct stage_bufs *b, enum stage_dir dir, uint64_t size, uint64_t iters,
		     int streams)
{
	struct gdr_copier cp;
	char why[160];
	size_t down_base = dir == STAGE_BIDIR ? (size_t)streams * b->region : 0;
	bool up = dir & (STAGE_H2D | STAGE_BIDIR), down = dir & (STAGE_D2H | STAGE_BIDIR);
	double t0, t = -1;

	if (gdr_copier_open(&cp, b->kind, &b->m, b->host, b->host_total, (unsigned int)streams,
			    COPY_TIMEOUT_NS, why, sizeof(why))) {
		gdr_err("cannot open the copier: %s", why);
		return -1;
	}
	t0 = now_s();
	while ((up && cp.done[GDR_FROM_HOST] < iters) || (down && cp.done[GDR_TO_HOST] < iters)) {
		for (int d = GDR_TO_HOST; d <= GDR_FROM_HOST; d++) {
			enum gdr_copy_dir cd = (enum gdr_copy_dir)d;
			bool on = cd == GDR_TO_HOST ? down : up;

			if (!on)
				continue;
			if (gdr_copier_reap(&cp, cd) < 0)
				goto out;
			while (cp.submitted[cd] < iters && gdr_copier_room(&cp, cd)) {
				size_t off = (size_t)(cp.submitted[cd] % cp.lanes) * b->region;
				int rc = cd == GDR_TO_HOST
					     ? gdr_copier_submit(&cp, cd, down_base + off,
								 b->down + off, size)
					     : gdr_copier_submit(&cp, cd, off, b->up + off, size);

				if (rc)
					goto out;
			}
		}
	}
	t = now_s() - t0;
out:
	gdr_copier_close(&cp);
	return t;
}
