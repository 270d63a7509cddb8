/* SPDX-License-Identifier: MIT */
/*
 * Exchange codec: round trips of every type, the exact wire bytes checked
 * against hand-computed offsets, every truncation, corrupt headers and every
 * out-of-range field both before encoding and on the wire. Each decode reads
 * from a heap copy of exactly the given length so the sanitizer build
 * catches any read past the end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xchg.h"

#include "check.h"
#include "msgs.h"
#include "verb_def.h"

#define HDR GDR_FRAME_HDR

/* Decode from an exact-size heap copy of buf[0..len). */
static int decode_exact(const uint8_t *buf, size_t len, struct gdr_msg *m)
{
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	if (!copy)
		abort();
	memcpy(copy, buf, len);
	rc = gdr_msg_decode(copy, len, m);
	free(copy);
	return rc;
}

/* Independent little-endian helpers for building and reading test frames. */
static void le_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t le_get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* ---- field-by-field equality ---- */

static int msg_eq(const struct gdr_msg *a, const struct gdr_msg *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case GDR_MSG_HELLO: {
		const struct gdr_hello *x = &a->u.hello, *y = &b->u.hello;

		if (x->verb != y->verb || x->kind != y->kind || x->flags != y->flags ||
		    x->num_qps != y->num_qps || x->tx_depth != y->tx_depth ||
		    x->rx_depth != y->rx_depth || x->cq_mod != y->cq_mod ||
		    x->inline_size != y->inline_size || x->mtu != y->mtu || x->iters != y->iters ||
		    x->warmup != y->warmup || x->duration != y->duration ||
		    x->stage_chunk != y->stage_chunk || x->nsizes != y->nsizes || x->repeat != y->repeat ||
		    strcmp(x->host, y->host) || strcmp(x->token, y->token) ||
		    strcmp(x->xport, y->xport))
			return 0;
		for (uint32_t i = 0; i < x->nsizes; i++)
			if (x->sizes[i] != y->sizes[i])
				return 0;
		return 1;
	}
	case GDR_MSG_QPINFO: {
		const struct gdr_qpinfo *x = &a->u.qpinfo, *y = &b->u.qpinfo;

		if (x->nqp != y->nqp || x->key != y->key || x->addr != y->addr ||
		    x->len != y->len || x->mtu != y->mtu || x->rd_atomic != y->rd_atomic ||
		    strcmp(x->host, y->host) || strcmp(x->mem_kind, y->mem_kind))
			return 0;
		for (uint32_t i = 0; i < x->nqp; i++)
			if (x->ep[i].len != y->ep[i].len ||
			    memcmp(x->ep[i].b, y->ep[i].b, sizeof(x->ep[i].b)))
				return 0;
		return 1;
	}
	case GDR_MSG_RESULT: {
		const struct gdr_result_wire *x = &a->u.result, *y = &b->u.result;

		return x->status == y->status && x->bytes == y->bytes && x->iters == y->iters &&
		       x->duration_s == y->duration_s && x->bw_peak_Bps == y->bw_peak_Bps &&
		       x->bw_avg_Bps == y->bw_avg_Bps && x->msg_rate_pps == y->msg_rate_pps &&
		       !strcmp(x->note, y->note);
	}
	case GDR_MSG_SYNC:
		return a->u.sync.step == b->u.sync.step && a->u.sync.value == b->u.sync.value;
	case GDR_MSG_REJECT:
		return !strcmp(a->u.reason, b->u.reason);
	default:
		return 1;
	}
}

static uint8_t buf[HDR + GDR_MAX_PAYLOAD + 16];

/* Encode, then check header bytes, round trip and every truncation. */
static size_t check_message(const struct gdr_msg *m, size_t want_plen)
{
	struct gdr_msg out;
	uint16_t type = 0, version = 0;
	size_t len = gdr_msg_encode(m, buf, sizeof(buf));

	CHECK(len == HDR + want_plen);
	if (len != HDR + want_plen)
		return 0;
	CHECK(!memcmp(buf, "GDRP", 4));
	CHECK(le_get(buf + 4, 2) == GDR_PROTO_VERSION);
	CHECK(le_get(buf + 6, 2) == m->type);
	CHECK(le_get(buf + 8, 4) == want_plen);
	CHECK(gdr_frame_header(buf, HDR, &type, &version) == (int)want_plen);
	CHECK(type == m->type && version == GDR_PROTO_VERSION);
	memset(&out, 0xa5, sizeof(out));
	CHECK(decode_exact(buf, len, &out) == 0);
	CHECK(msg_eq(m, &out));
	for (size_t l = 0; l < len; l++) {
		int rc = decode_exact(buf, l, &out);

		if (rc != GDR_EMSG_SHORT) {
			fprintf(stderr, "type %u truncated to %zu: %d\n", m->type, l, rc);
			failures++;
		}
	}
	/* one whole frame: a byte after it is refused */
	buf[len] = 0;
	CHECK(decode_exact(buf, len + 1, &out) == GDR_EMSG_LENGTH);
	/* exactly enough room encodes, one byte less does not */
	{
		uint8_t *tight = malloc(len);

		CHECK(tight && gdr_msg_encode(m, tight, len) == len);
		CHECK(tight && gdr_msg_encode(m, tight, len - 1) == 0);
		free(tight);
	}
	return len;
}

static void test_round_trips(void)
{
	struct gdr_msg m;

	m = sample_hello(1);
	check_message(&m, 259);
	m = sample_hello(3);
	check_message(&m, 275);
	m = sample_hello(GDR_MAX_SIZES);
	check_message(&m, 251 + 8 * GDR_MAX_SIZES);
	m = sample_hello(2); /* no --run_token: an empty token */
	m.u.hello.token[0] = 0;
	check_message(&m, 267);
	m = sample_hello(2); /* the longest transport name */
	strcpy(m.u.hello.xport, "abcdefghij_0189");
	check_message(&m, 267);
	m = sample_qpinfo(1);
	check_message(&m, 246);
	m = sample_qpinfo(GDR_MAX_QPS); /* 8436 bytes: within GDR_MAX_PAYLOAD */
	check_message(&m, 116 + 130 * GDR_MAX_QPS);
	m = sample_result();
	check_message(&m, 180);
	m = sample_simple(GDR_MSG_SYNC);
	check_message(&m, 12);
	m = sample_simple(GDR_MSG_REJECT);
	check_message(&m, 256);
	m = sample_simple(GDR_MSG_ACCEPT);
	check_message(&m, 0);
	m = sample_simple(GDR_MSG_BYE);
	check_message(&m, 0);
	/* an empty reason and an empty note are still valid */
	m = sample_simple(GDR_MSG_REJECT);
	m.u.reason[0] = 0;
	check_message(&m, 256);
}

/* The exact bytes at the documented offsets, computed independently. */
static void test_wire_layout(void)
{
	struct gdr_msg m = sample_simple(GDR_MSG_SYNC);
	static const uint8_t sync[] = {'G',  'D',  'R',	 'P',  10,   0,	   5,	 0,
				       12,   0,	   0,	 0,    4,    3,	   2,	 1,
				       0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
	const uint8_t *p = buf + HDR;
	uint64_t bits;

	CHECK(gdr_msg_encode(&m, buf, sizeof(buf)) == sizeof(sync));
	CHECK(!memcmp(buf, sync, sizeof(sync)));

	m = sample_hello(3);
	CHECK(gdr_msg_encode(&m, buf, sizeof(buf)) == HDR + 275);
	CHECK(p[0] == GDR_VERB_SEND && p[1] == GDR_KIND_LAT);
	CHECK(le_get(p + 2, 4) == m.u.hello.flags);
	CHECK(le_get(p + 10, 4) == 0x01020304);
	CHECK(le_get(p + 26, 4) == 4096);
	CHECK(le_get(p + 30, 8) == 0x0123456789abcdefULL);
	memcpy(&bits, &m.u.hello.duration, 8);
	CHECK(le_get(p + 46, 8) == bits && bits == 0x4006000000000000ULL); /* 2.75 */
	CHECK(!strcmp((const char *)p + 54, "client-01.example"));
	CHECK(le_get(p + 118, 4) == 3);
	CHECK(le_get(p + 122, 8) == 1 && le_get(p + 130, 8) == GDR_MAX_MSG_SIZE - 1);
	CHECK(le_get(p + 146, 8) == 1 << 20); /* stage_chunk, after the sizes */
	CHECK(!strcmp((const char *)p + 154, "rails.1f2e.abc")); /* the run token */
	for (int i = 14; i < 32; i++)
		CHECK(p[154 + i] == 0);
	CHECK(le_get(p + 186, 4) == 3); /* --repeat */
	CHECK(!strcmp((const char *)p + 190, "verbs")); /* the transport */
	for (int i = 5; i < 16; i++)
		CHECK(p[190 + i] == 0);
	for (int i = 206; i < 275; i++) /* no KV shape: its 69 bytes, last, all zero */
		CHECK(p[i] == 0, "byte %d of a HELLO without a KV shape is %u", i, p[i]);

	/* bytes after a string's NUL are not sent */
	m = sample_hello(1);
	memset(m.u.hello.host, 'x', sizeof(m.u.hello.host));
	m.u.hello.host[5] = 0;
	CHECK(gdr_msg_encode(&m, buf, sizeof(buf)) == HDR + 259);
	for (int i = 5; i < 64; i++)
		CHECK(p[54 + i] == 0);

	m = sample_qpinfo(2);
	CHECK(gdr_msg_encode(&m, buf, sizeof(buf)) == HDR + 116 + 2 * 130);
	CHECK(le_get(p, 4) == 2 && le_get(p + 4, 8) == 0xfedcba98deadbeefULL); /* a 64-bit key */
	CHECK(le_get(p + 12, 8) == 0x7f0012345678ULL && le_get(p + 20, 8) == 8ULL << 20);
	CHECK(le_get(p + 28, 4) == 1024 && le_get(p + 32, 4) == 4); /* MTU, responder resources */
	CHECK(!strcmp((const char *)p + 36, "server-b") && !strcmp((const char *)p + 100, "cuda"));
	CHECK(le_get(p + 116, 2) == 26 && p[118] == 1 && p[118 + 25] == 26); /* endpoint 0 */
	for (int i = 26; i < 128; i++)
		CHECK(p[118 + i] == 0); /* zeros after a blob */
	CHECK(le_get(p + 246, 2) == 128 && p[248] == 17 && p[248 + 127] == (uint8_t)(16 + 128));
}

static void test_headers(void)
{
	struct gdr_msg m = sample_hello(2), out;
	uint16_t type = 0, version = 0;
	size_t len = gdr_msg_encode(&m, buf, sizeof(buf));
	uint8_t save[HDR];

	memcpy(save, buf, HDR);
	buf[0] = 'X';
	CHECK(decode_exact(buf, len, &out) == GDR_EMSG_MAGIC);
	CHECK(gdr_frame_header(buf, HDR, &type, &version) == GDR_EMSG_MAGIC);

	memcpy(buf, save, HDR);
	le_put(buf + 4, GDR_PROTO_VERSION + 1, 2);
	type = version = 0;
	CHECK(gdr_frame_header(buf, HDR, &type, &version) == GDR_EMSG_VERSION);
	CHECK(version == GDR_PROTO_VERSION + 1 && type == GDR_MSG_HELLO);
	le_put(buf + 4, 2, 2); /* version 2: QPINFO without responder resources */
	CHECK(decode_exact(buf, len, &out) == GDR_EMSG_VERSION);
	CHECK(decode_exact(buf, len, &out) == GDR_EMSG_VERSION);
	le_put(buf + 4, 0, 2);
	CHECK(decode_exact(buf, len, &out) == GDR_EMSG_VERSION);

	static const uint16_t bad_types[] = {0, 8, 0x100, 0xffff};
	for (size_t i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++) {
		memcpy(buf, save, HDR);
		le_put(buf + 6, bad_types[i], 2);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_TYPE);
	}

	/* lengths that no HELLO can have, and one too big for any message */
	static const uint32_t bad_lens[] = {
	    0, 250, 251, 266, 268, 251 + 8 * (GDR_MAX_SIZES + 1), GDR_MAX_PAYLOAD + 1, 0xffffffffu};
	for (size_t i = 0; i < sizeof(bad_lens) / sizeof(bad_lens[0]); i++) {
		memcpy(buf, save, HDR);
		le_put(buf + 8, bad_lens[i], 4);
		CHECK(gdr_frame_header(buf, HDR, NULL, NULL) == GDR_EMSG_LENGTH);
	}
	/* a HELLO whose length is valid for another nsizes */
	memcpy(buf, save, HDR);
	le_put(buf + 8, 190, 4);
	CHECK(decode_exact(buf, HDR + 190, &out) == GDR_EMSG_LENGTH);
	/* a QPINFO of 65 endpoints: a length no QPINFO has */
	m = sample_qpinfo(1);
	len = gdr_msg_encode(&m, buf, sizeof(buf));
	le_put(buf + 8, 116 + 130 * (GDR_MAX_QPS + 1), 4);
	CHECK(gdr_frame_header(buf, HDR, NULL, NULL) == GDR_EMSG_LENGTH);
	le_put(buf + 8, 116 + 129, 4);
	CHECK(gdr_frame_header(buf, HDR, NULL, NULL) == GDR_EMSG_LENGTH);
	/* fixed-size types: one byte more or less */
	m = sample_simple(GDR_MSG_SYNC);
	len = gdr_msg_encode(&m, buf, sizeof(buf));
	le_put(buf + 8, 13, 4);
	CHECK(decode_exact(buf, len + 1, &out) == GDR_EMSG_LENGTH);
	le_put(buf + 8, 11, 4);
	CHECK(decode_exact(buf, len - 1, &out) == GDR_EMSG_LENGTH);
	m = sample_simple(GDR_MSG_BYE);
	len = gdr_msg_encode(&m, buf, sizeof(buf));
	le_put(buf + 8, 1, 4);
	CHECK(decode_exact(buf, len + 1, &out) == GDR_EMSG_LENGTH);
	CHECK(gdr_msg_decode(NULL, 0, &out) == GDR_EMSG_SHORT);
}

/* Patch n bytes of value v at payload offset off of the encoded m; expect rc. */
static void wire_case(const struct gdr_msg *m, size_t off, uint64_t v, int n, int rc, int line)
{
	struct gdr_msg out;
	size_t len = gdr_msg_encode(m, buf, sizeof(buf));
	int got;

	if (!len) {
		fprintf(stderr, "line %d: sample did not encode\n", line);
		failures++;
		return;
	}
	le_put(buf + HDR + off, v, n);
	got = decode_exact(buf, len, &out);
	if (got != rc) {
		fprintf(stderr, "line %d: patch at %zu: got %d want %d\n", line, off, got, rc);
		failures++;
	}
}

#define WIRE(m, off, v, n) wire_case(&(m), off, v, n, GDR_EMSG_FIELD, __LINE__)

static uint64_t dbits(double d)
{
	uint64_t b;

	memcpy(&b, &d, 8);
	return b;
}

/*
 * The KV shape (version 8, the HELLO's last 69 bytes with version 9's regions and version
 * 10's blocks a work request; at 198 with 2 sizes): one that fits
 * round-trips; batches out of range, a count the sizes do not divide, batch values past the
 * count, an unknown placement, stride 0, a pool smaller than a batch of blocks, a batch of
 * blocks over 1 GiB, and a shape's fields without a batch count are refused.
 */
static void test_kv_shape(void)
{
	struct gdr_msg h = sample_hello(2);
	const uint8_t *p = buf + HDR;

	h.u.hello.sizes[0] = 16384;
	h.u.hello.sizes[1] = 65536;
	h.u.hello.kv = (struct gdr_hello_kv){.nbatch = 2,
					     .batch = {4, 8},
					     .pool = 1 << 20,
					     .place = 1,
					     .stride = 3,
					     .seed = 9,
					     .regions = 4,
					     .sge = 2};
	check_message(&h, 267);
	CHECK(gdr_msg_encode(&h, buf, sizeof(buf)) == HDR + 267);
	CHECK(le_get(p + 198, 4) == 2 && le_get(p + 202, 4) == 4 && le_get(p + 206, 4) == 8);
	CHECK(le_get(p + 234, 8) == 1 << 20 && p[242] == 1 && le_get(p + 243, 8) == 3 &&
	      le_get(p + 251, 8) == 9 && le_get(p + 259, 4) == 4 && le_get(p + 263, 4) == 2);
	wire_case(&h, 198, 1, 4, GDR_EMSG_FIELD, __LINE__); /* batch 8 past the count */
	WIRE(h, 198, GDR_KV_MAX_LIST + 1, 4);		    /* too many batches */
	WIRE(h, 202, 0, 4);				    /* a batch of 0 */
	WIRE(h, 202, GDR_KV_MAX_BATCH + 1, 4);
	WIRE(h, 234, 65536 * 8 - 1, 8); /* the pool below 64 KiB x 8 */
	WIRE(h, 234, GDR_KV_MAX_POOL + 1, 8);
	WIRE(h, 242, GDR_KV_NPLACE, 1);
	WIRE(h, 243, 0, 8); /* stride 0 */
	/* version 9's regions: none, over 1024, 3 (dividing neither 64 nor 16 slots) */
	WIRE(h, 259, 0, 4);
	WIRE(h, 259, GDR_KV_MAX_REGIONS + 1, 4);
	WIRE(h, 259, 3, 4);
	WIRE(h, 259, 16, 4); /* 16 regions: 4 and 1 slots of each size, no run of --sge=2 */
	WIRE(h, 259, 32, 4); /* more regions than 16 slots of 64 KiB */
	/* version 10's blocks a work request: none, over 32, 3 (dividing neither batch), 8 (not
	 * the batch of 4), 4 (dividing each batch and the 16 and 4 slots of a region) */
	WIRE(h, 263, 0, 4);
	WIRE(h, 263, GDR_KV_MAX_SGE + 1, 4);
	WIRE(h, 263, 3, 4);
	WIRE(h, 263, 8, 4);
	wire_case(&h, 263, 4, 4, 0, __LINE__);
	h.u.hello.kv.sge = 1;
	wire_case(&h, 259, 16, 4, 0, __LINE__);	       /* 16 regions: 4 and 1 slots of each size */
	wire_case(&h, 234, 65536 * 8, 8, 0, __LINE__); /* the pool just holds a batch */
	wire_case(&h, 202, GDR_KV_MAX_BATCH, 4, GDR_EMSG_FIELD, __LINE__); /* 64 MiB > pool */
	h.u.hello.kv.nbatch = 1; /* 2 sizes, 1 batch: 2 cells */
	h.u.hello.kv.batch[1] = 0;
	check_message(&h, 267);
	h.u.hello.nsizes = 3; /* 3 sizes over 2 batches: no whole number of blocks */
	h.u.hello.sizes[2] = 4096;
	h.u.hello.kv.nbatch = 2;
	h.u.hello.kv.batch[1] = 8;
	CHECK(gdr_msg_encode(&h, buf, sizeof(buf)) == 0, "3 sizes over 2 batches encoded");
	h = sample_hello(2); /* no KV shape: its fields stay zero */
	WIRE(h, 202, 4, 4);
	WIRE(h, 234, 1, 8);
	WIRE(h, 251, 1, 8);
	WIRE(h, 259, 1, 4); /* regions without a KV shape */
	WIRE(h, 263, 1, 4); /* blocks a work request without a KV shape */
}

static void test_fields_on_wire(void)
{
	struct gdr_msg h = sample_hello(2), q = sample_qpinfo(1), r = sample_result(), j = sample_simple(GDR_MSG_REJECT);

	WIRE(h, 0, GDR_NVERBS, 1);	    /* verb */
	WIRE(h, 1, 2, 1);		    /* kind */
	WIRE(h, 2, GDR_HF_ALL + 1, 4);	    /* unknown flag */
	WIRE(h, 2, 0x80000000u, 4);	    /* unknown flag */
	WIRE(h, 6, 0, 4);		    /* num_qps */
	WIRE(h, 6, GDR_MAX_QPS + 1, 4);	    /* num_qps */
	WIRE(h, 10, 0, 4);		    /* tx_depth */
	WIRE(h, 14, 0, 4);		    /* rx_depth */
	WIRE(h, 18, 0, 4);		    /* cq_mod */
	WIRE(h, 26, 1500, 4);		    /* mtu */
	WIRE(h, 46, dbits(-1.0), 8);	    /* duration */
	WIRE(h, 46, dbits(NAN), 8);	    /* duration */
	WIRE(h, 46, dbits(INFINITY), 8);    /* duration */
	WIRE(h, 118, 0, 4);		    /* nsizes */
	WIRE(h, 118, GDR_MAX_SIZES + 1, 4); /* nsizes */
	WIRE(h, 122, 0, 8);		    /* sizes[0] */
	WIRE(h, 130, GDR_MAX_MSG_SIZE + 1, 8);
	WIRE(h, 138, 4095, 8);		    /* stage_chunk */
	WIRE(h, 138, GDR_MAX_MSG_SIZE + 1, 8); /* stage_chunk */
	WIRE(h, 178, 0, 4);		    /* repeat, after the token */
	WIRE(h, 182, 0, 1);		    /* the transport's name: empty */
	WIRE(h, 182, 'V', 1);		    /* an upper-case letter */
	WIRE(h, 183, ';', 1);		    /* a character no transport's name has */
	WIRE(h, 178, GDR_MAX_REPEAT + 1, 4); /* repeat */
	/* host without its NUL */
	h.u.hello.host[0] = 0;
	{
		size_t len = gdr_msg_encode(&h, buf, sizeof(buf));
		struct gdr_msg out;

		memset(buf + HDR + 54, 'A', 64);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_FIELD);
		buf[HDR + 54 + 63] = 0; /* 63 characters and the NUL: fine */
		CHECK(decode_exact(buf, len, &out) == 0 && strlen(out.u.hello.host) == 63);
		/* the run token (after 2 sizes and stage_chunk) without its NUL */
		memset(buf + HDR + 146, 'T', 32);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_FIELD);
		buf[HDR + 146 + 31] = 0;
		CHECK(decode_exact(buf, len, &out) == 0 && strlen(out.u.hello.token) == 31);
		/* the transport's name (after the repeat count) without its NUL, and with 15 */
		memset(buf + HDR + 182, 'x', 16);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_FIELD);
		buf[HDR + 182 + 15] = 0;
		CHECK(decode_exact(buf, len, &out) == 0 && strlen(out.u.hello.xport) == 15);
	}
	/* the largest valid values pass */
	wire_case(&h, 6, GDR_MAX_QPS, 4, 0, __LINE__);
	wire_case(&h, 122, GDR_MAX_MSG_SIZE, 8, 0, __LINE__);
	wire_case(&h, 138, GDR_MAX_MSG_SIZE, 8, 0, __LINE__);
	wire_case(&h, 138, 0, 8, 0, __LINE__); /* stage_chunk 0: the default */
	wire_case(&h, 178, GDR_MAX_REPEAT, 4, 0, __LINE__);
	wire_case(&h, 46, dbits(0.0), 8, 0, __LINE__);

	WIRE(q, 0, 0, 4);				   /* nqp */
	WIRE(q, 0, GDR_MAX_QPS + 1, 4);			   /* nqp */
	wire_case(&q, 0, 2, 4, GDR_EMSG_LENGTH, __LINE__); /* nqp vs length */
	WIRE(q, 28, 100, 4);				   /* mtu */
	WIRE(q, 32, 0, 4);				   /* rd_atomic at least 1 */
	WIRE(q, 32, 256, 4);				   /* rd_atomic is 8-bit */
	wire_case(&q, 32, 255, 4, 0, __LINE__);
	wire_case(&q, 4, ~0ULL, 8, 0, __LINE__); /* any 64-bit key: the transport's */
	WIRE(q, 116, 0, 2);				   /* an empty address */
	WIRE(q, 116, GDR_WIRE_ADDR_MAX + 1, 2);		   /* longer than its field */
	wire_case(&q, 116, GDR_WIRE_ADDR_MAX, 2, 0, __LINE__); /* the whole field */
	wire_case(&q, 116, 1, 2, GDR_EMSG_FIELD, __LINE__); /* then bytes after it are not zero */
	WIRE(q, 118 + 26, 1, 1);			   /* a byte after the address */
	WIRE(q, 118 + 127, 0x80, 1);			   /* the field's last byte */
	{
		size_t len = gdr_msg_encode(&q, buf, sizeof(buf));
		struct gdr_msg out;

		memset(buf + HDR + 36, 'h', 64);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_FIELD);
		len = gdr_msg_encode(&q, buf, sizeof(buf));
		memset(buf + HDR + 100, 'k', 16);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_FIELD);
	}

	for (size_t off = 20; off <= 44; off += 8) {
		WIRE(r, off, dbits(NAN), 8);
		WIRE(r, off, dbits(-0.5), 8);
		WIRE(r, off, dbits(-INFINITY), 8);
	}
	{
		size_t len = gdr_msg_encode(&r, buf, sizeof(buf));
		struct gdr_msg out;

		memset(buf + HDR + 52, 'n', 128);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_FIELD);
		len = gdr_msg_encode(&j, buf, sizeof(buf));
		memset(buf + HDR, 'r', 256);
		CHECK(decode_exact(buf, len, &out) == GDR_EMSG_FIELD);
		buf[HDR + 255] = 0;
		CHECK(decode_exact(buf, len, &out) == 0 && strlen(out.u.reason) == 255);
	}
}

/* The encoder refuses what the decoder would refuse. */
static void test_fields_on_encode(void)
{
	struct gdr_msg m;

#define REFUSED(init, change)                                                                      \
	do {                                                                                       \
		m = init;                                                                          \
		CHECK(gdr_msg_encode(&m, buf, sizeof(buf)) > 0);                                   \
		change;                                                                            \
		CHECK(gdr_msg_encode(&m, buf, sizeof(buf)) == 0);                                  \
	} while (0)

	REFUSED(sample_hello(2), m.u.hello.verb = GDR_NVERBS);
	REFUSED(sample_hello(2), m.u.hello.kind = 2);
	REFUSED(sample_hello(2), m.u.hello.flags = GDR_HF_ALL + 1);
	REFUSED(sample_hello(2), m.u.hello.num_qps = 0);
	REFUSED(sample_hello(2), m.u.hello.num_qps = GDR_MAX_QPS + 1);
	REFUSED(sample_hello(2), m.u.hello.tx_depth = 0);
	REFUSED(sample_hello(2), m.u.hello.rx_depth = 0);
	REFUSED(sample_hello(2), m.u.hello.cq_mod = 0);
	REFUSED(sample_hello(2), m.u.hello.mtu = 9000);
	REFUSED(sample_hello(2), m.u.hello.duration = -0.001);
	REFUSED(sample_hello(2), m.u.hello.duration = NAN);
	REFUSED(sample_hello(2), m.u.hello.nsizes = 0);
	REFUSED(sample_hello(2), m.u.hello.repeat = 0);
	REFUSED(sample_hello(2), m.u.hello.repeat = GDR_MAX_REPEAT + 1);
	REFUSED(sample_hello(2), m.u.hello.nsizes = GDR_MAX_SIZES + 1);
	REFUSED(sample_hello(2), m.u.hello.sizes[1] = 0);
	REFUSED(sample_hello(2), m.u.hello.sizes[1] = GDR_MAX_MSG_SIZE + 1);
	REFUSED(sample_hello(2), memset(m.u.hello.host, 'a', sizeof(m.u.hello.host)));
	REFUSED(sample_hello(2), memset(m.u.hello.token, 't', sizeof(m.u.hello.token)));
	/* a token --run_token could not have given (a server prints it in its refusal line) */
	REFUSED(sample_hello(2), strcpy(m.u.hello.token, "x\ngdr_write_bw: error: forged"));
	REFUSED(sample_hello(2), strcpy(m.u.hello.token, "run\033[2J"));
	REFUSED(sample_qpinfo(1), m.u.qpinfo.nqp = 0);
	REFUSED(sample_qpinfo(1), m.u.qpinfo.nqp = GDR_MAX_QPS + 1);
	REFUSED(sample_qpinfo(1), m.u.qpinfo.ep[0].len = 0);
	REFUSED(sample_qpinfo(1), m.u.qpinfo.ep[0].len = GDR_WIRE_ADDR_MAX + 1);
	REFUSED(sample_qpinfo(1), m.u.qpinfo.ep[0].b[GDR_WIRE_ADDR_MAX - 1] = 1);
	REFUSED(sample_hello(2), m.u.hello.xport[0] = 0);
	REFUSED(sample_hello(2), strcpy(m.u.hello.xport, "Verbs"));
	REFUSED(sample_hello(2), strcpy(m.u.hello.xport, "ofi\n"));
	REFUSED(sample_hello(2), memset(m.u.hello.xport, 'v', sizeof(m.u.hello.xport)));
	REFUSED(sample_qpinfo(1), memset(m.u.qpinfo.mem_kind, 'c', sizeof(m.u.qpinfo.mem_kind)));
	REFUSED(sample_result(), m.u.result.bw_avg_Bps = INFINITY);
	REFUSED(sample_result(), memset(m.u.result.note, 'n', sizeof(m.u.result.note)));
	REFUSED(sample_simple(GDR_MSG_REJECT), memset(m.u.reason, 'r', sizeof(m.u.reason)));
	REFUSED(sample_simple(GDR_MSG_SYNC), m.type = 0);
	REFUSED(sample_simple(GDR_MSG_SYNC), m.type = 8);
	/* a duration of zero (iteration mode) is valid */
	m = sample_hello(1);
	m.u.hello.duration = 0;
	CHECK(gdr_msg_encode(&m, buf, sizeof(buf)) == HDR + 259);
#undef REFUSED
}

static void test_names(void)
{
	static const int errs[] = {GDR_EMSG_SHORT, GDR_EMSG_MAGIC,  GDR_EMSG_VERSION,
				   GDR_EMSG_TYPE,  GDR_EMSG_LENGTH, GDR_EMSG_FIELD};

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		for (size_t k = 0; k < i; k++)
			CHECK(strcmp(gdr_msg_strerror(errs[i]), gdr_msg_strerror(errs[k])));
	CHECK(!strcmp(gdr_msg_type_name(GDR_MSG_HELLO), "HELLO"));
	CHECK(!strcmp(gdr_msg_type_name(GDR_MSG_QPINFO), "QPINFO"));
	CHECK(!strcmp(gdr_msg_type_name(GDR_MSG_BYE), "BYE"));
	CHECK(!strcmp(gdr_msg_type_name(0), "unknown"));
	CHECK(!strcmp(gdr_msg_type_name(0xffff), "unknown"));
}

int main(void)
{
	test_round_trips();
	test_wire_layout();
	test_headers();
	test_fields_on_wire();
	test_kv_shape();
	test_fields_on_encode();
	test_names();
	return CHECK_DONE();
}
