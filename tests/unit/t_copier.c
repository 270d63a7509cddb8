/* SPDX-License-Identifier: MIT */
/*
 * The copier interface (src/staging/copier.h) without a GPU: the registry
 * (built-in copiers found by name and kind, others NULL), the memcpy copier
 * moving bytes both ways, the copy engine copier on a fake backend (which
 * stream each copy goes to, completions reaped in submission order and only
 * up to the first busy stream, a drain that synchronises the streams), and
 * the bounded drain of a copier that never completes.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "copier.h"
#include "staging.h"

/* ---- a fake backend: records streams, streams idle when `idle` says ---- */
static int streams_used[64], nused, idle[GDR_MEM_STREAMS], synced[GDR_MEM_STREAMS];

static int fake_copy_async(struct gdr_mem *m, enum gdr_copy_dir dir, size_t off, void *host,
			   size_t len, int s)
{
	(void)m, (void)dir, (void)off, (void)host, (void)len;
	streams_used[nused++] = s;
	idle[s] = 0;
	return 0;
}

static int fake_poll(struct gdr_mem *m, int s)
{
	(void)m;
	return idle[s];
}

static int fake_sync(struct gdr_mem *m, int s)
{
	(void)m;
	synced[s]++;
	idle[s] = 1;
	return 0;
}

static const struct gdr_mem_ops fake_ops = {
    .kind = "rocm", /* a backend the copiers know only by its answers */
    .device = true,
    .copy_async = fake_copy_async,
    .poll = fake_poll,
    .sync = fake_sync};

static void registry(void)
{
	struct gdr_mem host = {.ops = &gdr_mem_host_ops}, gpu = {.ops = &fake_ops};
	struct gdr_copier cp;
	char why[80] = "";

	CHECK(gdr_copier_find("ce") && gdr_copier_find("ce")->kind == GDR_COPIER_CE);
	CHECK(gdr_copier_find("memcpy") && gdr_copier_find("memcpy")->kind == GDR_COPIER_MEMCPY);
	CHECK(gdr_copier_of(GDR_COPIER_CE) == gdr_copier_find("ce"));
	/* gdrcopy and sm: NULL until their copier is built in, then themselves */
	CHECK(!gdr_copier_find("gdrcopy") || !strcmp(gdr_copier_find("gdrcopy")->name, "gdrcopy"));
	CHECK(!gdr_copier_find("sm") || gdr_copier_find("sm")->kind == GDR_COPIER_SM);
	CHECK(!gdr_copier_find("nope") && !gdr_copier_find(NULL) &&
	      !gdr_copier_of(GDR_COPIER_AUTO));
	CHECK(gdr_copier_default(&host) == GDR_COPIER_MEMCPY);
	CHECK(gdr_copier_default(&gpu) == GDR_COPIER_CE);
	CHECK(gdr_copier_open(&cp, (enum gdr_copier_kind)99, &host, NULL, 0, 1, 0, why,
			      sizeof(why)) == -1 &&
		  strstr(why, "not built in"),
	      "why: '%s'", why);
	gdr_copier_close(&cp); /* harmless on one that did not open */
}

static void memcpy_copier(void)
{
	struct gdr_mem m = {.ops = &gdr_mem_host_ops};
	uint8_t ring[256], *mem;
	struct gdr_copier cp;
	char why[80];

	CHECK(m.ops->alloc(&m, sizeof(ring)) == 0);
	mem = m.addr;
	for (int i = 0; i < 256; i++)
		mem[i] = (uint8_t)i;
	memset(ring, 0, sizeof(ring));
	CHECK(gdr_copier_open(&cp, GDR_COPIER_AUTO, &m, ring, sizeof(ring), 2, 1000000, why,
			      sizeof(why)) == 0 &&
	      !strcmp(cp.ops->name, "memcpy") && cp.lanes == 2);
	CHECK(gdr_copier_room(&cp, GDR_TO_HOST) == 2);
	CHECK(gdr_copier_submit(&cp, GDR_TO_HOST, 16, ring, 100) == 0);
	CHECK(gdr_copier_room(&cp, GDR_TO_HOST) == 1 && gdr_copier_room(&cp, GDR_FROM_HOST) == 2);
	CHECK(ring[0] == 16 && ring[99] == 115 && ring[100] == 0, "to host: bytes");
	CHECK(gdr_copier_reap(&cp, GDR_TO_HOST) == 1 && gdr_copier_reap(&cp, GDR_TO_HOST) == 0);
	CHECK(gdr_copier_submit(&cp, GDR_FROM_HOST, 200, ring, 50) == 0 &&
	      gdr_copier_drain(&cp, GDR_FROM_HOST) == 0);
	CHECK(mem[200] == 16 && mem[249] == 65 && mem[250] == 250, "from host: bytes");
	CHECK(cp.done[GDR_FROM_HOST] == 1 && gdr_copier_room(&cp, GDR_FROM_HOST) == 2);
	gdr_copier_close(&cp);
	m.ops->free(&m);
}

static void ce_copier(void)
{
	struct gdr_mem m = {.ops = &fake_ops};
	uint8_t ring[64];
	struct gdr_copier cp;
	char why[80];

	CHECK(gdr_copier_open(&cp, GDR_COPIER_AUTO, &m, ring, sizeof(ring), 0, 1000000, why,
			      sizeof(why)) == 0 &&
		  !strcmp(cp.ops->name, "ce") && cp.lanes == GDR_COPIER_LANES,
	      "lanes 0: the most");
	gdr_copier_close(&cp);
	CHECK(gdr_copier_open(&cp, GDR_COPIER_CE, &m, ring, sizeof(ring), 2, 1000000, why,
			      sizeof(why)) == 0);
	/* device->host on streams 0,1,0,...; host->device on 2,3 */
	CHECK(gdr_copier_submit(&cp, GDR_TO_HOST, 0, ring, 8) == 0 &&
	      gdr_copier_submit(&cp, GDR_TO_HOST, 8, ring + 8, 8) == 0 &&
	      gdr_copier_room(&cp, GDR_TO_HOST) == 0);
	CHECK(gdr_copier_submit(&cp, GDR_FROM_HOST, 0, ring, 8) == 0);
	CHECK(nused == 3 && streams_used[0] == 0 && streams_used[1] == 1 && streams_used[2] == 2,
	      "streams %d %d %d", streams_used[0], streams_used[1], streams_used[2]);
	/* the second copy done first: nothing reaped until the first is */
	idle[1] = 1;
	CHECK(gdr_copier_reap(&cp, GDR_TO_HOST) == 0);
	idle[0] = 1;
	CHECK(gdr_copier_reap(&cp, GDR_TO_HOST) == 2 && gdr_copier_room(&cp, GDR_TO_HOST) == 2);
	CHECK(gdr_copier_submit(&cp, GDR_TO_HOST, 0, ring, 8) == 0 && streams_used[3] == 0);
	/* drain: the streams synchronised, in order */
	CHECK(gdr_copier_drain(&cp, GDR_TO_HOST) == 0 && synced[0] == 1 &&
	      cp.done[GDR_TO_HOST] == cp.submitted[GDR_TO_HOST]);
	CHECK(gdr_copier_drain(&cp, GDR_FROM_HOST) == 0 && synced[2] == 1);
	gdr_copier_close(&cp);
}

/* ---- a copier that never completes: the generic drain gives up ---- */
static int stuck_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host,
			size_t len)
{
	(void)cp, (void)d, (void)off, (void)host, (void)len;
	return 0;
}

static int stuck_reap(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	(void)cp, (void)d;
	return 0;
}

static void bounded_drain(void)
{
	static const struct gdr_copier_ops stuck = {
	    .name = "stuck", .submit = stuck_submit, .reap = stuck_reap};
	struct gdr_copier cp = {.ops = &stuck, .lanes = 1, .timeout_ns = 20000000};

	CHECK(gdr_copier_submit(&cp, GDR_TO_HOST, 0, NULL, 0) == 0);
	CHECK(gdr_copier_drain(&cp, GDR_TO_HOST) == -1, "a stuck copy must time out");
	CHECK(gdr_copier_drain(&cp, GDR_FROM_HOST) == 0, "nothing pending that way");
}

/*
 * A staged row's model: min(copy, wire) for copiers that run beside the loop; a copier
 * that blocks the loop's thread (gdrcopy) takes turns with the wire: 1/(1/copy + 1/wire).
 */
static void model(void)
{
	struct gdr_result r[2] = {{.path = "host", .bw_avg_Bps = 10e9},
				  {.path = "staged", .bw_avg_Bps = 4e9}};

	CHECK(gdr_copier_blocks(GDR_COPIER_GDRCOPY) && !gdr_copier_blocks(GDR_COPIER_CE) &&
	      !gdr_copier_blocks(GDR_COPIER_SM) && !gdr_copier_blocks(GDR_COPIER_MEMCPY));
	gdr_staging_model(r, 1, 15e9);
	CHECK(r[1].model_Bps == 10e9 && r[1].efficiency == 0.4, "overlapping: %g", r[1].model_Bps);
	r[1].copy_blocks = true;
	gdr_staging_model(r, 1, 15e9);
	CHECK(r[1].model_Bps == 6e9, "blocking: 1/(1/15 + 1/10) = 6 GB/s, got %g", r[1].model_Bps);
	CHECK(r[1].efficiency > 0.666 && r[1].efficiency < 0.667, "%g", r[1].efficiency);

	/*
	 * Issue 44.3: a staged median above the host row's median by noise. With
	 * repeats the wire is the host row's best repeat, so efficiency stays <= 1;
	 * a staged row above even that is not given an efficiency but eff_over.
	 */
	struct gdr_result rep[2] = {{.path = "host", .bw_avg_Bps = 7e9, .repeats = 3,
				     .fig_min = 5e9, .fig_max = 11e9},
				    {.path = "staged", .bw_avg_Bps = 9.5e9, .repeats = 3}};

	gdr_staging_model(rep, 1, 20e9);
	CHECK(rep[1].model_Bps == 11e9 && rep[1].efficiency > 0.86 && rep[1].efficiency < 0.87 &&
		  rep[1].eff_over == 0,
	      "model from the host row's best repeat: %g, efficiency %g", rep[1].model_Bps,
	      rep[1].efficiency);
	rep[1].bw_avg_Bps = 12e9; /* above every repeat of the wire's reference */
	gdr_staging_model(rep, 1, 20e9);
	CHECK(rep[1].efficiency == 0 && rep[1].eff_over > 1.09 && rep[1].eff_over < 1.10,
	      "an efficiency above 1 is not kept: %g, said as %g", rep[1].efficiency,
	      rep[1].eff_over);
	rep[0].repeats = 1; /* one run: the host row's own figure, as before */
	rep[1].bw_avg_Bps = 6e9;
	gdr_staging_model(rep, 1, 20e9);
	CHECK(rep[1].model_Bps == 7e9 && rep[1].eff_over == 0, "one run: %g", rep[1].model_Bps);
}

int main(void)
{
	registry();
	memcpy_copier();
	ce_copier();
	bounded_drain();
	model();
	return failures ? 1 : 0;
}
