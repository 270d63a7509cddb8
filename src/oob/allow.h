/* SPDX-License-Identifier: MIT */
/* --allow: the networks a server accepts connections from (CIDR list). */
#ifndef GDR_ALLOW_H
#define GDR_ALLOW_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#define GDR_ALLOW_MAX 16

struct gdr_allow {
	int n; /* 0: every address */
	struct {
		int family; /* AF_INET or AF_INET6 */
		uint8_t addr[16];
		int bits;
	} net[GDR_ALLOW_MAX];
};

/* Parse "10.0.0.0/8,192.168.1.5,fd00::/8" (NULL: allow all). 0, or -1 with the error printed. */
int gdr_allow_parse(struct gdr_allow *a, const char *list);
/* Whether a peer at sa may connect (IPv4 clients of an IPv6 socket match IPv4 networks). */
bool gdr_allow_match(const struct gdr_allow *a, const struct sockaddr *sa);

#endif
