/* SPDX-License-Identifier: MIT */
/*
 * The link's facts as the verbs transport knows them (struct gdr_xlink): the
 * port's rate from its speed and width, the active path MTU, what each packet
 * costs on the wire by link layer, the device's PCI address. Ceilings,
 * verdicts, --expect-bw and the report read c->link, not ibv_port_attr.
 */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "affinity.h"
#include "counters.h"
#include "ibdev.h"
#include "verbs.h"
#include "verbs_xp.h"

const char *gdr_link_layer_name(uint8_t ll)
{
	return ll == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand";
}

double gdr_vx_rate_gbps(unsigned speed, unsigned width)
{
	double lane, lanes;

	switch (speed) { /* enum ibv_port_attr.active_speed: data rate per lane */
	case 1:
		lane = 2;
		break; /* SDR: 2.5 Gb/s signalling, 8b/10b */
	case 2:
		lane = 4;
		break; /* DDR: 5, 8b/10b */
	case 4:
		lane = 8;
		break; /* QDR: 10, 8b/10b */
	case 8:
		lane = 10;
		break; /* FDR10 (Soft-RoCE reports this) */
	case 16:
		lane = 14.0625 * 64 / 66;
		break; /* FDR: 14.0625 Gb/s signalling, 64b/66b */
	case 32:
		lane = 25;
		break; /* EDR */
	case 64:
		lane = 50;
		break; /* HDR */
	case 128:
		lane = 100;
		break; /* NDR */
	case 256:
		lane = 200;
		break; /* XDR */
	default:
		return 0;
	}
	switch (width) { /* active_width */
	case 1:
		lanes = 1;
		break;
	case 2:
		lanes = 4;
		break;
	case 4:
		lanes = 8;
		break;
	case 8:
		lanes = 12;
		break;
	case 16:
		lanes = 2;
		break;
	default:
		return 0;
	}
	return lane * lanes;
}

unsigned gdr_vx_port_speed(const struct ibv_port_attr *a)
{
#ifdef HAVE_STRUCT_IBV_PORT_ATTR_ACTIVE_SPEED_EX
	if (a->active_speed_ex) /* XDR (256) reads as 0 in the 8-bit field */
		return a->active_speed_ex;
#endif
	return a->active_speed;
}

uint32_t gdr_vx_wire_overhead(bool ethernet, bool ipv6, bool grh, char *parts, size_t n)
{
	/* RoCE v2: preamble+SFD 8 and inter-frame gap 12, Ethernet 14, FCS 4, UDP 8 */
	unsigned ip = ipv6 ? 40 : 20, bth = 12, icrc = 4;

	if (ethernet) {
		if (parts)
			snprintf(parts, n,
				 "RoCE: preamble+SFD+IFG 20, Ethernet 14, %s %u, UDP 8, BTH 12, "
				 "ICRC 4, FCS 4",
				 ipv6 ? "IPv6" : "IPv4", ip);
		return 20 + 14 + ip + 8 + bth + icrc + 4;
	}
	if (parts)
		snprintf(parts, n, "InfiniBand: LRH 8, %sBTH 12, ICRC 4, VCRC 2",
			 grh ? "GRH 40, " : "");
	return 8 + (grh ? 40 : 0) + bth + icrc + 2; /* LRH, VCRC */
}

void gdr_vx_link_mtu(struct gdr_conn *c)
{
	static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	struct gdr_xlink *l = &c->link;
	bool eth = c->v->pattr.link_layer == IBV_LINK_LAYER_ETHERNET;

	l->mtu = c->v->mtu ? 128u << c->v->mtu : 0;
	l->wire_overhead =
	    gdr_vx_wire_overhead(eth, eth && memcmp(c->v->gid.raw, v4, sizeof(v4)),
				 !eth && c->o->gid_index >= 0, l->wire, sizeof(l->wire));
}

void gdr_vx_link_fill(struct gdr_conn *c)
{
	struct gdr_xlink *l = &c->link;
	char root[PATH_MAX];

	memset(l, 0, sizeof(*l));
	snprintf(l->dev, sizeof(l->dev), "%s", c->dev_name);
	snprintf(l->layer, sizeof(l->layer), "%s", gdr_link_layer_name(c->v->pattr.link_layer));
	l->rate_gbps = gdr_vx_rate_gbps(gdr_vx_port_speed(&c->v->pattr), c->v->pattr.active_width);
	if (l->rate_gbps <= 0 && c->dev_name[0]) /* a speed verbs has no code for: sysfs's */
		l->rate_gbps = gdr_port_rate_sysfs(c->dev_name, c->port);
	gdr_host_root(root, sizeof(root));
	if (!c->dev_name[0] || ib_dev_bdf(root, c->dev_name, l->pci, sizeof(l->pci)))
		l->pci[0] = '\0'; /* a software device (rxe, siw) has none */
	snprintf(l->what_ran, sizeof(l->what_ran), "device RMA");
	gdr_vx_link_mtu(c);
}
