/* SPDX-License-Identifier: MIT */
/* What a staged row and the header say: chunk, ring, lanes, and the copy/wire model. */
#include "config.h"
#include <stdio.h>
#include "staging.h"

void gdr_staging_row(const struct gdr_staging *s, struct gdr_result *r)
{
	r->stage_chunk = s->chunk;
	r->stage_ring = gdr_stage_ring_bytes(&s->plan);
	r->stage_streams = s->cp.lanes; /* latency: 1, bandwidth: GDR_COPIER_LANES */
	r->copy_blocks = s->blocks;
	if (s->copy_cell[0])
		snprintf(r->stage_copy, sizeof(r->stage_copy), "%s", s->copy_cell);
	else if (s->cp.ops)
		snprintf(r->stage_copy, sizeof(r->stage_copy), "%s", s->cp.ops->name);
}

void gdr_staging_model(struct gdr_result *r, uint32_t k, double copy_Bps)
{
	struct gdr_result *s = &r[k];
	/*
	 * The wire's rate: the host row's best repeat (one run: its figure). The
	 * model is a bound, so it takes the best the wire was seen to do; a
	 * single, or median, run of the reference could sit under the staged
	 * row's median by noise alone (issue 44.3: efficiency 1.36).
	 */
	double wire = r[0].repeats > 1 ? r[0].fig_max : r[0].bw_avg_Bps, eff;

	if (copy_Bps <= 0 || k == 0 || r[0].has_lat)
		return;
	s->copy_Bps = copy_Bps;
	if (s->copy_blocks && wire > 0) /* no overlap: a chunk's copy, then its transfer */
		s->model_Bps = 1 / (1 / copy_Bps + 1 / wire);
	else
		s->model_Bps = wire > 0 && wire < copy_Bps ? wire : copy_Bps;
	eff = s->model_Bps > 0 ? s->bw_avg_Bps / s->model_Bps : 0;
	/* at most 1 by definition: above it, a leg measured low; not shown, said (eff_over) */
	s->efficiency = eff <= 1 + 1e-9 ? eff : 0;
	s->eff_over = eff > 1 + 1e-9 ? eff : 0;
}

void gdr_staging_describe(const struct gdr_conn *c, char *buf, size_t n)
{
	const struct gdr_opts *o = c->o;
	bool host = gdr_copier_default(&c->data) == GDR_COPIER_MEMCPY;
	const char *how = host ? "memcpy (host memory)" : "the size's copier (Stage copy)";

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
		 GDR_STAGE_RING_RUNS, GDR_COPIER_LANES);
}
