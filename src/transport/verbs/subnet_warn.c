/* SPDX-License-Identifier: MIT */
/* The session's warning when this side's GID and the peer's are on different subnets. */
#include "config.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "gid_subnet.h"
#include "log.h"
#include "verbs.h"

/*
 * The two ends' GIDs on different subnets: say so once (auto-pick, or -x on
 * either side), unless both are IPv4 and an L3-routed fabric carries them
 * (a /31 to the leaf, or a gateway route out of this GID's interface).
 */
void gdr_vx_warn_subnets(const struct gdr_conn *c, const struct gdr_path *path)
{
	static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	const uint8_t *g = c->v->gid.raw, *p = gdr_vp(c, path)->peer[0].gid;
	uint32_t ip = (uint32_t)g[12] << 24 | (uint32_t)g[13] << 16 | (uint32_t)g[14] << 8 | g[15];
	uint32_t pip = (uint32_t)p[12] << 24 | (uint32_t)p[13] << 16 | (uint32_t)p[14] << 8 | p[15];
	bool both4 = !memcmp(g, v4, sizeof(v4)) && !memcmp(p, v4, sizeof(v4));
	char why[96], ifn[64] = "", route[128] = "";
	uint32_t mask;

	if (c->o->rdma_cm || c->v->pattr.link_layer != IBV_LINK_LAYER_ETHERNET)
		return; /* rdma_cm resolves the route itself; IB routes by LID */
	mask = gdr_ipv4_netmask(ip, ifn, sizeof(ifn));
	if (!gdr_gid_subnets_differ(g, p, mask, why, sizeof(why)))
		return;
	if (both4 && gdr_ipv4_routed(mask, "/proc/net/route", ifn, pip))
		return; /* routed RoCE: the subnets differ by design */
	if (both4)
		snprintf(route, sizeof(route), " and no gateway route out of %s reaches the peer",
			 ifn[0] ? ifn : "this side's interface");
	gdr_warn("GID index %d%s and %s's GID are on different subnets (%s)%s: the traffic may "
		 "not route; give -x on both sides with GIDs of one subnet",
		 c->gid_index, c->o->gid_index < 0 ? " (picked automatically)" : "", c->oob.peer,
		 why, route);
}
