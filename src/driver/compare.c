/* SPDX-License-Identifier: MIT */
/* --compare: the copy leg measured alone before each size, and what explains a staged row. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "compare.h"
#include "log.h"
#include "session.h"
#include "staged.h"
#include "stager.h"

#define WARMUP_S 0.002
#define BUDGET_S 0.010

/* Bytes per stager copy of a full run of this size (per message in latency tests). */
static uint64_t gdr_compare_chunk(const struct gdr_ctx *c, uint64_t size)
{
	struct gdr_stage_plan p;

	gdr_staged_plan(c, size, &p);
	return p.per_msg > 1 ? p.stride : p.run * size;
}

/* The copy directions this side times: a sender's device->host, a receiver's host->device. */
static unsigned int timed_dirs(const struct gdr_ctx *c)
{
	bool active = c->role.requester, passive = c->role.target;

	if (c->role.def->fetches) /* the requester's copy in; the target's is untimed */
		return active ? 1u << GDR_FROM_HOST : 0;
	return (active ? 1u << GDR_TO_HOST : 0) | (passive ? 1u << GDR_FROM_HOST : 0);
}

static double slower(double a, double b)
{
	if (a <= 0)
		return b;
	if (b <= 0)
		return a;
	return a < b ? a : b;
}

int gdr_compare_copy_rate(struct gdr_ctx *c, uint64_t size, double *Bps)
{
	struct gdr_stage_plan p;
	struct gdr_stager st;
	unsigned int dirs = timed_dirs(c);
	uint64_t chunk = gdr_compare_chunk(c, size), peer = 0;
	double mine = 0;

	gdr_staged_plan(c, size, &p);
	gdr_stager_init(&st, &c->data, 0);
	if (dirs) {
		size_t span = gdr_stage_ring_bytes(&p);

		if (gdr_stager_rate(&st, dirs, c->bounce.addr, chunk, span, c->region_len,
				    WARMUP_S) < 0)
			return -1;
		mine = gdr_stager_rate(&st, dirs, c->bounce.addr, chunk, span, c->region_len,
				       BUDGET_S);
		if (mine < 0)
			return -1;
	}
	if (c->is_server ? gdr_sync_send(c, GDR_STEP_COPY_RATE, (uint64_t)mine) ||
			       gdr_sync_expect(c, GDR_STEP_COPY_RATE, &peer)
			 : gdr_sync_expect(c, GDR_STEP_COPY_RATE, &peer) ||
			       gdr_sync_send(c, GDR_STEP_COPY_RATE, (uint64_t)mine))
		return -1;
	*Bps = slower(mine, (double)peer);
	return 0;
}

void gdr_compare_staged_plan(const struct gdr_ctx *c, uint64_t size, struct gdr_result *r)
{
	struct gdr_stage_plan p;

	gdr_staged_plan(c, size, &p);
	r->stage_chunk = gdr_compare_chunk(c, size);
	r->stage_ring = gdr_stage_ring_bytes(&p);
	r->stage_streams = c->o->kind == GDR_KIND_LAT ? 1 : GDR_STAGER_STREAMS;
}

void gdr_compare_staged_row(struct gdr_result *r, uint32_t k, double copy_Bps)
{
	struct gdr_result *s = &r[k];
	double wire = r[0].bw_avg_Bps;

	if (copy_Bps <= 0 || k == 0 || r[0].has_lat)
		return;
	s->copy_Bps = copy_Bps;
	s->model_Bps = wire > 0 && wire < copy_Bps ? wire : copy_Bps;
	s->efficiency = s->model_Bps > 0 ? s->bw_avg_Bps / s->model_Bps : 0;
}

void gdr_compare_describe(const struct gdr_ctx *c, char *buf, size_t n)
{
	const struct gdr_opts *o = c->o;
	bool host = !strcmp(c->data.ops->kind, "host");
	const char *how = host ? "memcpy (host memory)" : "CUDA asynchronous copies";

	if (o->kind == GDR_KIND_LAT) {
		snprintf(buf, n, "%s, one per message, synchronous (a ping-pong cannot batch)",
			 how);
		return;
	}
	snprintf(buf, n,
		 "%s in chunks of %llu bytes (runs of whole messages; larger messages split), "
		 "ring of up to %d runs per direction, %d copy streams per direction, pinned "
		 "bounce buffers",
		 how,
		 (unsigned long long)(o->stage_chunk ? o->stage_chunk : GDR_STAGE_CHUNK_DEFAULT),
		 GDR_STAGE_RING_RUNS, GDR_STAGER_STREAMS);
}
