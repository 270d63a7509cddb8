/* SPDX-License-Identifier: MIT */
/*
 * One KV-cache-shaped cell of write_bw or read_bw on both sides (bw_kv.h,
 * docs/kv.md). The client measures the same bytes contiguous first (a
 * batch's bytes in one operation, as many batches in flight), then the
 * blocks scattered over the pool; the server's part is --validate's.
 *
 * Memory, each side [tx half][rx half] of region_len >= the pool:
 *   write: blocks from the client's tx half to the pool, the server's rx half;
 *          contiguous from the client's rx half to the server's tx half
 *   read:  blocks from the pool, the server's tx half, to the client's rx half;
 *          contiguous from the server's rx half to the client's tx half
 * so the contiguous reference never touches what --validate checks.
 *
 * --validate: a block bound for pool slot j carries the pattern of seed
 * gdr_bw_kv_seed(block, j), whichever ring entry sends it. write: the server
 * zeroes the pool, then finds each slot the run's batches wrote holding its
 * pattern and every other slot still zero; read: the server fills every slot
 * with its pattern, the client finds each ring entry it read holding its
 * slot's.
 *
 * --regions=M: the server registers its pool as M regions for the cell
 * (bw_kv_regions.c) and sends their keys; each scattered block names its
 * slot's region's key, the contiguous reference the path's.
 *
 * --sge=N: a work request carries N blocks, N local entries (gdr_bw_kv_local)
 * to or from a run of N consecutive pool slots; the placement places runs
 * (place.h), both sides expand them into the ring's per-block slots, so
 * --validate checks each block at its own slot and local place.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "bw.h"
#include "bw_kv.h"
#include "log.h"
#include "session.h"
#include "staging.h"
#include "stats.h"

struct kv_cell {
	struct gdr_conn *c;
	struct gdr_path *p;
	struct gdr_kv_place pl;
	uint64_t block;
	uint64_t *slot;	 /* the ring's slots */
	uint32_t nring;	 /* ring blocks (entries; with --sge, sge blocks an entry) */
	uint32_t posted; /* ring blocks the run posted (the first batches of the ring) */
	uint32_t sge;	 /* blocks a work request (--sge; 1 on the staged path) */
};

/*
 * The cell's placement and ring, as both sides compute them from the options.
 * The ring's first batches are posted: -n a QP, each QP from the ring's start
 * on the direct path; on the staged path batch r of all (-n x QPs) is entry
 * r % nb_ring's.
 */
static int cell_ring(struct kv_cell *k, uint32_t batch, bool staged)
{
	const struct gdr_opts *o = k->c->o;
	uint32_t nb;
	uint64_t done, runs = staged ? o->iters * k->c->nqp : o->iters;

	k->pl = o->kv_place;
	k->pl.batch = batch;
	k->pl.slots = o->kv_pool / k->block;
	k->sge = !staged && o->kv_sge > 1 ? o->kv_sge : 1;
	k->pl.run = k->sge; /* --sge: runs of sge consecutive slots */
	nb = gdr_bw_kv_ring_batches(&k->pl);
	k->nring = nb * batch;
	done = runs < nb ? runs : nb;
	k->posted = (uint32_t)done * batch;
	k->slot = calloc(k->nring, sizeof(*k->slot));
	if (!k->slot) {
		gdr_err("out of memory for a ring of %u blocks", k->nring);
		return -1;
	}
	for (uint32_t b = 0; b < nb; b++)
		if (gdr_kv_place_batch(&k->pl, b, k->slot + (size_t)b * batch)) {
			gdr_err("cannot place a batch of %u blocks in a pool of %llu", batch,
				(unsigned long long)k->pl.slots);
			return -1;
		}
	return 0;
}

static uint64_t pool_off(const struct kv_cell *k)
{
	/* write: the pool is the server's rx half; read: its tx half */
	return k->c->o->verb == GDR_VERB_READ ? 0 : k->c->region_len;
}

/* Before the barrier: what --validate needs in place on this side. 0 or -1 (printed). */
static int prepare(struct kv_cell *k)
{
	struct gdr_mem *m = gdr_test_mem(k->c, k->p);
	bool read = k->c->o->verb == GDR_VERB_READ, server = k->c->is_server;

	if (server && !read) /* the pool's slots no block wrote stay zero */
		return gdr_mem_fill_byte(m, pool_off(k), k->pl.slots * k->block, 0);
	if (server) {
		for (uint64_t j = 0; j < k->pl.slots; j++)
			if (gdr_mem_fill_pattern(m, j * k->block, k->block,
						 gdr_bw_kv_seed(k->block, j)))
				return -1;
		return 0;
	}
	if (read) /* what no read lands in stays zero */
		return gdr_mem_fill_byte(m, k->c->region_len, (size_t)k->nring * k->block, 0);
	for (uint32_t e = 0; e < k->nring; e++)
		if (gdr_mem_fill_pattern(m, gdr_bw_kv_local(e, k->sge, k->nring) * k->block,
					 k->block, gdr_bw_kv_seed(k->block, k->slot[e])))
			return -1;
	return 0;
}

static int checked(struct gdr_mem *m, int r, size_t bad, size_t at, const char *what, char *note,
		   size_t n)
{
	if (r == -2)
		snprintf(note, n, "data not checked: %s",
			 m->fail[0] ? m->fail : "its memory could not be read back");
	else if (r)
		snprintf(note, n, "validation failed: byte %zu of %s differs from what was sent",
			 bad - at, what);
	return r ? -1 : 0;
}

/* The side the blocks land on, after the run: each where the placement says. */
static int check(struct gdr_conn *c, void *arg, char *note, size_t n)
{
	struct kv_cell *k = arg;
	struct gdr_mem *m = gdr_test_mem(c, k->p);
	char what[96];
	size_t bad = 0;
	uint8_t *seen = NULL, *buf = NULL;
	int rc = -1, r;

	if (c->o->verb == GDR_VERB_READ) { /* the client: ring entry e holds its slot's block */
		for (uint32_t e = 0; e < k->posted; e++) {
			size_t at = c->region_len + gdr_bw_kv_local(e, k->sge, k->nring) * k->block;

			r = gdr_mem_check_pattern(m, at, 0, k->block,
						  gdr_bw_kv_seed(k->block, k->slot[e]), &bad);
			snprintf(what, sizeof(what),
				 "block %u of the ring (read from pool slot %llu)", e,
				 (unsigned long long)k->slot[e]);
			if (checked(m, r, bad, at, what, note, n))
				return -1;
		}
		return 0;
	}
	/* the server: every slot written holds its pattern, every other is zero */
	seen = calloc(k->pl.slots, 1);
	buf = malloc(k->block);
	if (!seen || !buf) {
		snprintf(note, n, "data not checked: out of memory");
		goto out;
	}
	for (uint32_t e = 0; e < k->posted; e++)
		seen[k->slot[e]] = 1;
	for (uint64_t j = 0; j < k->pl.slots; j++) {
		size_t at = pool_off(k) + j * k->block;

		if (seen[j]) {
			r = gdr_mem_check_pattern(m, at, 0, k->block, gdr_bw_kv_seed(k->block, j),
						  &bad);
			snprintf(what, sizeof(what), "pool slot %llu", (unsigned long long)j);
			if (checked(m, r, bad, at, what, note, n))
				goto out;
			continue;
		}
		if (m->ops->to_host(m, buf, at, k->block)) {
			checked(m, -2, 0, 0, NULL, note, n);
			goto out;
		}
		for (size_t i = 0; i < k->block; i++)
			if (buf[i]) {
				snprintf(note, n,
					 "validation failed: pool slot %llu, where no block goes, "
					 "was written (byte %zu)",
					 (unsigned long long)j, i);
				goto out;
			}
	}
	rc = 0;
out:
	free(seen);
	free(buf);
	return rc;
}

/* A measurement of runs of n blocks in blocks: bytes a block, blocks moved, blocks/s. */
static void in_blocks(struct gdr_result_wire *w, uint64_t block, uint32_t n)
{
	w->bytes = block;
	w->iters *= n;
	w->msg_rate_pps *= n;
}

/*
 * One loop of the client: blocks of `block` bytes placed by pl, between loc and rem, batch
 * ops a post; its measurement into w, its batches' times into the kv.
 */
static int run_loop(struct gdr_conn *c, struct gdr_path *p, struct gdr_stop_at *stop,
		    struct gdr_bw_kv *kv, const struct gdr_kv_place *pl, uint64_t block,
		    uint64_t loc, uint64_t rem, uint32_t inflight,
		    const struct gdr_bw_kv_regs *regs, struct gdr_result_wire *w)
{
	const struct gdr_opts *o = c->o;
	uint32_t sge = pl->run > 1 ? pl->run : 1, wrs = pl->batch / sge; /* a batch's WRs */
	struct gdr_bw_state s;
	int rc;

	gdr_bw_init_state(c, p, &s, block * sge, NULL); /* a work request's bytes */
	s.stop_at = stop;
	if (gdr_bw_kv_init(kv, pl, block, loc, rem, c->nqp, inflight * wrs, o->iters))
		return -1;
	if (regs && regs->n) {
		kv->rkeys = regs->key;
		kv->nrkeys = regs->n;
	}
	s.kv = kv;
	s.depth = inflight * wrs;
	s.cq_mod = wrs;
	s.per_qp = o->iters * wrs;
	s.peak.min = s.depth;
	rc = gdr_bw_loop(&s);
	gdr_bw_measure(&s, w);
	if (sge > 1)
		in_blocks(w, block, sge);
	return rc;
}

/*
 * The staged path (staging.h, struct gdr_stage_kv): a batch a run, one RDMA
 * of its bytes between the bounce rings; the side of the pool scatters (write)
 * or gathers (read) the batch's slots with one block list, the client copies
 * its blocks contiguous. First the same bytes contiguous on both sides (the
 * other halves), then the blocks scattered; each run its own barrier. The
 * client's contiguous figure in *contig, each side's scattered one in *mine.
 */
static int staged_runs(struct kv_cell *k, struct gdr_staging *stg, struct gdr_stop_at *stop,
		       struct gdr_result_wire *mine, struct gdr_result_wire *contig)
{
	struct gdr_conn *c = k->c;
	bool lands_here = (c->o->verb == GDR_VERB_READ) != c->is_server;
	struct gdr_stage_kv kv = {
	    .block = k->block,
	    .batch = k->pl.batch,
	    .nb_ring = k->nring / k->pl.batch,
	    .base = lands_here ? 0 : c->region_len,
	};
	int rc = -1;

	if (!stg || stg->plan.size != k->block * k->pl.batch) {
		gdr_err("staged KV cell: no staged plan of a batch's %llu bytes",
			(unsigned long long)(k->block * k->pl.batch));
		return -1;
	}
	kv.off = calloc(kv.batch, sizeof(*kv.off));
	if (!kv.off) {
		gdr_err("out of memory for a batch of %u offsets", kv.batch);
		return -1;
	}
	stg->kv = &kv;
	if (gdr_staged_prepare(c, k->p, stg) || gdr_bw_barrier(c, k->block) ||
	    gdr_staged_bw(c, k->p, stg, stop, contig))
		goto out;
	kv.base = lands_here ? c->region_len : 0;
	kv.slot = c->is_server ? k->slot : NULL; /* the pool is the server's */
	if (gdr_staged_prepare(c, k->p, stg) || gdr_bw_barrier(c, k->block) ||
	    gdr_staged_bw(c, k->p, stg, stop, mine))
		goto out;
	in_blocks(mine, k->block, kv.batch);
	rc = 0;
out:
	stg->kv = NULL;
	free(kv.off);
	return rc;
}

static void row(const struct gdr_conn *c, const struct kv_cell *k, struct gdr_bw_kv *kv,
		double contig_Bps, struct gdr_result *r)
{
	static const double q99 = 99;
	struct gdr_lat_stats st;
	uint32_t m = c->o->kv_regions ? c->o->kv_regions : 1;
	char regs[64] = "", sges[64] = "";

	r->kv_batch = k->pl.batch;
	r->kv_pool = c->o->kv_pool;
	r->kv_regions = m;
	r->kv_region_bytes = k->pl.slots / m * k->block; /* the slots' bytes, M equal parts */
	r->kv_sge = k->sge;
	gdr_kv_place_name(&k->pl, r->kv_place, sizeof(r->kv_place));
	if (c->is_server) /* the client times the batches and the contiguous reference */
		return;
	r->kv_blocks_ps = r->msg_rate_pps;
	if (kv->nus && !gdr_stats_compute(kv->us, kv->nus, &q99, 1, &st)) {
		r->kv_batch_med_us = st.median;
		r->kv_batch_p99_us = st.pct_v[0];
		r->kv_batches = st.n;
	}
	if (m > 1)
		snprintf(regs, sizeof(regs), " (%u regions of %llu bytes)", m,
			 (unsigned long long)r->kv_region_bytes);
	if (k->sge > 1)
		snprintf(sges, sizeof(sges), ", %u blocks a work request (--sge)", k->sge);
	r->kv_contig_Bps = contig_Bps;
	if (contig_Bps > 0)
		r->kv_eff = r->bw_avg_Bps / contig_Bps; /* not clamped: see docs/kv.md */
	/* the staged path: its batches overlap copy and wire, not timed one by one */
	if (k->p->staged) {
		gdr_info("KV %llu-byte blocks, %u a batch, %s in a %llu-byte pool%s, %s: %.0f "
			 "blocks/s; the same bytes contiguous on this path %.3f Gb/s, efficiency "
			 "%.3f",
			 (unsigned long long)k->block, k->pl.batch, r->kv_place,
			 (unsigned long long)r->kv_pool, regs, r->path, r->kv_blocks_ps,
			 gdr_to_gbps(contig_Bps), r->kv_eff);
		return;
	}
	gdr_info("KV %llu-byte blocks, %u a batch%s, %s in a %llu-byte pool%s: %.0f blocks/s; a "
		 "batch's completion median %.2f us, p99 %.2f us (%llu batches); the same bytes "
		 "contiguous %.3f Gb/s, efficiency %.3f",
		 (unsigned long long)k->block, k->pl.batch, sges, r->kv_place,
		 (unsigned long long)r->kv_pool, regs, r->kv_blocks_ps, r->kv_batch_med_us,
		 r->kv_batch_p99_us, (unsigned long long)r->kv_batches, gdr_to_gbps(contig_Bps),
		 r->kv_eff);
}

int gdr_bw_kv_size(struct gdr_conn *c, struct gdr_path *p, uint64_t size, uint32_t cell,
		   struct gdr_staging *stg, struct gdr_stop_at *stop, struct gdr_result *res)
{
	const struct gdr_opts *o = c->o;
	uint32_t batch = gdr_opts_kv_batch(o, cell);
	struct kv_cell k = {.c = c, .p = p, .block = size};
	struct gdr_bw_kv kv = {0}, kc = {0};
	struct gdr_bw_kv_regs regs = {0};
	struct gdr_result_wire mine, peer, contig;
	bool read = o->verb == GDR_VERB_READ;
	int rc = -1;

	memset(&mine, 0, sizeof(mine));
	memset(&contig, 0, sizeof(contig));
	mine.bytes = size;
	if (!batch || cell_ring(&k, batch, p->staged))
		goto out;
	if (o->validate && prepare(&k))
		goto out;
	if (!p->staged && o->kv_regions > 1 &&
	    gdr_bw_kv_regions(c, p, pool_off(&k), size, k.pl.slots, o->kv_regions, &regs))
		goto out;
	if (p->staged) {
		if (staged_runs(&k, stg, stop, &mine, &contig))
			goto out;
	} else if (gdr_bw_barrier(c, size)) {
		goto out;
	} else if (!c->is_server) {
		struct gdr_kv_place one = {.kind = GDR_KV_SEQ, .slots = 1, .batch = 1};
		uint64_t half = c->region_len, rhalf = p->remote.len / 2;
		uint32_t inflight = o->tx_depth / batch;

		/* the same bytes contiguous: a batch in one operation, the other halves */
		if (run_loop(c, p, stop, &kc, &one, size * batch, read ? 0 : half, read ? rhalf : 0,
			     inflight, NULL, &contig))
			goto out;
		if (run_loop(c, p, stop, &kv, &k.pl, size, read ? half : 0, read ? 0 : rhalf,
			     inflight, &regs, &mine))
			goto out;
	}
	bool lands_here = read != c->is_server;

	if (gdr_session_results(c, &mine, &peer, o->validate && lands_here ? check : NULL, &k))
		goto out;
	if (c->is_server)
		gdr_bw_combine(c, &peer, &mine, res);
	else
		gdr_bw_combine(c, &mine, &peer, res);
	row(c, &k, &kv, contig.bw_avg_Bps, res);
	rc = 0;
out:
	gdr_bw_kv_free(&kv);
	gdr_bw_kv_free(&kc);
	gdr_bw_kv_regions_free(c, &regs);
	free(k.slot);
	return rc;
}
