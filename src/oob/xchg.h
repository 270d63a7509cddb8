/* SPDX-License-Identifier: MIT */
/*
 * Out-of-band exchange messages: versioned, length-framed, explicitly
 * encoded (little endian, no struct memcpy), decoded with bounds checks so a
 * truncated, corrupt or hostile message is rejected, never trusted.
 *
 * Frame: magic "GDRP" (4) | version u16 | type u16 | payload length u32 | payload
 */
#ifndef GDR_XCHG_H
#define GDR_XCHG_H

#include <stddef.h>
#include <stdint.h>
#include "opts.h"

#define GDR_PROTO_MAGIC 0x50524447u /* "GDRP" little endian */
/*
 * 3: QPINFO carries responder resources; 4: STAGE_COPY step; 5: HELLO's run token;
 * 6: HELLO's repeat count; 7: QPINFO carries an address blob per endpoint and a 64-bit
 * key (the transport's, not verbs' QPN/PSN/LID/GID and 32-bit rkey), HELLO the transport;
 * 8: HELLO's KV shape; 9: HELLO's KV pool regions (--regions), the server's region keys
 * in SYNC steps (GDR_STEP_KV_KEY); 10: HELLO's KV blocks a work request (--sge)
 */
#define GDR_PROTO_VERSION 10
#define GDR_FRAME_HDR 12
#define GDR_MAX_PAYLOAD 12288 /* every valid message fits (QPINFO of 64 endpoints: 8436) */
#define GDR_WIRE_ADDR_MAX 128 /* an endpoint's address blob (the transport's GDR_XADDR_MAX) */

enum gdr_msg_type {
	GDR_MSG_HELLO = 1,  /* client -> server: the test */
	GDR_MSG_ACCEPT = 2, /* server -> client: test accepted */
	GDR_MSG_REJECT = 3, /* either way: reason; the receiver prints it and exits */
	GDR_MSG_QPINFO = 4, /* both ways: QPs and buffer */
	GDR_MSG_SYNC = 5,   /* both ways: barrier step + value */
	GDR_MSG_RESULT = 6, /* both ways: a side's measurement of one size */
	GDR_MSG_BYE = 7,    /* end of run */
};

/* HELLO flags */
#define GDR_HF_BIDIR (1u << 0)
#define GDR_HF_VALIDATE (1u << 1)
#define GDR_HF_STAGED (1u << 2)
#define GDR_HF_COMPARE (1u << 3)
#define GDR_HF_USE_IMM (1u << 4)
#define GDR_HF_RDMA_CM (1u << 5)
#define GDR_HF_INLINE_SET (1u << 6) /* -I given: no default inline on either side */
#define GDR_HF_GBITS (1u << 7)      /* the client reports Gb/s: the server prints the same */
#define GDR_HF_GPU (1u << 8)        /* the client's test memory is GPU memory */
#define GDR_HF_INFINITE (1u << 9)   /* --run_infinitely: until the client stops */
#define GDR_HF_UC (1u << 10)        /* -c UC */
#define GDR_HF_UD (1u << 11)        /* -c UD */
#define GDR_HF_CAS (1u << 12)       /* -A CMP_AND_SWAP (else fetch-and-add) */
#define GDR_HF_CONTEND (1u << 13)   /* --atomic_contention: one counter for every atomic */
#define GDR_HF_ALL 0x3fffu

/* A KV-cache-shaped run's shape beyond its blocks (the sizes): docs/kv.md. */
struct gdr_hello_kv {
	uint32_t nbatch; /* --batch values; 0: not a KV run */
	uint32_t batch[GDR_KV_MAX_LIST];
	uint64_t pool;	 /* --pool bytes */
	uint8_t place;	 /* enum gdr_kv_place_kind */
	uint64_t stride; /* stride:N */
	uint64_t seed;	 /* random:SEED */
	uint32_t regions; /* version 9: --regions, the pool's memory regions (1..1024) */
	uint32_t sge; /* version 10: --sge, blocks a work request (1..32, dividing each batch) */
};

struct gdr_hello {
	uint8_t verb;  /* enum gdr_verb */
	uint8_t kind;  /* enum gdr_kind */
	uint32_t flags;
	uint32_t num_qps, tx_depth, rx_depth, cq_mod, inline_size, mtu;
	uint64_t iters, warmup;
	uint64_t stage_chunk; /* --stage_chunk bytes */
	double duration;
	uint32_t nsizes;
	uint64_t sizes[GDR_MAX_SIZES];
	char host[64]; /* client host name, NUL-terminated */
	char token[32]; /* --run_token ("" none): only a server given the same one accepts */
	uint32_t repeat; /* --repeat: runs of each size's paths (1..GDR_MAX_REPEAT) */
	char xport[GDR_XPORT_NAME_MAX]; /* the client's --transport ("verbs"): the server's must match */
	struct gdr_hello_kv kv; /* version 8: the KV shape (cell i: block sizes[i], batch
				 * kv.batch[i % kv.nbatch]) */
};

/* One endpoint's address as its transport encodes it (verbs: verbs_ctl.c); opaque here. */
struct gdr_wire_addr {
	uint16_t len; /* 1..GDR_WIRE_ADDR_MAX */
	uint8_t b[GDR_WIRE_ADDR_MAX];
};

struct gdr_qpinfo {
	uint32_t nqp;			      /* endpoints (QPs) of the path */
	struct gdr_wire_addr ep[GDR_MAX_QPS]; /* their addresses */
	uint64_t key;			      /* the region's key as the transport names it */
	uint64_t addr, len; /* registered buffer */
	uint32_t mtu;       /* sender's active MTU (bytes) */
	char host[64];
	char mem_kind[16];  /* "host"/"cuda" */
	uint32_t rd_atomic; /* responder resources: reads/atomics the sender accepts per QP */
};

struct gdr_sync {
	uint32_t step;
	uint64_t value;
};

struct gdr_result_wire {
	uint32_t status; /* 0 ok, else an error code; text in note */
	uint64_t bytes, iters;
	double duration_s, bw_peak_Bps, bw_avg_Bps, msg_rate_pps;
	char note[128];
};

struct gdr_msg {
	uint16_t type; /* enum gdr_msg_type */
	union {
		struct gdr_hello hello;
		struct gdr_qpinfo qpinfo;
		struct gdr_sync sync;
		struct gdr_result_wire result;
		char reason[256]; /* REJECT */
	} u;
};

/* Encode m into buf (cap bytes, >= GDR_FRAME_HDR + GDR_MAX_PAYLOAD is always enough).
 * Returns the frame length, or 0 if m is invalid. */
size_t gdr_msg_encode(const struct gdr_msg *m, uint8_t *buf, size_t cap);

/* Decode errors (negative). */
#define GDR_EMSG_SHORT -1   /* need more bytes */
#define GDR_EMSG_MAGIC -2   /* not our protocol */
#define GDR_EMSG_VERSION -3 /* other protocol version; *peer_version set */
#define GDR_EMSG_TYPE -4    /* unknown type */
#define GDR_EMSG_LENGTH -5  /* length wrong for type / too big */
#define GDR_EMSG_FIELD -6   /* a field out of range (e.g. nqp > GDR_MAX_QPS) */

/*
 * Parse the 12-byte header: returns the payload length (>= 0) or a negative
 * GDR_EMSG_*; *type and *version are filled when the magic matches.
 */
int gdr_frame_header(const uint8_t *buf, size_t len, uint16_t *type, uint16_t *version);
/* Decode one whole frame. Returns 0 or a negative GDR_EMSG_*. */
int gdr_msg_decode(const uint8_t *buf, size_t len, struct gdr_msg *m);
const char *gdr_msg_strerror(int err);
const char *gdr_msg_type_name(uint16_t type);

#endif
