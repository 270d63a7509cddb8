/* SPDX-License-Identifier: MIT */
/*
 * gdr_stage_bw --block: a KV batch's copy leg on one GPU (docs/kv.md). For each
 * block x batch cell and direction, gather (d2h: pool blocks -> contiguous host)
 * or scatter (h2d: contiguous host -> pool blocks) one block list a batch through
 * gdr_copier_submit_list, as the staged path copies it, on the run's lanes; then
 * the same bytes as ONE contiguous copy a batch, the reference. Each sample is -n
 * batches (one measurement); --reps samples of each, alternating; median and
 * spread over every sample. Before timing, one batch of each direction is copied
 * and checked byte for byte at the placement's offsets: a wrong copy stops the run.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "copier.h"
#include "log.h"
#include "stage_copy.h"
#include "stage_kv.h"

#define KV_TABLE      16      /* distinct batches whose offsets the loop cycles through */
#define KV_SEED_POOL  0x4b56u /* the pool's pattern (gather's check) */
#define KV_SEED_HOST  0x5343u /* the host's pattern (scatter's check) */
#define KV_TIMEOUT_NS (60ULL * 1000000000ULL)

int stage_kv_offsets(const struct gdr_kv_place *pl, uint64_t block, uint32_t batch,
		     uint32_t nbatches, uint64_t *off)
{
	for (uint32_t b = 0; b < nbatches; b++) {
		uint64_t *o = off + (size_t)b * batch;

		if (gdr_kv_place_batch(pl, b, o))
			return -1;
		for (uint32_t k = 0; k < batch; k++)
			o[k] *= block;
	}
	return 0;
}

int stage_kv_submit(struct gdr_copier *cp, const struct stage_kv_cell *c, enum gdr_copy_dir d,
		    bool contig, uint8_t *host, size_t lane_len)
{
	uint64_t i = cp->submitted[d];
	uint8_t *h = host + (size_t)(i % cp->lanes) * lane_len;

	if (contig)
		return gdr_copier_submit(cp, d, 0, h, (size_t)(c->block * c->batch));
	return gdr_copier_submit_list(cp, d, c->off + (size_t)(i % c->ntable) * c->batch, c->batch,
				      (size_t)c->block, h);
}

double stage_kv_measure(struct gdr_copier *cp, const struct stage_kv_cell *c, enum gdr_copy_dir d,
			bool contig, uint8_t *host, size_t lane_len, uint64_t iters)
{
	uint64_t t0 = gdr_now_ns();

	while (cp->done[d] < iters) {
		if (gdr_copier_reap(cp, d) < 0)
			return -1;
		while (cp->submitted[d] < iters && gdr_copier_room(cp, d))
			if (stage_kv_submit(cp, c, d, contig, host, lane_len))
				return -1;
	}
	return (double)(gdr_now_ns() - t0) * 1e-9;
}

struct kv_run {
	const struct stage_opts *o;
	struct gdr_mem m;
	enum gdr_copier_kind kind;
	uint8_t *host; /* [lanes x lane_len] for d2h, then the same for h2d */
	size_t lane_len, host_total;
	int ns;
	FILE *csv;
	char place[48];
};

/* One copier opened for one measurement (opened outside the timing). */
static double measure(struct kv_run *r, const struct stage_kv_cell *c, enum gdr_copy_dir d,
		      bool contig, uint64_t iters)
{
	struct gdr_copier cp;
	char why[256];
	uint8_t *h = r->host + (d == GDR_FROM_HOST ? (size_t)r->ns * r->lane_len : 0);
	double t;

	if (gdr_copier_open(&cp, r->kind, &r->m, r->host, r->host_total, (unsigned int)r->ns,
			    KV_TIMEOUT_NS, why, sizeof(why))) {
		gdr_err("cannot open the copier: %s", why);
		return -1;
	}
	t = stage_kv_measure(&cp, c, d, contig, h, r->lane_len, iters);
	gdr_copier_close(&cp);
	return t;
}

/*
 * One batch of c (the table's last) through the copier, checked: gather, every
 * host byte against the pattern its block was filled with at its pool offset
 * (one seed a block, so a block from a wrong place or in a wrong order shows);
 * scatter, every pool block against the host's pattern. 0, or -1 (printed).
 */
static int check(struct kv_run *r, const struct stage_kv_cell *c, enum gdr_copy_dir d)
{
	struct stage_kv_cell one = *c;
	size_t bytes = (size_t)(c->block * c->batch), bad = 0;
	uint8_t *h = r->host + (d == GDR_FROM_HOST ? (size_t)r->ns * r->lane_len : 0);
	const char *what = d == GDR_TO_HOST ? "gather" : "scatter";

	one.off = c->off + (size_t)(c->ntable - 1) * c->batch;
	one.ntable = 1;
	if (d == GDR_TO_HOST) {
		/* each of the batch's blocks its own pattern (seed + k), at its offset */
		memset(h, 0, bytes);
		for (uint32_t k = 0; k < c->batch; k++)
			if (gdr_mem_fill_pattern(&r->m, (size_t)one.off[k], (size_t)c->block,
						 KV_SEED_POOL + k))
				return -1;
	} else {
		for (size_t j = 0; j < bytes; j++)
			h[j] = gdr_pattern_byte(j, KV_SEED_HOST);
	}
	if (measure(r, &one, d, false, 1) < 0)
		return -1;
	for (uint32_t k = 0; k < c->batch; k++) {
		size_t off = (size_t)one.off[k], at = (size_t)k * (size_t)c->block;
		int rc = 0;

		if (d == GDR_TO_HOST) {
			for (size_t j = 0; j < c->block && !rc; j++)
				if (h[at + j] != gdr_pattern_byte(j, KV_SEED_POOL + k))
					rc = -1, bad = off + j;
		} else {
			rc = gdr_mem_check_pattern(&r->m, off, at, (size_t)c->block, KV_SEED_HOST,
						   &bad);
		}
		if (rc == -2)
			return -1;
		if (rc) {
			gdr_err("%s check failed: block %u of %llu x %u (pool offset %zu): byte at "
				"pool offset %zu is wrong",
				what, k, (unsigned long long)c->block, c->batch, off, bad);
			return -1;
		}
	}
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place). */
static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One cell, one direction: warm-up, --reps samples of list and contiguous, the row. */
static int cell_dir(struct kv_run *r, const struct stage_kv_cell *c, enum gdr_copy_dir d)
{
	const struct stage_opts *o = r->o;
	uint64_t bytes = c->block * c->batch;
	uint64_t iters = o->iters ? o->iters : stage_auto_iters(bytes);
	unsigned int n = o->reps;
	double *t = calloc(2 * (size_t)n, sizeof(double)), *tc;
	double gb, gb_lo, gb_hi, cgb, us, cus;
	const char *cname = gdr_copier_of(r->kind)->name;
	const char *dn = d == GDR_TO_HOST ? "gather" : "scatter";
	int rc = -1;

	if (!t) {
		gdr_err("out of memory");
		return -1;
	}
	tc = t + n;
	if (check(r, c, d) || measure(r, c, d, false, iters / 10 + 2) < 0 ||
	    measure(r, c, d, true, iters / 10 + 2) < 0)
		goto out;
	for (unsigned int i = 0; i < n; i++) {
		t[i] = measure(r, c, d, false, iters);
		tc[i] = measure(r, c, d, true, iters);
		if (t[i] <= 0 || tc[i] <= 0)
			goto out;
	}
	/* GB/s from each sample: the fastest sample is the highest rate */
	qsort(t, n, sizeof(*t), cmp_d);
	gb_hi = (double)bytes * (double)iters / t[0] / 1e9;
	gb_lo = (double)bytes * (double)iters / t[n - 1] / 1e9;
	us = median(t, n) / (double)iters * 1e6;
	cus = median(tc, n) / (double)iters * 1e6;
	gb = (double)bytes / us / 1e3;
	cgb = (double)bytes / cus / 1e3;
	printf(
	    "%-8s %-9llu %-6u %-8s %-8d %-9.2f %-8.2f %-8.2f %-12.0f %-10.2f %-10.2f %-8.3f ok\n",
	    dn, (unsigned long long)c->block, c->batch, cname, r->ns, gb, gb_lo, gb_hi,
	    (double)c->batch / us * 1e6, us, cgb, gb / cgb);
	fflush(stdout);
	if (r->csv)
		fprintf(r->csv,
			"%s,%llu,%u,copier_%s,%s,%s,%d,%llu,%u,%.2f,%.4f,%.4f,%.4f,%.0f,%.2f,%.4f,"
			"%.4f,%llu,%s,\"%s\",ok\n",
			dn, (unsigned long long)c->block, c->batch, cname, cname,
			d == GDR_TO_HOST ? "d2h" : "h2d", r->ns, (unsigned long long)iters, n, us,
			gb, gb_lo, gb_hi, (double)c->batch / us * 1e6, cus, cgb, gb / cgb,
			(unsigned long long)o->kv_pool, r->place, r->m.gpu_name);
	rc = 0;
out:
	free(t);
	return rc;
}

static int cell(struct kv_run *r, uint64_t block, uint32_t batch)
{
	struct gdr_kv_place pl = r->o->kv_place;
	struct stage_kv_cell c = {.block = block, .batch = batch};
	int rc = -1;

	pl.slots = r->o->kv_pool / block;
	pl.batch = batch;
	c.ntable = KV_TABLE;
	c.off = calloc((size_t)KV_TABLE * batch, sizeof(*c.off));
	if (!c.off) {
		gdr_err("out of memory");
		return -1;
	}
	if (stage_kv_offsets(&pl, block, batch, KV_TABLE, c.off)) {
		gdr_err("--place=%s: no placement of %u blocks in %llu slots", r->place, batch,
			(unsigned long long)pl.slots);
		goto out;
	}
	if ((r->o->dirs & STAGE_D2H) && cell_dir(r, &c, GDR_TO_HOST))
		goto out;
	if ((r->o->dirs & STAGE_H2D) && cell_dir(r, &c, GDR_FROM_HOST))
		goto out;
	rc = 0;
out:
	free(c.off);
	return rc;
}

int stage_kv_run(const struct stage_opts *o)
{
	struct gdr_mem_cfg mc;
	struct kv_run r;
	char why[384];
	uint64_t most = 0;
	int rc = 1;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.ns = stage_streams(o);
	for (uint32_t i = 0; i < o->kv_nblocks; i++)
		for (uint32_t j = 0; j < o->kv_nbatch; j++)
			if (o->kv_blocks[i] * o->kv_batch[j] > most)
				most = o->kv_blocks[i] * o->kv_batch[j];
	r.lane_len = (size_t)most;
	r.host_total = 2 * (size_t)r.ns * r.lane_len;
	gdr_kv_place_name(&o->kv_place, r.place, sizeof(r.place));
	memset(&mc, 0, sizeof(mc));
	mc.api = o->rocm ? GDR_MEM_API_ROCM : GDR_MEM_API_CUDA;
	mc.gpu = o->use_cuda;
	mc.gpu_bus_id = o->cuda_bus_id;
	if (gdr_mem_init(&r.m, &mc, NULL))
		return 1;
	r.kind = stage_copier_kind(o);
	if (r.m.ops->alloc(&r.m, (size_t)o->kv_pool))
		goto out;
	if (!(r.host = r.m.ops->host_alloc(&r.m, r.host_total)))
		goto out;
	{
		struct gdr_copier cp;
		char w[256];

		if (gdr_copier_open(&cp, r.kind, &r.m, r.host, r.host_total, (unsigned int)r.ns,
				    KV_TIMEOUT_NS, w, sizeof(w))) {
			gdr_err("--copier=%s cannot run here: %s", gdr_copier_of(r.kind)->name, w);
			goto out;
		}
		gdr_copier_close(&cp);
	}
	if (o->csv_file) {
		r.csv = fopen(o->csv_file, "w");
		if (!r.csv) {
			gdr_err("--csv=%s: %s", o->csv_file, strerror(errno));
			goto out;
		}
		fprintf(r.csv, "dir,block_B,batch,method,copier,copy_dir,streams,batches,samples,"
			       "median_us,GBps,GBps_min,GBps_max,blocks_per_s,contig_median_us,"
			       "contig_GBps,eff_vs_contig,pool_B,place,gpu,check\n");
	}
	snprintf(why, sizeof(why), "%s, pool %llu bytes, --place=%s, %d stream%s, %u samples",
		 r.m.desc, (unsigned long long)o->kv_pool, r.place, r.ns, r.ns > 1 ? "s" : "",
		 o->reps);
	gdr_info("%s", why);
	gdr_info(
	    "a row: one block list a batch (gather d2h, scatter h2d) against the same bytes as "
	    "one contiguous copy; GB/s = 10^9 B/s, the median sample (min, max beside it); "
	    "us/batch and contig from the median samples; checked before timing");
	printf("%-8s %-9s %-6s %-8s %-8s %-9s %-8s %-8s %-12s %-10s %-10s %-8s %s\n", "#dir",
	       "block_B", "batch", "copier", "streams", "GB/s", "min", "max", "blocks/s",
	       "us/batch", "contig_GB/s", "of_contig", "check");
	for (uint32_t i = 0; i < o->kv_nblocks; i++)
		for (uint32_t j = 0; j < o->kv_nbatch; j++)
			if (cell(&r, o->kv_blocks[i], (uint32_t)o->kv_batch[j]))
				goto out;
	rc = 0;
out:
	if (r.csv && fclose(r.csv)) {
		gdr_err("--csv=%s: %s", o->csv_file, strerror(errno));
		rc = 1;
	}
	if (r.host)
		r.m.ops->host_free(&r.m, r.host, r.host_total);
	if (r.m.ops)
		r.m.ops->free(&r.m);
	return rc;
}
