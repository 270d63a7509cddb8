/* SPDX-License-Identifier: MIT */
/*
 * QP attributes: -o lowered to the device's limits (default at most 16),
 * the ack timeout 4.096 us x 2^N against values worked out by hand, and the
 * header phrase.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "conn.h"
#include "gid_subnet.h"
#include "qp_attrs.h"

#include "check.h"
#include "verbs.h"

static void outs(void)
{
	CHECK(gdr_outs_choose(0, 128, 128) == 16, "default is 16 when the device allows it");
	CHECK(gdr_outs_choose(0, 4, 128) == 4, "default lowered to the responder limit");
	CHECK(gdr_outs_choose(0, 128, 2) == 2, "default lowered to the initiator limit");
	CHECK(gdr_outs_choose(64, 128, 128) == 64, "-o 64 kept when allowed");
	CHECK(gdr_outs_choose(64, 16, 0) == 16, "-o 64 lowered to 16");
	CHECK(gdr_outs_choose(1, 16, 16) == 1);
	CHECK(gdr_outs_choose(0, 0, 0) == 1, "a device reporting 0 still gets 1");
	CHECK(gdr_outs_choose(255, 1000, 1000) == 255, "the attribute is 8 bits");
}

/* -o exchanged: this side issues no more than the peer's responder resources (as rdma_cm). */
static void init_depth(void)
{
	CHECK(gdr_init_depth(16, 4) == 4, "client -o 16 against a server -o 4 issues 4");
	CHECK(gdr_init_depth(4, 16) == 4, "server -o 4 keeps its own 4 against a client's 16");
	CHECK(gdr_init_depth(8, 8) == 8);
	CHECK(gdr_init_depth(16, 0) == 16, "0: nothing advertised, own value kept");
}

/* --qp_addr: perftest's two lines per side, fixed-width hex, the GID in 16-bit groups. */
static void addr_line(void)
{
	uint8_t gid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 9, 0, 1};
	char b[256];

	gdr_qp_addr_line(b, sizeof(b), "local", 0, 0x11, 0x5e3a7b, 0x1234, 0x7f0012345000ULL, gid);
	CHECK(!strcmp(b, " local address: LID 0x0000 QPN 0x000011 PSN 0x5e3a7b RKey 0x00001234 "
			 "VAddr 0x00007f0012345000\n"
			 " GID: 0000:0000:0000:0000:0000:ffff:0a09:0001\n"),
	      "%s", b);
	gdr_qp_addr_line(b, 40, "remote", 1, 2, 3, 4, 5, gid);
	CHECK(strlen(b) == 39, "truncated, terminated");
}

/* Atomic tests refuse a device without atomics (a fake attribute block); others run. */
static void atomic_cap(void)
{
	struct ibv_device_attr da = {.atomic_cap = IBV_ATOMIC_NONE};
	struct gdr_opts o = {.verb = GDR_VERB_ATOMIC};
	const char *why = gdr_dev_refusal(&da, &o);

	CHECK(why && strstr(why, "IBV_ATOMIC_NONE"), "%s", why ? why : "(accepted)");
	da.atomic_cap = IBV_ATOMIC_HCA;
	CHECK(!gdr_dev_refusal(&da, &o), "HCA-wide atomics are enough");
	da.atomic_cap = IBV_ATOMIC_GLOB;
	CHECK(!gdr_dev_refusal(&da, &o));
	da.atomic_cap = IBV_ATOMIC_NONE;
	o.verb = GDR_VERB_READ;
	CHECK(!gdr_dev_refusal(&da, &o), "reads need no atomics");
}

/* The header says what the CQ flag really does: ibv_poll_cq keeps libmlx5's lock. */
static void cq_text(void)
{
	CHECK(
	    strstr(gdr_cq_describe(true), "extended poll API only") &&
	    strstr(gdr_cq_describe(true), "ibv_poll_cq, used here, keeps the provider's CQ lock"));
	CHECK(!strstr(gdr_cq_describe(true), "single-threaded CQs"), "the old, wrong claim");
	CHECK(!strcmp(gdr_cq_describe(false), "CQs with the provider's lock"));
}

/* GIDs of the two ends: one subnet, or why not (IPv4 under this side's netmask, IPv6 prefix). */
static void subnets(void)
{
	uint8_t a[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 9, 0, 1};
	uint8_t b[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 9, 0, 2};
	uint8_t l6[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
	uint8_t m6[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9};
	char why[96] = "";

	CHECK(!gdr_gid_subnets_differ(a, b, 0xffffff00, why, sizeof(why)), "10.9.0.1/24, .2");
	b[13] = 8;
	CHECK(gdr_gid_subnets_differ(a, b, 0xffffff00, why, sizeof(why)) &&
		  !strcmp(why, "10.9.0.1 and 10.8.0.2 are not in one /24 subnet"),
	      "%s", why);
	CHECK(!gdr_gid_subnets_differ(a, b, 0xff000000, why, sizeof(why)), "one /8");
	CHECK(!gdr_gid_subnets_differ(a, b, 0, why, sizeof(why)), "mask unknown: no verdict");
	CHECK(gdr_gid_subnets_differ(a, l6, 0xffffff00, why, sizeof(why)) &&
		  strstr(why, "IPv4, the peer's IPv6"),
	      "%s", why);
	CHECK(!gdr_gid_subnets_differ(l6, m6, 0, why, sizeof(why)), "one fe80::/64");
	m6[1] = 0x81;
	CHECK(gdr_gid_subnets_differ(l6, m6, 0, why, sizeof(why)), "prefixes differ");
}

/*
 * Routed RoCE (issue 32.16): a NIC on a /31 to its leaf reaches every peer
 * through a router, so different subnets are no warning there; nor where the
 * best route to the peer leaves through this GID's interface via a gateway.
 * A route out of another interface (the management network's default) is
 * not RoCE's route.
 */
static void routed(void)
{
	char path[] = "/tmp/t_qp_attrs.route.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	uint32_t peer = 10u << 24 | 1u << 16 | 2u << 8 | 7; /* 10.1.2.7 */

	CHECK(f != NULL);
	if (!f)
		return;
	/* /proc/net/route: addresses as their in_addr words in hex (x86: bytes reversed) */
	fputs(
	    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
	    "eno1\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
	    "eno1\t0000A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
	    "ens1f0\t0000000A\t0100000A\t0003\t0\t0\t0\t000000FF\t0\t0\t0\n"
	    "ens1f0\t0000000A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n",
	    f);
	fclose(f);
	CHECK(gdr_ipv4_routed(0xfffffffe, NULL, "ens1f0", peer), "a /31: routed by design");
	CHECK(gdr_ipv4_routed(0xfffffffc, NULL, "ens1f0", peer), "a /30 too");
	CHECK(gdr_ipv4_routed(0xffffff00, path, "ens1f0", peer),
	      "10.0.0.0/8 via 10.0.0.1 on ens1f0");
	CHECK(!gdr_ipv4_routed(0xffffff00, path, "ens1f1", peer), "the route is another NIC's");
	peer = 10u << 24 | 9; /* 10.0.0.9: on ens1f0's /16 link itself, no gateway */
	CHECK(!gdr_ipv4_routed(0xffffff00, path, "ens1f0", peer), "on-link /16, not routed");
	peer = 172u << 24 | 16u << 16 | 1; /* only the default route, out of eno1 */
	CHECK(!gdr_ipv4_routed(0xffffff00, path, "ens1f0", peer), "default via eno1");
	CHECK(gdr_ipv4_routed(0xffffff00, path, "eno1", peer), "default via eno1, eno1's GID");
	CHECK(!gdr_ipv4_routed(0xffffff00, "/nonexistent", "ens1f0", peer), "no table: not known");
	unlink(path);
}

static void timeout(void)
{
	/* 4.096 us x 2^14 = 67.108864 ms; x 2^31 = 8796.09 s; 0 = infinite */
	CHECK(fabs(gdr_qp_timeout_s(14) - 0.067108864) < 1e-12, "%g", gdr_qp_timeout_s(14));
	CHECK(fabs(gdr_qp_timeout_s(1) - 8.192e-6) < 1e-15);
	CHECK(fabs(gdr_qp_timeout_s(31) - 8796.093022208) < 1e-6);
	CHECK(gdr_qp_timeout_s(0) == 0);
	CHECK(gdr_qp_timeout_s(32) == 0, "out of range is no timeout, not a shift overflow");
}

static void desc(void)
{
	struct gdr_opts o = {.tclass = 106, .sl = 3, .qp_timeout = 14};
	char d[200];

	gdr_qp_attrs_desc(&o, 16, d, sizeof(d));
	CHECK(!strcmp(d, "traffic class 106, SL 3, QP timeout 14 (67.1 ms), "
			 "16 outstanding reads/atomics"),
	      "%s", d);
	o.qp_timeout = 0;
	o.source_ip = "10.9.0.1";
	gdr_qp_attrs_desc(&o, 1, d, sizeof(d));
	CHECK(strstr(d, "QP timeout 0 (none)") && strstr(d, ", source 10.9.0.1"), "%s", d);
	o.qp_timeout = 20;
	gdr_qp_attrs_desc(&o, 1, d, sizeof(d));
	CHECK(strstr(d, "QP timeout 20 (4.29 s)"), "%s", d);
	gdr_qp_attrs_desc(&o, 1, d, 8);
	CHECK(strlen(d) == 7, "truncated, terminated");
}

int main(void)
{
	outs();
	init_depth();
	addr_line();
	atomic_cap();
	cq_text();
	subnets();
	routed();
	timeout();
	desc();
	return CHECK_DONE();
}
