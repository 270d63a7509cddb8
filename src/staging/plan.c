/* SPDX-License-Identifier: MIT */
/* Buffer geometry of one size: direct slots and the staged plan (see plan.h). */
#include "plan.h"

/*
 * Direct slots: up to tx depth, within 8 MiB (a small working set, as the
 * NIC needs no more), but at least 8.
 */
#define REGION_CAP (8ULL << 20)
#define MIN_SLOTS  8

size_t gdr_direct_slots(uint64_t size, uint32_t tx_depth, bool lat)
{
	uint64_t n;

	if (lat)
		return 1;
	n = REGION_CAP / size;
	if (n < MIN_SLOTS)
		n = MIN_SLOTS;
	if (n > tx_depth)
		n = tx_depth;
	return n ? (size_t)n : 1;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

void gdr_stage_plan(struct gdr_stage_plan *p, const struct gdr_stage_in *in)
{
	uint64_t chunk = in->chunk ? in->chunk : GDR_STAGE_CHUNK_DEFAULT, runs, per_qp;

	p->size = in->size;
	p->chunk = chunk;
	if (in->lat || in->size <= chunk) {
		p->per_msg = 1;
		p->stride = in->size;
		p->run = in->lat ? 1 : chunk / in->size;
	} else {
		p->per_msg = (in->size + chunk - 1) / chunk;
		p->stride = chunk;
		p->run = 1;
	}
	/* A run's work requests are posted at once: they fit the send queue. */
	p->run = min64(p->run, in->tx_depth ? in->tx_depth : 1);
	runs = GDR_STAGE_RING_CAP / (p->run * p->stride);
	runs = runs > GDR_STAGE_RING_RUNS ? GDR_STAGE_RING_RUNS : runs;
	runs = runs < GDR_STAGE_RING_MIN ? GDR_STAGE_RING_MIN : runs;
	if (in->lat)
		runs = 1;
	/* Each run on the wire needs a receive (a completion) on its QP. */
	p->window = min64(runs, (uint64_t)in->rx_depth * in->nqp);
	if (in->send) {
		/*
		 * send: every unit of the window's runs on a QP has a receive posted,
		 * plus one run more while a short last run's receives wait for the flush
		 */
		if (in->rx_depth > 1)
			p->window = min64(p->window, (uint64_t)(in->rx_depth - 1) * in->nqp);
		per_qp = (p->window + in->nqp - 1) / in->nqp + 1;
		p->run = min64(p->run, in->rx_depth / per_qp ? in->rx_depth / per_qp : 1);
	}
	/* The ring holds whole messages: its slots map onto whole messages of test memory. */
	if (p->per_msg > 1)
		runs = (runs + p->per_msg - 1) / p->per_msg * p->per_msg;
	p->ring_runs = runs;
	p->data_msgs = p->run * p->ring_runs / p->per_msg;
}
