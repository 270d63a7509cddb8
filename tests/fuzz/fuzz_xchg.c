/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the exchange codec (built by tests/fuzz/run.sh).
 * For any input: header parsing and decoding must agree, never read past the
 * input (ASan), and a frame that decodes must encode back to the same length
 * and then decode and re-encode to identical bytes.
 * Built with -DGDR_FUZZ_GEN instead, it is a seed generator: it writes one
 * valid encoding of each message type (the unit test's samples, msgs.h)
 * into the directory given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xchg.h"

#define FRAME_MAX (GDR_FRAME_HDR + GDR_MAX_PAYLOAD)

#ifndef GDR_FUZZ_GEN

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t b1[FRAME_MAX], b2[FRAME_MAX];
	static struct gdr_msg m1, m2;
	uint16_t type = 0, version = 0;
	size_t n1, n2;
	int h, rc;

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

static int put(const char *dir, int i, const struct gdr_msg *m)
{
	uint8_t buf[FRAME_MAX];
	size_t n = gdr_msg_encode(m, buf, sizeof(buf));
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%02d", dir, i);
	f = fopen(path, "wb");
	if (!n || !f || fwrite(buf, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "fuzz seed generator: cannot write %s\n", path);
		return -1;
	}
	return 0;
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
