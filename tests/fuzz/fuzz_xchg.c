/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the exchange codec, every message type (built by
 * tests/fuzz/run.sh). An input is either
 *   - a raw frame (first byte below 0x80, as a peer sends it): header
 *     parsing and decoding must agree and never read past the input (ASan);
 *   - a typed payload (first byte 0x80 + n): the harness frames the rest of
 *     the input as a payload of message type 1 + n % 8 (HELLO .. BYE and one
 *     unknown type) with a right header, so every mutation reaches that
 *     type's payload decoder instead of dying at the magic or the length.
 * A frame that decodes must hold what its type allows (check_fields: counts,
 * address blobs within their field and zero after their length, a transport
 * name of its characters, finite figures, NUL-terminated strings), pass the
 * server's range check of the option table when it is a HELLO, and encode
 * back to the same length, then decode and re-encode to identical bytes.
 * Built with -DGDR_FUZZ_GEN instead, it is a seed generator: it writes one
 * valid encoding of each message type (the unit test's samples, msgs.h),
 * raw and typed, into the directory given.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xchg.h"

#define FRAME_MAX (GDR_FRAME_HDR + GDR_MAX_PAYLOAD)
#define TYPED 0x80u /* first byte of a typed input */
#define NTYPES 8u   /* HELLO .. BYE, and 8: a type that does not exist */

#ifndef GDR_FUZZ_GEN

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void need(int ok)
{
	if (!ok)
		abort();
}

static void terminated(const char *s, size_t field)
{
	need(memchr(s, 0, field) != NULL);
}

static int finite_nonneg(double d)
{
	return isfinite(d) && d >= 0;
}

/* the server's check of a request against the option table (session.c in_ranges) */
static void hello_ranges(const struct gdr_hello *h)
{
	const char *names[] = {"qp", "tx-depth", "rx-depth", "cq-mod", "inline_size",
			       "iters", "warmup"};
	double v[] = {h->num_qps, h->tx_depth, h->rx_depth, h->cq_mod, h->inline_size,
		      (double)h->iters, (double)h->warmup};
	char why[160];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		why[0] = 1;
		if (gdr_opt_check(names[i], v[i], why, sizeof(why)))
			terminated(why, sizeof(why)); /* a refusal says why */
	}
	if (h->duration > 0 && gdr_opt_check("duration", h->duration, why, sizeof(why)))
		terminated(why, sizeof(why));
	for (uint32_t i = 0; i < h->nsizes; i++)
		if (gdr_opt_check("size", (double)h->sizes[i], why, sizeof(why)))
			terminated(why, sizeof(why));
}

/* what a decoded message of each type may hold */
static void check_fields(const struct gdr_msg *m)
{
	const struct gdr_hello *h = &m->u.hello;
	const struct gdr_qpinfo *q = &m->u.qpinfo;
	const struct gdr_result_wire *r = &m->u.result;

	need(gdr_msg_type_name(m->type) != NULL);
	switch (m->type) {
	case GDR_MSG_HELLO:
		need(h->nsizes >= 1 && h->nsizes <= GDR_MAX_SIZES);
		need(h->num_qps >= 1 && h->num_qps <= GDR_MAX_QPS);
		need(finite_nonneg(h->duration) && !(h->flags & ~GDR_HF_ALL));
		for (uint32_t i = 0; i < h->nsizes; i++)
			need(h->sizes[i] >= 1 && h->sizes[i] <= GDR_MAX_MSG_SIZE);
		terminated(h->host, sizeof(h->host));
		terminated(h->xport, sizeof(h->xport));
		need(h->xport[0] && strspn(h->xport, GDR_XPORT_NAME_CHARS) == strlen(h->xport));
		hello_ranges(h);
		break;
	case GDR_MSG_QPINFO:
		need(q->nqp >= 1 && q->nqp <= GDR_MAX_QPS);
		need(q->rd_atomic >= 1 && q->rd_atomic <= 255);
		for (uint32_t i = 0; i < q->nqp; i++) {
			need(q->ep[i].len >= 1 && q->ep[i].len <= GDR_WIRE_ADDR_MAX);
			for (size_t k = q->ep[i].len; k < GDR_WIRE_ADDR_MAX; k++)
				need(q->ep[i].b[k] == 0);
		}
		terminated(q->host, sizeof(q->host));
		terminated(q->mem_kind, sizeof(q->mem_kind));
		break;
	case GDR_MSG_RESULT:
		need(finite_nonneg(r->duration_s) && finite_nonneg(r->bw_peak_Bps));
		need(finite_nonneg(r->bw_avg_Bps) && finite_nonneg(r->msg_rate_pps));
		terminated(r->note, sizeof(r->note));
		break;
	case GDR_MSG_REJECT:
		terminated(m->u.reason, sizeof(m->u.reason));
		break;
	case GDR_MSG_ACCEPT:
	case GDR_MSG_SYNC:
	case GDR_MSG_BYE:
		break;
	default:
		abort(); /* an unknown type never decodes */
	}
}

/* a typed input as the frame a peer would send: header + the rest as payload */
static size_t frame_typed(const uint8_t *data, size_t size, uint8_t *f)
{
	uint16_t type = (uint16_t)(1 + data[0] % NTYPES);
	size_t plen = size - 1;
	const uint8_t hdr[GDR_FRAME_HDR] = {
	    GDR_PROTO_MAGIC & 0xff, (GDR_PROTO_MAGIC >> 8) & 0xff, (GDR_PROTO_MAGIC >> 16) & 0xff,
	    GDR_PROTO_MAGIC >> 24, GDR_PROTO_VERSION & 0xff, GDR_PROTO_VERSION >> 8,
	    type & 0xff, type >> 8, plen & 0xff, (plen >> 8) & 0xff, (plen >> 16) & 0xff,
	    (plen >> 24) & 0xff};

	memcpy(f, hdr, sizeof(hdr));
	memcpy(f + GDR_FRAME_HDR, data + 1, plen);
	return GDR_FRAME_HDR + plen;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t f[FRAME_MAX], b1[FRAME_MAX], b2[FRAME_MAX];
	static struct gdr_msg m1, m2;
	uint16_t type = 0, version = 0;
	size_t n1, n2;
	int h, rc;

	if (size && data[0] >= TYPED) {
		if (size - 1 > GDR_MAX_PAYLOAD)
			return 0;
		size = frame_typed(data, size, f);
		data = f;
	}
	h = gdr_frame_header(data, size, &type, &version);
	rc = gdr_msg_decode(data, size, &m1);
	if (gdr_msg_strerror(rc) == NULL)
		abort();
	/* a header error is the decode error */
	if (h < 0 && rc != h)
		abort();
	if (rc != 0)
		return 0;
	if (h < 0 || (size_t)h + GDR_FRAME_HDR != size || m1.type != type)
		abort();
	check_fields(&m1);
	n1 = gdr_msg_encode(&m1, b1, sizeof(b1));
	if (n1 != size)
		abort(); /* whatever decodes is a valid message of the same length */
	if (gdr_msg_decode(b1, n1, &m2))
		abort();
	n2 = gdr_msg_encode(&m2, b2, sizeof(b2));
	if (n2 != n1 || memcmp(b1, b2, n1))
		abort();
	return 0;
}

#else /* seed generator */

#include "../unit/msgs.h"

/* seed-NN-raw: the frame; seed-NN-typed: 0x80 + type - 1, then the payload */
static int put(const char *dir, int i, const struct gdr_msg *m)
{
	uint8_t buf[FRAME_MAX];
	size_t n = gdr_msg_encode(m, buf, sizeof(buf));
	char path[4096];
	int err = 0;
	FILE *f;

	for (int typed = 0; typed < 2 && !err; typed++) {
		snprintf(path, sizeof(path), "%s/seed-%02d-%s", dir, i, typed ? "typed" : "raw");
		f = fopen(path, "wb");
		if (typed)
			buf[GDR_FRAME_HDR - 1] = (uint8_t)(TYPED + m->type - 1);
		err = !n || !f;
		if (f) {
			if (typed)
				err |= fwrite(buf + GDR_FRAME_HDR - 1, 1, n - GDR_FRAME_HDR + 1, f) !=
				       n - GDR_FRAME_HDR + 1;
			else
				err |= fwrite(buf, 1, n, f) != n;
			err |= fclose(f) != 0;
		}
	}
	if (err)
		fprintf(stderr, "fuzz seed generator: cannot write %s\n", path);
	return err ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct gdr_msg m;
	int i = 0, err = 0;
	uint16_t t;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	m = sample_hello(4);
	err |= put(argv[1], i++, &m);
	m.u.hello.nsizes = 1;
	err |= put(argv[1], i++, &m);
	m = sample_qpinfo(2);
	err |= put(argv[1], i++, &m);
	m = sample_result();
	err |= put(argv[1], i++, &m);
	m = sample_simple(GDR_MSG_REJECT);
	err |= put(argv[1], i++, &m);
	m = sample_simple(GDR_MSG_SYNC);
	err |= put(argv[1], i++, &m);
	for (t = GDR_MSG_ACCEPT; t <= GDR_MSG_BYE; t += GDR_MSG_BYE - GDR_MSG_ACCEPT) {
		m = sample_simple(t);
		err |= put(argv[1], i++, &m);
	}
	return err ? 1 : 0;
}

#endif
