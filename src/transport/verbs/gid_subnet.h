/* SPDX-License-Identifier: MIT */
/*
 * Whether this side's GID and the peer's are on one subnet: an auto-picked
 * GID index (no -x) can choose addresses of different subnets on the two
 * ends (a NIC with several IP addresses), and RoCE then may not route.
 */
#ifndef GDR_GID_SUBNET_H
#define GDR_GID_SUBNET_H

#include <stddef.h>
#include <stdint.h>

/*
 * 1 when mine and peer's GIDs are on different subnets, and why in why (one
 * phrase): one IPv4-mapped and the other not; both IPv4 and different under
 * v4mask (this side's netmask of its address, host order; 0 = unknown, no
 * verdict); both IPv6 (or IB) with different 64-bit prefixes. Else 0 (pure).
 */
int gdr_gid_subnets_differ(const uint8_t mine[16], const uint8_t peer[16], uint32_t v4mask,
			   char *why, size_t n);
/*
 * The netmask of the local interface holding IPv4 address ip (host order
 * both), and that interface's name into ifname (may be NULL); 0: none.
 */
uint32_t gdr_ipv4_netmask(uint32_t ip, char *ifname, size_t n);

/*
 * Whether an L3-routed RoCE fabric carries the traffic to dst (host order)
 * although the two GIDs' subnets differ: this side's address is on a
 * point-to-point link to its leaf (mask /30, /31 or /32), or route_file
 * (/proc/net/route's format) sends dst through a gateway out of ifname (its
 * longest matching prefix, then lowest metric). 1 routed, 0 not known to be.
 */
int gdr_ipv4_routed(uint32_t mask, const char *route_file, const char *ifname, uint32_t dst);

#endif
