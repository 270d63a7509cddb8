/* SPDX-License-Identifier: MIT */
/*
 * A KV-cache-shaped row of the bandwidth engine (bw_kv.c, docs/kv.md): a
 * ring of `batch` x nb_ring operations, block bytes each (sge blocks each with
 * --sge), local blocks one after another (with --sge: gdr_bw_kv_local) and
 * remote blocks where the placement puts them in the pool;
 * a batch is posted in one call, its last block signalled. Each batch's
 * completion time (its post to its completion) is one sample.
 */
#ifndef GDR_BW_KV_H
#define GDR_BW_KV_H

#include <stdint.h>
#include "bw_state.h"
#include "place.h"

struct gdr_xop;
struct gdr_result;

struct gdr_bw_kv {
	uint64_t block;	       /* bytes a block (an operation) */
	uint32_t sge;	       /* blocks a work request (--sge): its scatter/gather entries */
	uint32_t batch;	       /* work requests a batch (its blocks / sge) */
	uint32_t nb_ring;      /* batches in the ring: ring = batch x nb_ring operations */
	uint32_t inflight;     /* batches in flight per QP at most */
	uint64_t *slot;	       /* each ring entry's pool slot (its run's first, --sge) */
	uint64_t slots;	       /* the pool's slots */
	const uint64_t *rkeys; /* --regions: the key of each of the pool's nrkeys regions */
	uint32_t nrkeys;       /* 0: the pool is in the path's region, its key */
	uint64_t loc_base;     /* local region of the blocks (byte offset in this side's memory) */
	uint64_t rem_base;     /* the pool in the peer's region (byte offset) */
	uint64_t *t_post;      /* per QP, a FIFO of its batches' post times (ns) */
	uint32_t head[GDR_MAX_QPS], used[GDR_MAX_QPS];
	double *us; /* each batch's completion time, usec */
	size_t nus, cap;
};

/* Batches in the ring of a placement (at least 1; at most 4096 operations unless one batch is
 * more): the server computes the same to know which slots a run wrote. */
uint32_t gdr_bw_kv_ring_batches(const struct gdr_kv_place *pl);
/*
 * Set up k for blocks of `block` bytes placed by pl (slots and batch set), nqp QPs of
 * depth operations, iters batches each: 0 or -1 (printed).
 */
int gdr_bw_kv_init(struct gdr_bw_kv *k, const struct gdr_kv_place *pl, uint64_t block,
		   uint64_t loc_base, uint64_t rem_base, uint32_t nqp, uint32_t depth,
		   uint64_t iters);
void gdr_bw_kv_free(struct gdr_bw_kv *k);
/* Ring entry e's offsets and length onto op (its kind set by the verb), and the key of its
 * slot's region where the pool is in regions (rkeys). With sge > 1 (--sge) the entry is a run
 * of sge blocks: sge consecutive pool slots from slot[e], one remote range, and sge local
 * entries, its blocks' places by gdr_bw_kv_local. */
void gdr_bw_kv_op(const struct gdr_bw_kv *k, uint32_t e, struct gdr_xop *op);
/*
 * Where block i of a ring of nblocks blocks lies among the requester's blocks (in blocks
 * from its first): i itself with sge 1; with sge > 1 (--sge) block j of work request w
 * (i = w x sge + j) at j x (nblocks / sge) + w, so a request's blocks are the ring's work
 * requests apart: scattered, each of its own.
 */
uint64_t gdr_bw_kv_local(uint64_t i, uint32_t sge, uint64_t nblocks);
/* QP q posted a batch at now / reaped its completion at now (a sample). */
void gdr_bw_kv_posted(struct gdr_bw_kv *k, uint32_t q, uint64_t now);
void gdr_bw_kv_done(struct gdr_bw_kv *k, uint32_t q, uint64_t now);
/* The seed of the pattern a block for pool slot j carries (--validate). */
uint32_t gdr_bw_kv_seed(uint64_t size, uint64_t j);

/*
 * --regions=M (bw_kv_regions.c): the server registers its pool (pool_off in its
 * memory, slots of block bytes) as m regions on their own and sends their keys,
 * the client receives them into r; 0 or -1 (printed). Freed after the cell.
 */
struct gdr_conn;
struct gdr_path;
struct gdr_bw_kv_regs {
	uint32_t n;	     /* regions registered (server) or keys received (client) */
	uint64_t bytes;	     /* a region's bytes */
	uint64_t *key;	     /* each region's key */
	struct gdr_xmr **mr; /* the server's registrations */
};
int gdr_bw_kv_regions(struct gdr_conn *c, struct gdr_path *p, uint64_t pool_off, uint64_t block,
		      uint64_t slots, uint32_t m, struct gdr_bw_kv_regs *r);
void gdr_bw_kv_regions_free(struct gdr_conn *c, struct gdr_bw_kv_regs *r);

/*
 * One KV cell (block `size`, the run's cell `cell`) of a bandwidth test on both sides
 * (bw_kv_size.c): the same bytes contiguous (a batch in one operation) then the blocks
 * scattered, both measured by the client; --validate on the side the data lands on.
 * The staged path p: stg is the size's staging state, planned for a batch's bytes (a
 * batch a run, its blocks through the copier). 0 or -1.
 */
struct gdr_staging;
struct gdr_stop_at;
int gdr_bw_kv_size(struct gdr_conn *c, struct gdr_path *p, uint64_t size, uint32_t cell,
		   struct gdr_staging *stg, struct gdr_stop_at *stop, struct gdr_result *res);

#endif
