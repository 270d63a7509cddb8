/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw measurements: queue all copies, synchronize, time with CLOCK_MONOTONIC. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "log.h"
#include "mem.h"
#include "opts.h"
#include "stage.h"
#include "stager.h"

#ifdef HAVE_CUDA

struct bufs {
	struct gdr_mem m;
	uint8_t *up;   /* host source of h2d copies, one region per stream */
	uint8_t *down; /* host destination of d2h copies */
	size_t region; /* bytes per stream region (the largest size) */
	size_t host_len;
	bool pageable;
};

static double now_s(void)
{
	return (double)gdr_now_ns() * 1e-9;
}

static uint64_t auto_iters(uint64_t size)
{
	uint64_t n = (2ULL << 30) / size;

	return n < 20 ? 20 : n > 10000 ? 10000 : n;
}

static void *host_get(struct bufs *b, size_t len)
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

static void host_put(struct bufs *b, void *p)
{
	if (!p)
		return;
	if (b->pageable)
		free(p);
	else
		b->m.ops->host_free(&b->m, p, b->host_len);
}

/*
 * One timed measurement through the stager, exactly as --staged copies:
 * iters copies of size bytes (each way for bidir), each direction on its
 * own streams, one copy in flight per stream, completions reaped in order.
 * Returns seconds, or -1.
 */
static double measure(struct bufs *b, enum stage_dir dir, uint64_t size, uint64_t iters,
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

static const char *dir_name(enum stage_dir d)
{
	return d == STAGE_H2D ? "h2d" : d == STAGE_D2H ? "d2h" : "bidir";
}

int stage_run(const struct stage_opts *o)
{
	static const enum stage_dir order[] = {STAGE_H2D, STAGE_D2H, STAGE_BIDIR};
	struct gdr_opts go;
	struct bufs b;
	FILE *csv = NULL;
	uint64_t max = 0;
	size_t i, d;
	int rc = 1, dev_regions;
	bool bidir = o->dirs & STAGE_BIDIR;
	int ns = o->streams;

	if (ns > GDR_STAGER_STREAMS) {
		gdr_warn("--streams=%d: the stager (the copy leg of --staged) uses at most %d "
			 "streams per direction; measuring with %d",
			 ns, GDR_STAGER_STREAMS, GDR_STAGER_STREAMS);
		ns = GDR_STAGER_STREAMS;
	}
	memset(&go, 0, sizeof(go));
	go.use_cuda = o->use_cuda;
	go.cuda_bus_id = o->cuda_bus_id;
	memset(&b, 0, sizeof(b));
	b.pageable = o->pageable;
	if (gdr_mem_cuda_init(&b.m, &go, NULL))
		return 1;
	for (i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > max)
			max = o->sizes[i];
	b.region = max;
	b.host_len = (size_t)ns * max;
	dev_regions = (bidir ? 2 : 1) * ns;
	if (b.m.ops->alloc(&b.m, (size_t)dev_regions * max))
		goto out;
	if ((o->dirs & (STAGE_H2D | STAGE_BIDIR)) && !(b.up = host_get(&b, b.host_len)))
		goto out;
	if ((o->dirs & (STAGE_D2H | STAGE_BIDIR)) && !(b.down = host_get(&b, b.host_len)))
		goto out;
	if (o->csv_file) {
		csv = fopen(o->csv_file, "w");
		if (!csv) {
			gdr_err("--csv=%s: %s", o->csv_file, strerror(errno));
			goto out;
		}
		fprintf(csv, "bytes,dir,host_mem,streams,iters,gbps,usec_per_copy,gpu\n");
	}
	gdr_info("%s, %s host memory, %d stream%s, best of %u", b.m.desc,
		 o->pageable ? "pageable" : "pinned", ns, ns > 1 ? "s" : "",
		 o->reps);
	printf("%-12s %-6s %-9s %-8s %-15s %s\n", "#bytes", "dir", "host_mem", "streams",
	       "GB/s(10^9 B/s)", "usec/copy");
	for (i = 0; i < o->nsizes; i++) {
		uint64_t size = o->sizes[i], iters = o->iters ? o->iters : auto_iters(size);

		for (d = 0; d < 3; d++) {
			enum stage_dir dir = order[d];
			double best = 0, t, gbps, usec;
			unsigned int r;

			if (!(o->dirs & dir) || (dir == STAGE_BIDIR && !bidir))
				continue;
			/* warm-up: streams created, pages and copy engines touched */
			if (measure(&b, dir, size, iters / 10 + 2, ns) < 0)
				goto out;
			for (r = 0; r < o->reps; r++) {
				t = measure(&b, dir, size, iters, ns);
				if (t < 0)
					goto out;
				if (!r || t < best)
					best = t;
			}
			gbps = (double)size * iters * (dir == STAGE_BIDIR ? 2 : 1) / best / 1e9;
			usec = best / iters * 1e6;
			printf("%-12llu %-6s %-9s %-8d %-15.2f %.2f\n", (unsigned long long)size,
			       dir_name(dir), o->pageable ? "pageable" : "pinned", ns, gbps,
			       usec);
			fflush(stdout);
			if (csv)
				fprintf(csv, "%llu,%s,%s,%d,%llu,%.4f,%.4f,\"%s\"\n",
					(unsigned long long)size, dir_name(dir),
					o->pageable ? "pageable" : "pinned", ns,
					(unsigned long long)iters, gbps, usec, b.m.gpu_name);
		}
	}
	rc = 0;
out:
	if (csv && fclose(csv)) {
		gdr_err("--csv=%s: %s", o->csv_file, strerror(errno));
		rc = 1;
	}
	host_put(&b, b.up);
	host_put(&b, b.down);
	if (b.m.ops)
		b.m.ops->free(&b.m);
	return rc;
}

#else /* !HAVE_CUDA */

int stage_run(const struct stage_opts *o)
{
	(void)o;
	gdr_err("this gdr_stage_bw was built without CUDA: reconfigure with "
		"CUDA_H_PATH=/path/to/cuda.h");
	return 1;
}

#endif
