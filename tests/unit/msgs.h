/* SPDX-License-Identifier: MIT */
/*
 * Sample exchange messages with non-trivial values in every field, shared by
 * the codec's unit test (t_xchg.c) and the fuzzer's seed corpus (fuzz_xchg.c).
 */
#ifndef GDR_TEST_MSGS_H
#define GDR_TEST_MSGS_H

#include <string.h>
#include "xchg.h"

static inline struct gdr_msg sample_hello(uint32_t nsizes)
{
	struct gdr_msg m = {.type = GDR_MSG_HELLO,
			    .u.hello = {.verb = GDR_VERB_SEND,
					.kind = GDR_KIND_LAT,
					.flags = GDR_HF_BIDIR | GDR_HF_STAGED | GDR_HF_RDMA_CM,
					.num_qps = 7,
					.tx_depth = 0x01020304,
					.rx_depth = 513,
					.cq_mod = 99,
					.inline_size = 220,
					.mtu = 4096,
					.iters = 0x0123456789abcdefULL,
					.warmup = 1000,
					.duration = 2.75,
					.stage_chunk = 1 << 20,
					.nsizes = nsizes,
					.host = "client-01.example",
					.token = "rails.1f2e.abc",
					.repeat = 3,
					.xport = "verbs"}};

	for (uint32_t i = 0; i < nsizes; i++)
		m.u.hello.sizes[i] = i % 2 ? GDR_MAX_MSG_SIZE - i : 1 + 3 * i;
	return m;
}

static inline struct gdr_msg sample_qpinfo(uint32_t nqp)
{
	struct gdr_msg m = {.type = GDR_MSG_QPINFO,
			    .u.qpinfo = {.nqp = nqp,
					 .key = 0xfedcba98deadbeefULL,
					 .addr = 0x7f0012345678ULL,
					 .len = 8ULL << 20,
					 .mtu = 1024,
					 .host = "server-b",
					 .mem_kind = "cuda",
					 .rd_atomic = 4}};

	/* blobs of 26 bytes (verbs'), then of every length up to GDR_WIRE_ADDR_MAX */
	for (uint32_t i = 0; i < nqp; i++) {
		struct gdr_wire_addr *a = &m.u.qpinfo.ep[i];

		a->len = (uint16_t)(i ? 1 + (i * 37) % GDR_WIRE_ADDR_MAX : 26);
		if (i == 1)
			a->len = GDR_WIRE_ADDR_MAX;
		for (uint32_t j = 0; j < a->len; j++)
			a->b[j] = (uint8_t)(i * 16 + j + 1);
	}
	return m;
}

static inline struct gdr_msg sample_result(void)
{
	struct gdr_msg m;

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_RESULT;
	m.u.result.status = 3;
	m.u.result.bytes = 5000ULL * 65536;
	m.u.result.iters = 5000;
	m.u.result.duration_s = 0.0276;
	m.u.result.bw_peak_Bps = 1.2345e10;
	m.u.result.bw_avg_Bps = 1.1e10;
	m.u.result.msg_rate_pps = 181234.5;
	strcpy(m.u.result.note, "completion error: retry exceeded");
	return m;
}

static inline struct gdr_msg sample_simple(uint16_t type)
{
	struct gdr_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	if (type == GDR_MSG_SYNC) {
		m.u.sync.step = 0x01020304;
		m.u.sync.value = 0x1122334455667788ULL;
	}
	if (type == GDR_MSG_REJECT)
		strcpy(m.u.reason, "size 2 GiB is above the 1 GiB limit of this server");
	return m;
}

#endif
