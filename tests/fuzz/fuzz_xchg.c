/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the exchange codec (built by tests/fuzz/run.sh).
 * For any input: header parsing and decoding must agree, never read past the
 * input (ASan), and a frame that decodes must encode back to the same length
 * and then decode and re-encode to identical bytes.
 * Built with -DGDR_FUZZ_GEN instead, it is a seed generator: it writes one
 * valid encoding of each message type into the directory given.
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
	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_HELLO;
	m.u.hello = (struct gdr_hello){.verb = GDR_VERB_WRITE,
				       .kind = GDR_KIND_BW,
				       .flags = GDR_HF_BIDIR | GDR_HF_VALIDATE,
				       .num_qps = 2,
				       .tx_depth = 128,
				       .rx_depth = 512,
				       .cq_mod = 100,
				       .inline_size = 0,
				       .mtu = 4096,
				       .iters = 5000,
				       .duration = 0.5,
				       .nsizes = 4,
				       .host = "client"};
	m.u.hello.sizes[0] = 2;
	m.u.hello.sizes[1] = 4096;
	m.u.hello.sizes[2] = 65536;
	m.u.hello.sizes[3] = 1 << 23;
	err |= put(argv[1], i++, &m);
	m.u.hello.nsizes = 1;
	err |= put(argv[1], i++, &m);

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_QPINFO;
	m.u.qpinfo.nqp = 2;
	m.u.qpinfo.qp[0] = (struct gdr_qp_wire){.qpn = 0x123, .psn = 0x456, .lid = 1};
	m.u.qpinfo.qp[1] = (struct gdr_qp_wire){.qpn = 0x124, .psn = 0x789, .lid = 1};
	m.u.qpinfo.qp[1].gid[10] = 0xff;
	m.u.qpinfo.qp[1].gid[11] = 0xff;
	m.u.qpinfo.rkey = 0x1234;
	m.u.qpinfo.addr = 0x7f0000000000ULL;
	m.u.qpinfo.len = 1 << 23;
	m.u.qpinfo.mtu = 4096;
	strcpy(m.u.qpinfo.host, "server");
	strcpy(m.u.qpinfo.mem_kind, "cuda");
	err |= put(argv[1], i++, &m);

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_RESULT;
	m.u.result = (struct gdr_result_wire){.bytes = 1 << 20,
					      .iters = 16,
					      .duration_s = 0.001,
					      .bw_peak_Bps = 1e9,
					      .bw_avg_Bps = 9e8,
					      .msg_rate_pps = 16000,
					      .note = "ok"};
	err |= put(argv[1], i++, &m);

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_REJECT;
	strcpy(m.u.reason, "mismatched options");
	err |= put(argv[1], i++, &m);

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_SYNC;
	m.u.sync.step = 3;
	m.u.sync.value = 42;
	err |= put(argv[1], i++, &m);
	for (t = GDR_MSG_ACCEPT; t <= GDR_MSG_BYE; t += GDR_MSG_BYE - GDR_MSG_ACCEPT) {
		memset(&m, 0, sizeof(m));
		m.type = t;
		err |= put(argv[1], i++, &m);
	}
	return err ? 1 : 0;
}

#endif
