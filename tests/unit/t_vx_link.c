/* SPDX-License-Identifier: MIT */
/*
 * The link's facts the verbs transport fills (src/transport/verbs/verbs_link.c):
 * rates from active_speed x active_width (every figure worked out by hand),
 * the per-packet overhead by link layer with its parts, and c->link from a
 * port's attributes (the layer, rate, path MTU and overhead ceilings and
 * verdicts read), again when the path MTU changes.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "conn.h"
#include "verbs_xp.h"
#include "verdict.h"

#include "check.h"

static void rates(void)
{
	CHECK(gdr_vx_rate_gbps(8, 1) == 10, "Soft-RoCE: 1X FDR10");
	CHECK(gdr_vx_rate_gbps(32, 2) == 100, "4X EDR");
	CHECK(gdr_vx_rate_gbps(128, 2) == 400, "4X NDR");
	CHECK(gdr_vx_rate_gbps(64, 2) == 200, "4X HDR");
	CHECK(fabs(gdr_vx_rate_gbps(16, 2) - 4 * 14.0625 * 64 / 66) < 1e-9, "4X FDR: 54.5 of data");
	CHECK(gdr_vx_rate_gbps(4, 2) == 32 && gdr_vx_rate_gbps(1, 1) == 2, "QDR, SDR: 8b/10b");
	CHECK(gdr_vx_rate_gbps(256, 2) == 800, "4X XDR");
	CHECK(gdr_vx_rate_gbps(3, 2) == 0, "an unknown speed has no rate");
	CHECK(gdr_vx_rate_gbps(32, 3) == 0, "an unknown width has no rate");
	/* the 8-bit field, or active_speed_ex where the verbs have it (XDR reads 0 in the other) */
	{
		struct ibv_port_attr a = {.active_speed = 128};

		CHECK(gdr_vx_port_speed(&a) == 128, "NDR: %u", gdr_vx_port_speed(&a));
#ifdef HAVE_STRUCT_IBV_PORT_ATTR_ACTIVE_SPEED_EX
		a.active_speed = 0;
		a.active_speed_ex = 256;
		CHECK(gdr_vx_port_speed(&a) == 256, "XDR through active_speed_ex: %u",
		      gdr_vx_port_speed(&a));
#endif
	}
}

static void overheads(void)
{
	char parts[128], d[256];
	uint32_t o = gdr_vx_wire_overhead(true, false, false, parts, sizeof(parts));
	struct gdr_wire w = {.mtu = 1024, .overhead = o, .parts = parts};

	/* RoCE v2 over IPv4: 20 + 14 + 20 + 8 + 12 + 4 + 4 = 82 B around each packet */
	CHECK(o == 82, "%u", o);
	gdr_wire_payload(&w, d, sizeof(d));
	CHECK(!strcmp(d, "MTU 1024: 1024 B per 1106 B on the wire (RoCE: preamble+SFD+IFG 20, "
			 "Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4) = 92.6%"),
	      "%s", d);
	o = gdr_vx_wire_overhead(true, true, false, parts, sizeof(parts));
	CHECK(o == 102 && strstr(parts, "IPv6 40"), "%u %s", o, parts);
	/* InfiniBand, LID-routed: LRH 8, BTH 12, ICRC 4, VCRC 2; a GRH adds 40 */
	o = gdr_vx_wire_overhead(false, false, false, parts, sizeof(parts));
	CHECK(o == 26 && !strcmp(parts, "InfiniBand: LRH 8, BTH 12, ICRC 4, VCRC 2"), "%u %s", o,
	      parts);
	CHECK(gdr_vx_wire_overhead(false, false, true, NULL, 0) == 66);
}

static void fill(void)
{
	struct gdr_opts o = {.gid_index = -1};
	struct gdr_vconn v = {.mtu = IBV_MTU_1024};
	struct gdr_conn c = {.o = &o, .port = 1, .v = &v};
	static const uint8_t v4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 9, 0, 1};

	snprintf(c.dev_name, sizeof(c.dev_name), "nosuch9"); /* no sysfs: no PCI address */
	v.pattr = (struct ibv_port_attr){
	    .link_layer = IBV_LINK_LAYER_ETHERNET, .active_speed = 8, .active_width = 1};
	memcpy(v.gid.raw, v4, sizeof(v4));
	gdr_vx_link_fill(&c);
	CHECK(!strcmp(c.link.dev, "nosuch9") && !strcmp(c.link.layer, "Ethernet"), "%s %s",
	      c.link.dev, c.link.layer);
	CHECK(c.link.rate_gbps == 10 && c.link.mtu == 1024 && c.link.wire_overhead == 82,
	      "%g Gb/s, MTU %u, %u B", c.link.rate_gbps, c.link.mtu, c.link.wire_overhead);
	CHECK(strstr(c.link.wire, "IPv4 20") && !c.link.pci[0] && c.link.what_ran[0], "%s",
	      c.link.wire);
	v.mtu = IBV_MTU_4096; /* the path MTU both sides take */
	gdr_vx_link_mtu(&c);
	CHECK(c.link.mtu == 4096 && c.link.rate_gbps == 10, "%u", c.link.mtu);
	/* InfiniBand with a GID given (-x): a GRH on every packet */
	o.gid_index = 0;
	v.pattr = (struct ibv_port_attr){
	    .link_layer = IBV_LINK_LAYER_INFINIBAND, .active_speed = 128, .active_width = 2};
	gdr_vx_link_fill(&c);
	CHECK(!strcmp(c.link.layer, "InfiniBand") && c.link.rate_gbps == 400 &&
		  c.link.wire_overhead == 66 && c.link.mtu == 4096,
	      "%s %g %u %u", c.link.layer, c.link.rate_gbps, c.link.wire_overhead, c.link.mtu);
}

int main(void)
{
	rates();
	overheads();
	fill();
	return CHECK_DONE();
}
