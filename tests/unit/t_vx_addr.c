/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's address blob (src/transport/verbs/verbs_ctl.c): the exact
 * bytes at hand-computed offsets, a round trip through QPINFO's codec,
 * 24-bit QP numbers and PSNs on both sides, and blobs of another length
 * (another transport's) refused in one line; the peer's QPINFO read into a
 * path (a key beyond 32 bits refused).
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "conn.h"
#include "verbs_xp.h"
#include "xchg.h"

#include "check.h"

static const struct gdr_qp_wire sample = {
    .qpn = 0xabcdef,
    .psn = 0x123456,
    .lid = 0xbeef,
    .gid = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}};

static void layout(void)
{
	uint8_t b[GDR_XADDR_MAX];
	static const uint8_t want[GDR_VX_ADDR_LEN] = {
	    0xef, 0xcd, 0xab, 0, 0x56, 0x34, 0x12, 0, 0xef, 0xbe, /* qpn, psn, lid */
	    0xfe, 0x80, 0,    0, 0,    0,    0,	   0, 1,    2,	  3, 4, 5, 6, 7, 8};

	memset(b, 0xa5, sizeof(b));
	CHECK(gdr_vx_addr_encode(&sample, b, sizeof(b)) == GDR_VX_ADDR_LEN);
	CHECK(!memcmp(b, want, sizeof(want)), "the blob's bytes");
	CHECK(b[GDR_VX_ADDR_LEN] == 0xa5, "nothing written past the blob");
	CHECK(gdr_vx_addr_encode(&sample, b, GDR_VX_ADDR_LEN - 1) == 0, "no room");
	{
		struct gdr_qp_wire a = sample;

		a.qpn = 0x1000000;
		CHECK(gdr_vx_addr_encode(&a, b, sizeof(b)) == 0, "QPN beyond 24 bits");
		a = sample;
		a.psn = 0x1000000;
		CHECK(gdr_vx_addr_encode(&a, b, sizeof(b)) == 0, "PSN beyond 24 bits");
	}
}

static void decode(void)
{
	uint8_t b[GDR_XADDR_MAX] = {0};
	struct gdr_qp_wire a;
	char why[160] = "";

	gdr_vx_addr_encode(&sample, b, sizeof(b));
	CHECK(gdr_vx_addr_decode(b, GDR_VX_ADDR_LEN, &a, why, sizeof(why)) == 0, "%s", why);
	CHECK(a.qpn == sample.qpn && a.psn == sample.psn && a.lid == sample.lid &&
		  !memcmp(a.gid, sample.gid, 16),
	      "round trip");
	CHECK(gdr_vx_addr_decode(b, GDR_VX_ADDR_LEN + 1, &a, why, sizeof(why)) == -1);
	CHECK(strstr(why, "a 27-byte endpoint address, a verbs one has 26") != NULL, "%s", why);
	CHECK(gdr_vx_addr_decode(b, 8, &a, why, sizeof(why)) == -1, "an 8-byte blob");
	b[3] = 1; /* the QPN's top byte */
	CHECK(gdr_vx_addr_decode(b, GDR_VX_ADDR_LEN, &a, why, sizeof(why)) == -1);
	CHECK(strstr(why, "beyond 24 bits") != NULL, "%s", why);
	b[3] = 0;
	b[7] = 0x80; /* the PSN's top byte */
	CHECK(gdr_vx_addr_decode(b, GDR_VX_ADDR_LEN, &a, why, sizeof(why)) == -1, "PSN");
}

/* A QPINFO of blobs through the codec, then read into a path as the session does. */
static void through_qpinfo(void)
{
	static uint8_t frame[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	struct gdr_msg m = {.type = GDR_MSG_QPINFO}, out;
	struct gdr_vconn v = {0};
	struct gdr_conn c = {.nqp = 3, .v = &v};
	struct gdr_path *p = &c.path[0];
	struct gdr_qpinfo *q = &m.u.qpinfo;
	size_t n;

	*q = (struct gdr_qpinfo){.nqp = 3,
				 .key = 0x89abcdef,
				 .addr = 4096,
				 .len = 8192,
				 .mtu = 1024,
				 .host = "peer",
				 .mem_kind = "host",
				 .rd_atomic = 16};
	snprintf(c.oob.peer, sizeof(c.oob.peer), "peer-q");
	for (uint32_t i = 0; i < 3; i++) {
		struct gdr_qp_wire a = sample;

		a.qpn += i;
		a.psn -= i;
		q->ep[i].len = (uint16_t)gdr_vx_addr_encode(&a, q->ep[i].b, sizeof(q->ep[i].b));
	}
	n = gdr_msg_encode(&m, frame, sizeof(frame));
	CHECK(n == GDR_FRAME_HDR + 116 + 3 * 130);
	CHECK(gdr_msg_decode(frame, n, &out) == 0);
	p->remote = out.u.qpinfo;
	CHECK(gdr_vx_path_remote(&c, p) == 0);
	CHECK(v.path[0].peer[2].qpn == sample.qpn + 2 && v.path[0].peer[2].psn == sample.psn - 2 &&
		  v.path[0].peer[1].lid == sample.lid && v.path[0].peer[0].gid[15] == 8,
	      "each QP's address");
	p->remote.key = 0x100000000ULL; /* another transport's 64-bit key */
	CHECK(gdr_vx_path_remote(&c, p) == -1, "a key beyond 32 bits");
	p->remote.key = 1;
	p->remote.ep[1].len = 40; /* another transport's blob */
	CHECK(gdr_vx_path_remote(&c, p) == -1, "a 40-byte blob");
}

int main(void)
{
	layout();
	decode();
	through_qpinfo();
	return CHECK_DONE();
}
