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
/* The netmask of the local interface holding IPv4 address ip (host order both); 0: none. */
uint32_t gdr_ipv4_netmask(uint32_t ip);

#endif
