/* SPDX-License-Identifier: MIT */
/*
 * The verb descriptor: one row per verb (verb.c) with the verb's data row
 * (options/verb_def.h: title, defaults, connections, who fetches, access,
 * latency method, what the tests refuse) and its posting functions. The
 * loops (bw_ring.c, lat.c) build their work requests through it, the size
 * functions validate through it, the driver sizes buffers through it.
 * Adding a verb: an enum gdr_verb value, its row in options/verb_def.c, its
 * row and posting functions in verb.c.
 */
#ifndef GDR_VERB_H
#define GDR_VERB_H

#include <stddef.h>
#include <stdint.h>
#include "bw.h"
#include "lat.h"
#include "session.h"
#include "verb_def.h"

struct gdr_verb_ops {
	const struct gdr_verb_def *def; /* the data row */
	/*
	 * Bandwidth: the requester's operation (xport.h) for QP q, ring slot
	 * `slot` at byte offset off of the regions: its kind, remote offset and
	 * data; the caller has set the length, the local offset and inline_ok.
	 */
	void (*bw_op)(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
		      struct gdr_xop *op);
	/* Latency: the one operation of a size (l->op), the same way (data: GDR_IMM_DATA). */
	void (*lat_op)(struct gdr_lat *l);
	/*
	 * --validate when the verb checks the target's own state instead of the
	 * payload (atomic: the counters): the target zeroes it before a size
	 * (target_zero) and checks it against the run (target_check, whose arg
	 * is a struct gdr_atomic_run). NULL: the payload is checked.
	 */
	int (*target_zero)(struct gdr_conn *c, const struct gdr_path *p);
	gdr_check_fn target_check;
	/* Bytes of test memory the verb needs beyond the messages (0: none). */
	size_t (*region_min)(const struct gdr_opts *o);
};

extern const struct gdr_verb_ops gdr_verb_ops[GDR_NVERBS];

/* The descriptor of verb v (NULL for a value that is no verb). */
const struct gdr_verb_ops *gdr_verb_ops_of(enum gdr_verb v);

#endif
