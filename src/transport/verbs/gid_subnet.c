/* SPDX-License-Identifier: MIT */
/* GID subnets of the two ends (gid_subnet.h). */
#include "config.h"
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "gid_subnet.h"

static bool v4_mapped(const uint8_t g[16])
{
	static const uint8_t pre[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	return !memcmp(g, pre, sizeof(pre));
}

static uint32_t v4_of(const uint8_t g[16])
{
	return (uint32_t)g[12] << 24 | (uint32_t)g[13] << 16 | (uint32_t)g[14] << 8 | g[15];
}

int gdr_gid_subnets_differ(const uint8_t mine[16], const uint8_t peer[16], uint32_t v4mask,
			   char *why, size_t n)
{
	bool m4 = v4_mapped(mine), p4 = v4_mapped(peer);

	if (m4 != p4) {
		snprintf(why, n, "this side's GID is %s, the peer's %s", m4 ? "IPv4" : "IPv6",
			 p4 ? "IPv4" : "IPv6");
		return 1;
	}
	if (m4) {
		uint32_t a = v4_of(mine), b = v4_of(peer);

		if (!v4mask || (a & v4mask) == (b & v4mask))
			return 0;
		snprintf(why, n, "%u.%u.%u.%u and %u.%u.%u.%u are not in one /%d subnet", a >> 24,
			 a >> 16 & 255, a >> 8 & 255, a & 255, b >> 24, b >> 16 & 255, b >> 8 & 255,
			 b & 255, __builtin_popcount(v4mask));
		return 1;
	}
	if (!memcmp(mine, peer, 8))
		return 0;
	snprintf(why, n, "the GIDs' 64-bit subnet prefixes differ");
	return 1;
}

uint32_t gdr_ipv4_netmask(uint32_t ip, char *ifname, size_t n)
{
	struct ifaddrs *ifs, *i;
	uint32_t mask = 0;

	if (getifaddrs(&ifs))
		return 0;
	for (i = ifs; i && !mask; i = i->ifa_next) {
		const struct sockaddr_in *a = (const void *)i->ifa_addr;
		const struct sockaddr_in *m = (const void *)i->ifa_netmask;

		if (a && m && a->sin_family == AF_INET && ntohl(a->sin_addr.s_addr) == ip) {
			mask = ntohl(m->sin_addr.s_addr);
			if (ifname && n)
				snprintf(ifname, n, "%s", i->ifa_name);
		}
	}
	freeifaddrs(ifs);
	return mask;
}

int gdr_ipv4_routed(uint32_t mask, const char *route_file, const char *ifname, uint32_t dst)
{
	char line[256], ifn[64], best[64] = "";
	unsigned long d, gw, fl, msk;
	int metric, best_len = -1, best_metric = 0;
	bool best_gw = false;
	uint32_t dn = htonl(dst); /* the file prints each address as its in_addr word, in hex */
	FILE *f;

	if (mask && __builtin_popcount(mask) >= 30)
		return 1; /* a point-to-point link to the leaf: only routing reaches anyone */
	f = route_file ? fopen(route_file, "r") : NULL;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		int len;

		/* Iface Destination Gateway Flags RefCnt Use Metric Mask ... (a header first) */
		if (sscanf(line, "%63s %lx %lx %lx %*d %*d %d %lx", ifn, &d, &gw, &fl, &metric,
			   &msk) != 6 ||
		    !(fl & 1) || (dn & (uint32_t)msk) != (uint32_t)d)
			continue; /* a header, a route that is down, or not matching */
		len = __builtin_popcount((uint32_t)msk);
		if (len > best_len || (len == best_len && metric < best_metric)) {
			best_len = len;
			best_metric = metric;
			best_gw = fl & 2; /* RTF_GATEWAY */
			snprintf(best, sizeof(best), "%s", ifn);
		}
	}
	fclose(f);
	return best_len >= 0 && best_gw && ifname && !strcmp(best, ifname);
}
