/* SPDX-License-Identifier: MIT */
/* The verbs' rows (verb_def.h): one per verb, everything below the engine needs of it. */
#include <stddef.h>
#include "opts_table.h"
#include "verb_def.h"

#define RC (1u << GDR_CONN_RC)
#define UC (1u << GDR_CONN_UC)
#define UD (1u << GDR_CONN_UD)

/* The atomic tests: 8-byte operations, one way, on RC's direct path. */
static const char *atomic_refusal(const struct gdr_opts *o)
{
	if (o->conn != GDR_CONN_RC)
		return "atomic operations need RC (-c RC)";
	if (o->bidir)
		return "atomics run one way (no -b)";
	if (o->all_sizes || o->sizes_set)
		return "atomic operations are 8 bytes (no -a/--sizes)";
	if (o->size != GDR_ATOMIC_BYTES)
		return "atomic operations are 8 bytes (-s 8)";
	if (o->validate && o->duration > 0)
		return "--validate counts the operations of an iteration run (not with -D)";
	return NULL;
}

/* clang-format off */
/* -s, -n, -t, --warmup of a bandwidth and of a latency test (most verbs). */
#define BW_DEFAULTS(iters) {NULL, "65536", iters, "128", "0"}
#define LAT_DEFAULTS {NULL, "2", "1000", "1", "100"}

/* One row per verb, a field per line. */
const struct gdr_verb_def gdr_verb_defs[GDR_NVERBS] = {
    [GDR_VERB_WRITE] = {
	.verb = GDR_VERB_WRITE,
	.name = "write",
	.title = {"RDMA write bandwidth", "RDMA write latency"},
	.tests = {GDR_T_WRITE_BW, GDR_T_WRITE_LAT},
	.defaults = {BW_DEFAULTS("5000"), LAT_DEFAULTS},
	.op = GDR_OP_WRITE,
	.peer_access = GDR_ACC_WRITE,
	.conns = RC | UC,
	.lat = GDR_LAT_WRITE_PINGPONG,
    },
    [GDR_VERB_READ] = {
	.verb = GDR_VERB_READ,
	.name = "read",
	.title = {"RDMA read bandwidth", "RDMA read latency"},
	.tests = {GDR_T_READ_BW, GDR_T_READ_LAT},
	.defaults = {BW_DEFAULTS("1000"), LAT_DEFAULTS},
	.op = GDR_OP_READ,
	.fetches = true,
	.peer_access = GDR_ACC_READ,
	.conns = RC,
	.lat = GDR_LAT_READ_RTT,
    },
    [GDR_VERB_SEND] = {
	.verb = GDR_VERB_SEND,
	.name = "send",
	.title = {"send/receive bandwidth", "send/receive latency"},
	.tests = {GDR_T_SEND_BW, GDR_T_SEND_LAT},
	.defaults = {BW_DEFAULTS("1000"), LAT_DEFAULTS},
	.op = GDR_OP_SEND,
	.target_recvs = true,
	.conns = RC | UC | UD,
	.lat = GDR_LAT_SEND_PINGPONG,
    },
    [GDR_VERB_ATOMIC] = {
	.verb = GDR_VERB_ATOMIC,
	.name = "atomic",
	.title = {"RDMA atomic (8-byte) bandwidth", "RDMA atomic (8-byte) latency"},
	.tests = {GDR_T_ATOMIC_BW, GDR_T_ATOMIC_LAT},
	.defaults = {BW_DEFAULTS("1000"), LAT_DEFAULTS},
	.size_unset = GDR_ATOMIC_BYTES,
	.op = GDR_OP_ATOMIC,
	.fetches = true,
	.peer_access = GDR_ACC_ATOMIC,
	.conns = RC,
	.needs_atomic_cap = true,
	.lat = GDR_LAT_ATOMIC_RTT,
	.refusal = atomic_refusal,
	.no_staged = "atomics run on the direct path only (no --staged/--compare)",
    },
    [GDR_VERB_WRITE_IMM] = {
	.verb = GDR_VERB_WRITE_IMM,
	.name = "write_imm",
	.title = {"RDMA write-with-immediate bandwidth", "RDMA write-with-immediate latency"},
	.tests = {GDR_T_WRITE_BW, GDR_T_WRITE_LAT},
	.defaults = {BW_DEFAULTS("5000"), LAT_DEFAULTS},
	.op = GDR_OP_WRITE_IMM,
	.target_recvs = true,
	.peer_access = GDR_ACC_WRITE,
	.conns = RC | UC,
	.lat = GDR_LAT_WRITE_PINGPONG,
	.flag = "write_with_imm",
    },
};
/* clang-format on */

const struct gdr_verb_def *gdr_verb_def(enum gdr_verb v)
{
	return (unsigned)v < GDR_NVERBS ? &gdr_verb_defs[v] : NULL;
}

bool gdr_verb_fetches(enum gdr_verb v)
{
	return (unsigned)v < GDR_NVERBS && gdr_verb_defs[v].fetches;
}

const char *gdr_verb_refusal(const struct gdr_opts *o)
{
	const struct gdr_verb_def *d = gdr_verb_def(o->verb);

	if (d && d->no_staged && (o->staged || o->compare))
		return d->no_staged;
	return d && d->refusal ? d->refusal(o) : NULL;
}
