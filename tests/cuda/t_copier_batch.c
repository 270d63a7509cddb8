/* SPDX-License-Identifier: MIT */
/*
 * The batch copier (copier_batch.c) on CUDA memory: t_copier_batch FORM, FORM
 * the cuMemcpyBatchAsync form the driver offers ("13.0", "12.8") or
 * "absent:M.m" for a driver of CUDA M.m without it. With the call: a single
 * copy each way (the copy engine's path) and a block list each way, gather and
 * scatter, every block checked byte for byte at its place, each list one lane
 * entry; t_copier_batch_double.sh counts the driver's batched calls (one per
 * list, in that form). Without it: open refuses in one line naming the driver
 * version. Host memory is refused too. Skips (77) where no driver loads.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "choice.h"
#include "copier.h"
#include "cuda_api.h"
#include "log.h"
#include "mem.h"

#include "../unit/check.h"
#include "pattern.h"

#define BLK   4099u /* no power of two: a shifted block shows */
#define SLOTS 16u
#define N     6u

static const uint64_t slot[N] = {7, 2, 15, 0, 11, 5}; /* out of order, both ends */

static int wait_one(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	int got = 0;

	for (int i = 0; i < 1000000 && !got; i++)
		got = gdr_copier_reap(cp, d);
	return got;
}

static void single(struct gdr_copier *cp, struct gdr_mem *m, uint8_t *host)
{
	/* d2h: slot 3 (seed 3) into the host; h2d: seed 50 into slot 9 */
	CHECK(gdr_mem_fill_pattern(m, 3 * BLK, BLK, 3) == 0);
	memset(host, 0, BLK);
	CHECK(gdr_copier_submit(cp, GDR_TO_HOST, 3 * BLK, host, BLK) == 0);
	CHECK(wait_one(cp, GDR_TO_HOST) == 1, "a single d2h copy reaped");
	CHECK(pattern_first_bad(host, BLK, 0, 3) == BLK, "single d2h: bytes");
	pattern_fill(host, BLK, 0, 50);
	CHECK(gdr_copier_submit(cp, GDR_FROM_HOST, 9 * BLK, host, BLK) == 0);
	CHECK(gdr_copier_drain(cp, GDR_FROM_HOST) == 0);
	memset(host, 0, BLK);
	CHECK(m->ops->to_host(m, host, 9 * BLK, BLK) == 0);
	CHECK(pattern_first_bad(host, BLK, 0, 50) == BLK, "single h2d: bytes");
}

static void lists(struct gdr_copier *cp, struct gdr_mem *m, uint8_t *host, uint8_t *buf)
{
	uint64_t off[N];

	for (uint32_t k = 0; k < N; k++)
		off[k] = slot[k] * BLK;
	for (uint32_t j = 0; j < SLOTS; j++)
		CHECK(gdr_mem_fill_pattern(m, j * BLK, BLK, j) == 0);
	memset(host, 0, N * BLK);
	CHECK(gdr_copier_submit_list(cp, GDR_TO_HOST, off, N, BLK, host) == 0);
	CHECK(gdr_copier_room(cp, GDR_TO_HOST) == 1, "a list is one lane entry");
	CHECK(wait_one(cp, GDR_TO_HOST) == 1, "the gather reaped as one copy");
	for (uint32_t k = 0; k < N; k++)
		CHECK(pattern_first_bad(host + k * BLK, BLK, 0, (uint32_t)slot[k]) == BLK,
		      "gather: host block %u does not hold slot %llu", k,
		      (unsigned long long)slot[k]);
	CHECK(gdr_mem_fill_byte(m, 0, SLOTS * BLK, 0) == 0);
	for (uint32_t k = 0; k < N; k++)
		pattern_fill(host + k * BLK, BLK, 0, 100 + k);
	CHECK(gdr_copier_submit_list(cp, GDR_FROM_HOST, off, N, BLK, host) == 0);
	CHECK(wait_one(cp, GDR_FROM_HOST) == 1, "the scatter reaped as one copy");
	CHECK(m->ops->to_host(m, buf, 0, SLOTS * BLK) == 0);
	for (uint32_t j = 0; j < SLOTS; j++) {
		int k = -1;

		for (uint32_t i = 0; i < N; i++)
			k = slot[i] == j ? (int)i : k;
		if (k >= 0) {
			CHECK(pattern_first_bad(buf + j * BLK, BLK, 0, 100 + (uint32_t)k) == BLK,
			      "scatter: slot %u does not hold host block %d", j, k);
			continue;
		}
		for (uint32_t i = 0; i < BLK; i++)
			if (buf[j * BLK + i]) {
				CHECK(0, "scatter: slot %u, where no block goes, was written", j);
				break;
			}
	}
	printf("  batch: single copies and a list of %u blocks of %u bytes each way\n", N, BLK);
}

int main(int argc, char **argv)
{
	struct gdr_mem h = {.ops = &gdr_mem_host_ops}, g = {0};
	struct gdr_mem_cfg mc = {.gpu = 0};
	const char *form = argc > 1 ? argv[1] : "13.0";
	const struct gdr_cuda_api *cu;
	uint8_t ring[N * BLK], *pinned, *buf = malloc(SLOTS * BLK);
	struct gdr_copier cp;
	char why[256] = "";
	int cand = 0;

	gdr_set_prog("t_copier_batch");
	CHECK(buf != NULL);
	CHECK(gdr_copier_takes_lists(GDR_COPIER_BATCH));
	for (int j = 0; j < GDR_STAGE_NCAND; j++)
		cand += gdr_stage_cand[j] == GDR_COPIER_BATCH;
	CHECK(cand == 1, "batch is in the GPU copiers' list once (auto skips it: choose.c probed())");
	CHECK(h.ops->alloc(&h, SLOTS * BLK) == 0);
	CHECK(gdr_copier_open(&cp, GDR_COPIER_BATCH, &h, ring, sizeof(ring), 2, 5000000000ull, why,
			      sizeof(why)) == -1 &&
		  strstr(why, "not CUDA GPU memory"),
	      "host memory refused: '%s'", why);
	h.ops->free(&h);
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		printf("skip: the batch copier: %s\n", why);
		free(buf);
		return failures ? CHECK_DONE() : 77;
	}
	CHECK(gdr_mem_cuda_init(&g, &mc, NULL) == 0 && g.ops->alloc(&g, SLOTS * BLK) == 0);
	pinned = g.ops->host_alloc(&g, N * BLK);
	CHECK(pinned != NULL && buf != NULL);
	if (pinned && buf) {
		int rc = gdr_copier_open(&cp, GDR_COPIER_BATCH, &g, pinned, N * BLK, 2,
					 5000000000ull, why, sizeof(why));

		if (!strncmp(form, "absent:", 7)) {
			char drv[64];

			snprintf(drv, sizeof(drv), "(CUDA %s)", form + 7);
			CHECK(rc == -1 && strstr(why, drv) && strstr(why, "cuMemcpyBatchAsync") &&
				  !strchr(why, '\n'),
			      "a driver without the call refused in one line naming %s: '%s'", drv,
			      why);
			printf("  batch refused: %s\n", why);
		} else {
			CHECK(rc == 0, "open: %s", why);
			if (rc == 0) {
				single(&cp, &g, pinned);
				lists(&cp, &g, pinned, buf);
				gdr_copier_close(&cp);
			}
		}
		g.ops->host_free(&g, pinned, N * BLK);
	}
	g.ops->free(&g);
	free(buf);
	return CHECK_DONE();
}
