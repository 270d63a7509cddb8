/* SPDX-License-Identifier: MIT */
/* The verb descriptors (verb.h) and their posting functions: a row per verb. */
#include "config.h"
#include <arpa/inet.h>
#include "atomic.h"
#include "verb.h"
#include "verbs.h"

static void write_bw_wr(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
			struct ibv_send_wr *wr)
{
	(void)q;
	(void)slot;
	wr->opcode = IBV_WR_RDMA_WRITE;
	wr->wr.rdma.remote_addr = s->remote_rx + off;
	wr->wr.rdma.rkey = s->rkey;
}

/* Each write consumes one of the target's receives; the last one's immediate says LAST. */
static void write_imm_bw_wr(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
			    struct ibv_send_wr *wr)
{
	write_bw_wr(s, q, slot, off, wr);
	wr->opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr->imm_data = htonl(GDR_IMM_DATA);
}

static void read_bw_wr(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
		       struct ibv_send_wr *wr)
{
	(void)q;
	(void)slot;
	wr->opcode = IBV_WR_RDMA_READ;
	wr->wr.rdma.remote_addr = s->remote_tx + off;
	wr->wr.rdma.rkey = s->rkey;
}

static void send_bw_wr(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
		       struct ibv_send_wr *wr)
{
	(void)slot;
	(void)off;
	wr->opcode = IBV_WR_SEND;
	wr->imm_data = htonl(GDR_IMM_LAST); /* used once the opcode says so (the last post) */
	gdr_wr_ud(s->c, s->p, q, wr);
}

/* This QP's slot's own counter (atomic.h), or the one counter (contention). */
static void atomic_bw_wr(const struct gdr_bw_state *s, uint32_t q, size_t slot, uint64_t off,
			 struct ibv_send_wr *wr)
{
	(void)off;
	gdr_wr_atomic(s->c, s->p, wr, gdr_atomic_offset(s->c->o, q, slot));
}

/*
 * Write latency: a plain write when the peer polls the last byte, else with
 * an immediate (write_imm never polls: gdr_lat_polls_byte).
 */
static void write_lat_wr(struct gdr_lat *l)
{
	l->wr.opcode = l->poll_byte ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_WRITE_WITH_IMM;
	l->wr.wr.rdma.remote_addr = gdr_remote_rx(l->p);
	l->wr.wr.rdma.rkey = (uint32_t)l->p->remote.key;
}

static void read_lat_wr(struct gdr_lat *l)
{
	l->wr.opcode = IBV_WR_RDMA_READ;
	l->wr.wr.rdma.remote_addr = gdr_remote_tx(l->p);
	l->wr.wr.rdma.rkey = (uint32_t)l->p->remote.key;
}

static void send_lat_wr(struct gdr_lat *l)
{
	l->wr.opcode = IBV_WR_SEND;
	gdr_wr_ud(l->c, l->p, 0, &l->wr);
}

static void atomic_lat_wr(struct gdr_lat *l)
{
	gdr_wr_atomic(l->c, l->p, &l->wr, 0); /* one operation at a time: one counter */
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
	.bw_wr = write_bw_wr,
	.lat_wr = write_lat_wr,
    },
    [GDR_VERB_READ] = {
	.def = &gdr_verb_defs[GDR_VERB_READ],
	.bw_wr = read_bw_wr,
	.lat_wr = read_lat_wr,
    },
    [GDR_VERB_SEND] = {
	.def = &gdr_verb_defs[GDR_VERB_SEND],
	.bw_wr = send_bw_wr,
	.lat_wr = send_lat_wr,
    },
    [GDR_VERB_ATOMIC] = {
	.def = &gdr_verb_defs[GDR_VERB_ATOMIC],
	.bw_wr = atomic_bw_wr,
	.lat_wr = atomic_lat_wr,
	.target_zero = gdr_atomic_zero,
	.target_check = gdr_atomic_check,
	.region_min = atomic_region,
    },
    [GDR_VERB_WRITE_IMM] = {
	.def = &gdr_verb_defs[GDR_VERB_WRITE_IMM],
	.bw_wr = write_imm_bw_wr,
	.lat_wr = write_lat_wr,
    },
};
/* clang-format on */

const struct gdr_verb_ops *gdr_verb_ops_of(enum gdr_verb v)
{
	return (unsigned)v < GDR_NVERBS ? &gdr_verb_ops[v] : NULL;
}
