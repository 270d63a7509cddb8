/* SPDX-License-Identifier: MIT */
/*
 * The verbs as data: one row per verb (write, read, send, atomic) with what
 * the options, the session and the transport need to know of it. The engine's
 * descriptor (engine/verb.h) points at this row and adds the posting
 * functions; each side's role (transport/role.h) is computed from it once.
 * A new verb: an enum gdr_verb value, a row here, a row in engine/verb.c. A
 * variant of another verb's tests (write_imm of the write tests) shares their
 * test bits and is chosen by its flag.
 */
#ifndef GDR_VERB_DEF_H
#define GDR_VERB_DEF_H

#include <stdbool.h>
#include <stdint.h>
#include "opts.h"

#define GDR_NVERBS 5
#define GDR_NKINDS 2

/* What the responder's memory lets the requester do (transport maps these to IBV_ACCESS_*). */
#define GDR_ACC_WRITE  1u
#define GDR_ACC_READ   2u
#define GDR_ACC_ATOMIC 4u

/*
 * What one data message is on the wire; both loops (engine/bw_ring.c and
 * the staged loop, staging/staging_bw.c) build their work requests from it.
 */
enum gdr_wire_op {
	GDR_OP_WRITE = 0,     /* RDMA write (the staged loop adds an immediate to a run's last) */
	GDR_OP_WRITE_IMM = 1, /* RDMA write with immediate: every message consumes a receive */
	GDR_OP_READ = 2,      /* RDMA read */
	GDR_OP_SEND = 3,      /* send: the payload lands in the target's posted receive */
	GDR_OP_ATOMIC = 4,    /* fetch-and-add or compare-and-swap (-A) */
};

/* How a latency test measures one sample. */
enum gdr_lat_method {
	GDR_LAT_WRITE_PINGPONG = 0, /* write, the peer sees it (byte or immediate), writes back */
	GDR_LAT_READ_RTT = 1,	    /* one read, the full round trip */
	GDR_LAT_SEND_PINGPONG = 2,  /* send, receive completion, send back */
	GDR_LAT_ATOMIC_RTT = 3,	    /* one atomic on one counter, the full round trip */
};

/* Option defaults that differ per test: an option row names its slot (.per_test). */
enum gdr_test_slot {
	GDR_TD_NONE = 0,
	GDR_TD_SIZE = 1,     /* -s */
	GDR_TD_ITERS = 2,    /* -n */
	GDR_TD_TX_DEPTH = 3, /* -t */
	GDR_TD_WARMUP = 4,   /* --warmup */
	GDR_TD_N = 5,
};

struct gdr_verb_def {
	enum gdr_verb verb;
	const char *name;			    /* "write" */
	const char *title[GDR_NKINDS];		    /* --help head, per kind (bw, lat) */
	unsigned tests[GDR_NKINDS];		    /* GDR_T_* bit of each test (opts_table.h) */
	const char *defaults[GDR_NKINDS][GDR_TD_N]; /* option defaults per kind, per slot */
	uint64_t size_unset;	 /* -s not given: this size (0 = the -s default) */
	enum gdr_wire_op op;	 /* a data message on the wire */
	bool fetches;		 /* the requester's NIC pulls from the responder (its CPU idle) */
	bool target_recvs;	 /* each data message consumes a receive the target posted */
	unsigned peer_access;	 /* GDR_ACC_*: what the responder registers for the requester */
	unsigned conns;		 /* 1u << GDR_CONN_*: the connection types it runs on */
	bool needs_atomic_cap;	 /* the device must have atomic_cap other than NONE */
	enum gdr_lat_method lat; /* the latency test's method */
	/* What this verb's tests refuse of the options, both sides (NULL: nothing more). */
	const char *(*refusal)(const struct gdr_opts *o);
	/* Why the staged path cannot carry it (--staged/--compare refused); NULL: it can. */
	const char *no_staged;
	/* A variant of another verb's tests (same test bits): the flag choosing it, else NULL. */
	const char *flag;
};

extern const struct gdr_verb_def gdr_verb_defs[GDR_NVERBS];

/* The row of verb v (NULL for a value that is no verb: a corrupted request). */
const struct gdr_verb_def *gdr_verb_def(enum gdr_verb v);

/* The verb's own refusal of o (its row's refusal), NULL when none. */
const char *gdr_verb_refusal(const struct gdr_opts *o);

#endif
