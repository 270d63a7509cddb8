/* SPDX-License-Identifier: MIT */
/*
 * A copier's block list (copier.h, submit_list: a KV batch's gather and
 * scatter, docs/kv.md): n blocks at scattered test-memory offsets to and
 * from one contiguous host range, queued as ONE copy (one lane entry,
 * reaped as a unit). The memcpy copier on host memory, then the copy engine
 * copier and the sm copier (its kernel's block table) on CUDA memory, then
 * gdrcopy where it opens (said and skipped where not): the driver and
 * gdrcopy doubles in `make check`
 * (t_copier_list_double.sh), the real ones on a GPU host. Each block is
 * checked byte for byte at its place: a block at a wrong offset, a missing
 * one or one written where no block goes fails. Every copier takes lists;
 * sm's longest (GDR_COPIER_SM_LIST_MAX blocks) lands too, one block more is
 * refused in one line. Skips (77) the CUDA part where no driver loads.
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

#define BLK   4099u /* bytes a block: no power of two, so a shifted block shows */
#define SLOTS 16u
#define N     6u

/* A batch's slots: out of order, first and last slot included. */
static const uint64_t slot[N] = {7, 2, 15, 0, 11, 5};

/* The checks on copier kind; may_skip: a copier that does not open here is said and skipped. */
static void one_list(struct gdr_mem *m, enum gdr_copier_kind kind, uint8_t *host, bool may_skip)
{
	uint8_t *buf = malloc(SLOTS * BLK);
	uint64_t off[N];
	struct gdr_copier cp;
	char why[160] = "";
	int got = 0;

	CHECK(buf != NULL);
	if (!buf)
		return;
	for (uint32_t k = 0; k < N; k++)
		off[k] = slot[k] * BLK;
	if (gdr_copier_open(&cp, kind, m, host, N * BLK, 2, 5000000000ull, why, sizeof(why))) {
		CHECK(may_skip, "open: %s", why);
		printf("  skip %s: %s\n", gdr_stage_copy_name(kind), why);
		free(buf);
		return;
	}
	/* gather: slot j holds the pattern of seed j; host block k must get slot[k]'s */
	for (uint32_t j = 0; j < SLOTS; j++)
		CHECK(gdr_mem_fill_pattern(m, j * BLK, BLK, j) == 0);
	memset(host, 0, N * BLK);
	CHECK(gdr_copier_room(&cp, GDR_TO_HOST) == 2);
	CHECK(gdr_copier_submit_list(&cp, GDR_TO_HOST, off, N, BLK, host) == 0);
	CHECK(gdr_copier_room(&cp, GDR_TO_HOST) == 1, "a list is one lane entry");
	CHECK(gdr_copier_drain(&cp, GDR_TO_HOST) == 0);
	CHECK(cp.done[GDR_TO_HOST] == 1 && gdr_copier_reap(&cp, GDR_TO_HOST) == 0);
	for (uint32_t k = 0; k < N; k++)
		CHECK(pattern_first_bad(host + k * BLK, BLK, 0, (uint32_t)slot[k]) == BLK,
		      "gather: host block %u does not hold slot %llu", k,
		      (unsigned long long)slot[k]);
	/* scatter: host block k (seed 100 + k) lands in slot[k]; every other slot stays zero */
	CHECK(gdr_mem_fill_byte(m, 0, SLOTS * BLK, 0) == 0);
	for (uint32_t k = 0; k < N; k++)
		pattern_fill(host + k * BLK, BLK, 0, 100 + k);
	CHECK(gdr_copier_submit_list(&cp, GDR_FROM_HOST, off, N, BLK, host) == 0);
	for (int i = 0; i < 1000000 && !got; i++)
		got = gdr_copier_reap(&cp, GDR_FROM_HOST);
	CHECK(got == 1, "the list reaped as one copy (got %d)", got);
	CHECK(m->ops->to_host(m, buf, 0, SLOTS * BLK) == 0);
	for (uint32_t j = 0; j < SLOTS; j++) {
		int k = -1;

		for (uint32_t i = 0; i < N; i++)
			if (slot[i] == j)
				k = (int)i;
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
	printf("  %s: a list of %u blocks of %u bytes gathered and scattered at its offsets\n",
	       cp.ops ? cp.ops->name : "?", N, BLK);
	gdr_copier_close(&cp);
	free(buf);
}

/*
 * The sm copier's longest list, GDR_COPIER_SM_LIST_MAX blocks of LBLK bytes
 * gathered in reverse order (block k from slot max-1-k) and scattered back
 * one slot further; one block more is refused (-1) and queues nothing.
 */
#define LBLK 48u
static void sm_longest(void)
{
	const uint32_t max = GDR_COPIER_SM_LIST_MAX;
	struct gdr_mem g = {0};
	struct gdr_mem_cfg mc = {.gpu = 0};
	struct gdr_copier cp;
	uint64_t *off = calloc(max + 1, sizeof(*off));
	uint8_t *pinned = NULL, *buf = malloc((max + 1) * LBLK);
	char why[160] = "";
	int got = 0;

	CHECK(off && buf && gdr_mem_cuda_init(&g, &mc, NULL) == 0 &&
	      g.ops->alloc(&g, (max + 1) * LBLK) == 0);
	if (g.ops)
		pinned = g.ops->host_alloc(&g, (max + 1) * LBLK);
	CHECK(pinned != NULL);
	if (!pinned || !off || !buf ||
	    gdr_copier_open(&cp, GDR_COPIER_SM, &g, pinned, (max + 1) * LBLK, 1, 5000000000ull, why,
			    sizeof(why))) {
		CHECK(0, "sm open: %s", why);
		goto out;
	}
	for (uint32_t j = 0; j < max + 1; j++)
		CHECK(gdr_mem_fill_pattern(&g, j * LBLK, LBLK, j) == 0);
	for (uint32_t k = 0; k < max + 1; k++)
		off[k] = (uint64_t)(max - 1 - k % max) * LBLK;
	CHECK(gdr_copier_submit_list(&cp, GDR_TO_HOST, off, max + 1, LBLK, pinned) == -1,
	      "a list of %u blocks refused", max + 1);
	CHECK(cp.submitted[GDR_TO_HOST] == 0, "the refused list queued nothing");
	CHECK(gdr_copier_submit_list(&cp, GDR_TO_HOST, off, max, LBLK, pinned) == 0);
	CHECK(gdr_copier_drain(&cp, GDR_TO_HOST) == 0);
	for (uint32_t k = 0; k < max; k++)
		if (pattern_first_bad(pinned + k * LBLK, LBLK, 0, max - 1 - k) != LBLK) {
			CHECK(0, "longest gather: host block %u does not hold slot %u", k,
			      max - 1 - k);
			break;
		}
	for (uint32_t k = 0; k < max; k++)
		off[k] = (uint64_t)(max - k) * LBLK; /* block k to slot max-k */
	CHECK(gdr_mem_fill_byte(&g, 0, (max + 1) * LBLK, 0) == 0);
	CHECK(gdr_copier_submit_list(&cp, GDR_FROM_HOST, off, max, LBLK, pinned) == 0);
	for (int i = 0; i < 1000000 && !got; i++)
		got = gdr_copier_reap(&cp, GDR_FROM_HOST);
	CHECK(got == 1, "the longest list reaped as one copy (got %d)", got);
	CHECK(g.ops->to_host(&g, buf, 0, (max + 1) * LBLK) == 0);
	for (uint32_t i = 0; i < LBLK; i++)
		if (buf[i]) {
			CHECK(0, "longest scatter: slot 0, where no block goes, was written");
			break;
		}
	for (uint32_t j = 1; j < max + 1; j++)
		if (pattern_first_bad(buf + j * LBLK, LBLK, 0, j - 1) != LBLK) {
			CHECK(0, "longest scatter: slot %u does not hold slot %u's pattern", j,
			      j - 1);
			break;
		}
	printf("  sm: a list of %u blocks of %u bytes gathered and scattered; %u refused\n", max,
	       LBLK, max + 1);
	gdr_copier_close(&cp);
out:
	if (pinned)
		g.ops->host_free(&g, pinned, (max + 1) * LBLK);
	if (g.ops)
		g.ops->free(&g);
	free(off);
	free(buf);
}

int main(void)
{
	struct gdr_mem h = {.ops = &gdr_mem_host_ops}, g = {0};
	struct gdr_mem_cfg mc = {.gpu = 0};
	const struct gdr_cuda_api *cu;
	uint8_t ring[N * BLK], *pinned;
	char why[256];

	gdr_set_prog("t_copier_list");
	CHECK(gdr_copier_takes_lists(GDR_COPIER_CE) && gdr_copier_takes_lists(GDR_COPIER_MEMCPY));
	CHECK(gdr_copier_takes_lists(GDR_COPIER_SM), "sm: its kernel's block table");
	CHECK(!gdr_copier_takes_lists(GDR_COPIER_AUTO));
	CHECK(h.ops->alloc(&h, SLOTS * BLK) == 0);
	one_list(&h, GDR_COPIER_MEMCPY, ring, false);
	h.ops->free(&h);
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		printf("skip: the copy engine's lists: %s\n", why);
		return failures ? CHECK_DONE() : 77;
	}
	CHECK(gdr_mem_cuda_init(&g, &mc, NULL) == 0 && g.ops->alloc(&g, SLOTS * BLK) == 0);
	pinned = g.ops->host_alloc(&g, N * BLK);
	CHECK(pinned != NULL);
	if (pinned) {
		one_list(&g, GDR_COPIER_CE, pinned, false);
		one_list(&g, GDR_COPIER_SM, pinned, false);
		/* gdrcopy: where libgdrapi.so.2 and gdrdrv are (the double in make check) */
		one_list(&g, GDR_COPIER_GDRCOPY, pinned, true);
		g.ops->host_free(&g, pinned, N * BLK);
	}
	g.ops->free(&g);
	sm_longest();
	return CHECK_DONE();
}
