/* SPDX-License-Identifier: MIT */
/* The verb descriptors (verb.h) and their posting functions: a row per verb. */
#include "config.h"
#include "atomic.h"
#include "verb.h"

static void write_bw_op(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
			struct gdr_xop *op)
{
	(void)q;
	(void)slot;
	op->kind = GDR_XOP_WRITE;
	op->roff = s->rrx_off + off;
}

/* Each write consumes one of the target's receives; the last one's data says LAST. */
static void write_imm_bw_op(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
			    struct gdr_xop *op)
{
	write_bw_op(s, q, slot, off, op);
	op->kind = GDR_XOP_WRITE_DATA;
	op->data = GDR_IMM_DATA;
}

static void read_bw_op(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
		       struct gdr_xop *op)
{
	(void)q;
	(void)slot;
	op->kind = GDR_XOP_READ;
	op->roff = s->rtx_off + off;
}

/* A send (the transport addresses it to the peer's QP q, -c UD too); the last one gains data. */
static void send_bw_op(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
		       struct gdr_xop *op)
{
	(void)s;
	(void)q;
	(void)slot;
	(void)off;
	op->kind = GDR_XOP_SEND;
}

/* This QP's slot's own counter (atomic.h), or the one counter (contention). */
static void atomic_bw_op(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
			 struct gdr_xop *op)
{
	(void)off;
	gdr_atomic_op(s->c->o, op, s->rtx_off + gdr_atomic_offset(s->c->o, q, slot));
}

/*
 * Write latency: a plain write when the peer polls the last byte, else with
 * data (write_imm never polls: gdr_lat_polls_byte).
 */
static void write_lat_op(struct gdr_lat *l)
{
	l->op.kind = l->poll_byte ? GDR_XOP_WRITE : GDR_XOP_WRITE_DATA;
	l->op.roff = l->p->remote.len / 2; /* the peer's rx region */
}

static void read_lat_op(struct gdr_lat *l)
{
	l->op.kind = GDR_XOP_READ;
	l->op.roff = 0; /* the peer's tx region */
}

static void send_lat_op(struct gdr_lat *l)
{
	l->op.kind = GDR_XOP_SEND;
}

static void atomic_lat_op(struct gdr_lat *l)
{
	gdr_atomic_op(l->c->o, &l->op, 0); /* one operation at a time: one counter */
}

/* A 64-byte line per counter (atomic.h). */
static size_t atomic_region(const struct gdr_opts *o)
{
	return gdr_atomic_ncounters(o) * GDR_ATOMIC_STRIDE;
}

/* One row per verb, a field per line. */
/* clang-format off */
const struct gdr_verb_ops gdr_verb_ops[GDR_NVERBS] = {
    [GDR_VERB_WRITE] = {
	.def = &gdr_verb_defs[GDR_VERB_WRITE],
	.bw_op = write_bw_op,
	.lat_op = write_lat_op,
    },
    [GDR_VERB_READ] = {
	.def = &gdr_verb_defs[GDR_VERB_READ],
	.bw_op = read_bw_op,
	.lat_op = read_lat_op,
    },
    [GDR_VERB_SEND] = {
	.def = &gdr_verb_defs[GDR_VERB_SEND],
	.bw_op = send_bw_op,
	.lat_op = send_lat_op,
    },
    [GDR_VERB_ATOMIC] = {
	.def = &gdr_verb_defs[GDR_VERB_ATOMIC],
	.bw_op = atomic_bw_op,
	.lat_op = atomic_lat_op,
	.target_zero = gdr_atomic_zero,
	.target_check = gdr_atomic_check,
	.region_min = atomic_region,
    },
    [GDR_VERB_WRITE_IMM] = {
	.def = &gdr_verb_defs[GDR_VERB_WRITE_IMM],
	.bw_op = write_imm_bw_op,
	.lat_op = write_lat_op,
    },
};
/* clang-format on */

const struct gdr_verb_ops *gdr_verb_ops_of(enum gdr_verb v)
{
	return (unsigned)v < GDR_NVERBS ? &gdr_verb_ops[v] : NULL;
}
