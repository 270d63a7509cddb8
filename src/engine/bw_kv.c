/* SPDX-License-Identifier: MIT */
/* A KV-cache-shaped row's ring and its batches' completion times (bw_kv.h). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "bw_kv.h"
#include "log.h"
#include "region.h"
#include "xport.h"

#define RING_OPS 4096 /* operations in a ring at most, unless one batch is more */

uint32_t gdr_bw_kv_ring_batches(const struct gdr_kv_place *pl)
{
	uint64_t nb = pl->slots / pl->batch; /* batches the pool holds side by side */
	uint64_t cap = RING_OPS / (pl->batch / (pl->run > 1 ? pl->run : 1)); /* work requests */

	if (nb > cap)
		nb = cap;
	return nb ? (uint32_t)nb : 1;
}

int gdr_bw_kv_init(struct gdr_bw_kv *k, const struct gdr_kv_place *pl, uint64_t block,
		   uint64_t loc_base, uint64_t rem_base, uint32_t nqp, uint32_t depth,
		   uint64_t iters)
{
	size_t ring;
	uint64_t *blk;

	memset(k, 0, sizeof(*k));
	k->block = block;
	k->sge = pl->run > 1 ? pl->run : 1;
	k->batch = pl->batch / k->sge;
	k->nb_ring = gdr_bw_kv_ring_batches(pl);
	k->slots = pl->slots;
	k->inflight = depth / k->batch;
	k->loc_base = loc_base;
	k->rem_base = rem_base;
	ring = (size_t)k->batch * k->nb_ring;
	k->cap = (size_t)(iters * nqp);
	k->slot = calloc(ring, sizeof(*k->slot));
	k->t_post = calloc((size_t)nqp * k->inflight, sizeof(*k->t_post));
	k->us = calloc(k->cap ? k->cap : 1, sizeof(*k->us));
	blk = calloc(pl->batch, sizeof(*blk));
	if (!k->slot || !k->t_post || !k->us || !k->inflight || !blk) {
		free(blk);
		gdr_bw_kv_free(k);
		gdr_err("out of memory for a ring of %zu blocks and %llu batch times", ring,
			(unsigned long long)k->cap);
		return -1;
	}
	for (uint32_t b = 0; b < k->nb_ring; b++) {
		if (gdr_kv_place_batch(pl, b, blk)) {
			free(blk);
			gdr_bw_kv_free(k);
			gdr_err("cannot place a batch of %u blocks in a pool of %llu", pl->batch,
				(unsigned long long)pl->slots);
			return -1;
		}
		for (uint32_t w = 0; w < k->batch; w++) /* a work request: its run's first slot */
			k->slot[(size_t)b * k->batch + w] = blk[(size_t)w * k->sge];
	}
	free(blk);
	return 0;
}

uint64_t gdr_bw_kv_local(uint64_t i, uint32_t sge, uint64_t nblocks)
{
	uint64_t nwr = nblocks / sge;

	return i % sge * nwr + i / sge;
}

void gdr_bw_kv_free(struct gdr_bw_kv *k)
{
	free(k->slot);
	free(k->t_post);
	free(k->us);
	k->slot = NULL;
	k->t_post = NULL;
	k->us = NULL;
}

void gdr_bw_kv_op(const struct gdr_bw_kv *k, uint32_t e, struct gdr_xop *op)
{
	uint64_t nblocks = (uint64_t)k->batch * k->nb_ring * k->sge;

	op->len = (uint32_t)(k->block * k->sge);
	op->loff = k->loc_base + gdr_bw_kv_local((uint64_t)e * k->sge, k->sge, nblocks) * k->block;
	op->roff = k->rem_base + k->slot[e] * k->block;
	if (k->sge > 1) { /* its blocks a ring's work requests apart locally, a run remotely */
		op->nsge = (uint16_t)k->sge;
		op->sge_stride = nblocks / k->sge * k->block;
		op->inline_ok = false;
	}
	op->rkey_set = k->nrkeys > 0;
	op->rkey = k->nrkeys ? k->rkeys[gdr_kv_region_of(k->slot[e], k->slots, k->nrkeys)] : 0;
}

void gdr_bw_kv_posted(struct gdr_bw_kv *k, uint32_t q, uint64_t now)
{
	uint32_t tail = (k->head[q] + k->used[q]) % k->inflight;

	k->t_post[(size_t)q * k->inflight + tail] = now;
	k->used[q]++;
}

void gdr_bw_kv_done(struct gdr_bw_kv *k, uint32_t q, uint64_t now)
{
	uint64_t t0;

	if (!k->used[q])
		return;
	t0 = k->t_post[(size_t)q * k->inflight + k->head[q]];
	k->head[q] = (k->head[q] + 1) % k->inflight;
	k->used[q]--;
	if (k->nus < k->cap)
		k->us[k->nus++] = (double)(now - t0) * 1e-3;
}

uint32_t gdr_bw_kv_seed(uint64_t size, uint64_t j)
{
	return (uint32_t)(size * 0x9E3779B1u + j * 2654435761u + 1);
}
