/* SPDX-License-Identifier: MIT */
/*
 * Buffer geometry of one size: the direct path's slots, and the staged
 * path's plan (wire units, copy runs, bounce ring). Pure arithmetic, shared
 * by staging (buffer sizes, the per-size state) and the engine (direct slots).
 */
#ifndef GDR_STAGING_PLAN_H
#define GDR_STAGING_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GDR_STAGE_CHUNK_DEFAULT (1ULL << 20)  /* knee of the H100 PCIe Gen5 copy curve */
#define GDR_STAGE_RING_CAP	(32ULL << 20) /* bounce ring bytes per direction, at most */
#define GDR_STAGE_RING_RUNS	16	      /* runs in the ring when they fit the cap */
#define GDR_STAGE_RING_MIN	4

/* What the staged plan depends on. */
struct gdr_stage_in {
	uint64_t size;			  /* message size */
	uint64_t chunk;			  /* --stage_chunk */
	uint32_t tx_depth, rx_depth, nqp; /* all >= 1; send: rx_depth >= 2 */
	bool send; /* every wire unit consumes a receive at its ring position */
	bool lat;  /* ping-pong: one message, copied per message */
};

/*
 * The NIC moves wire units out of the ring: whole messages when size <=
 * chunk, else pieces of `chunk` bytes (the last one shorter), so copy and
 * wire overlap within a message. The copier copies runs of `run` units
 * (whole messages up to a chunk; one piece for split messages). Run i is
 * units [i*run, (i+1)*run) and lives in ring slot i % ring_runs; its
 * units travel on QP i % nqp. The test memory's region holds data_msgs
 * messages (the ring's worth), so a run is contiguous in both.
 */
struct gdr_stage_plan {
	uint64_t size, chunk;
	uint64_t per_msg;   /* wire units per message */
	uint64_t stride;    /* ring bytes per unit: size, or chunk when split */
	uint64_t run;	    /* units per copy */
	uint64_t ring_runs; /* runs the ring holds */
	uint64_t window;    /* runs on the wire beyond the receiver's last credit */
	uint64_t data_msgs; /* messages in the test memory's region */
};

void gdr_stage_plan(struct gdr_stage_plan *p, const struct gdr_stage_in *in);

static inline uint64_t gdr_stage_units(const struct gdr_stage_plan *p)
{
	return p->run * p->ring_runs; /* units in the ring */
}

/* Bytes of the ring per direction and of the test memory's region. */
static inline uint64_t gdr_stage_ring_bytes(const struct gdr_stage_plan *p)
{
	return gdr_stage_units(p) * p->stride;
}

static inline uint64_t gdr_stage_data_bytes(const struct gdr_stage_plan *p)
{
	return p->data_msgs * p->size;
}

/* Length of wire unit j. */
static inline uint64_t gdr_stage_unit_len(const struct gdr_stage_plan *p, uint64_t j)
{
	uint64_t k = j % p->per_msg;

	return k + 1 < p->per_msg ? p->stride : p->size - k * p->stride;
}

/* Offsets of unit j in the ring and in the test memory's region. */
static inline uint64_t gdr_stage_ring_off(const struct gdr_stage_plan *p, uint64_t j)
{
	return j % gdr_stage_units(p) * p->stride;
}

static inline uint64_t gdr_stage_data_off(const struct gdr_stage_plan *p, uint64_t j)
{
	return j / p->per_msg % p->data_msgs * p->size + j % p->per_msg * p->stride;
}

/* Units of run i when the size moves `total` units; 0 past the end. */
static inline uint64_t gdr_stage_run_units(const struct gdr_stage_plan *p, uint64_t i,
					   uint64_t total)
{
	uint64_t first = i * p->run;

	if (first >= total)
		return 0;
	return total - first < p->run ? total - first : p->run;
}

/* Bytes copied for run i (its units are contiguous in ring and test memory). */
static inline uint64_t gdr_stage_run_bytes(const struct gdr_stage_plan *p, uint64_t i,
					   uint64_t total)
{
	uint64_t n = gdr_stage_run_units(p, i, total);

	return p->per_msg > 1 ? (n ? gdr_stage_unit_len(p, i) : 0) : n * p->size;
}

/* Direct path: message slots of one size in a region. */
size_t gdr_direct_slots(uint64_t size, uint32_t tx_depth, bool lat);

#endif
