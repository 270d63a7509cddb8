/* SPDX-License-Identifier: MIT */
/* --allow: parsing a CIDR list and matching a peer's address against it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include "allow.h"
#include "log.h"

static int parse_one(const char *s, size_t len, int *family, uint8_t *addr, int *bits)
{
	char buf[64], *slash, *end;
	long b;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = 0;
	if (inet_pton(AF_INET, buf, addr) == 1)
		*family = AF_INET;
	else if (inet_pton(AF_INET6, buf, addr) == 1)
		*family = AF_INET6;
	else
		return -1;
	*bits = *family == AF_INET ? 32 : 128;
	if (!slash)
		return 0;
	if (*slash < '0' || *slash > '9')
		return -1;
	b = strtol(slash, &end, 10);
	if (*end || b > *bits)
		return -1;
	*bits = (int)b;
	return 0;
}

int gdr_allow_parse(struct gdr_allow *a, const char *list)
{
	const char *p = list;

	memset(a, 0, sizeof(*a));
	if (!list)
		return 0;
	for (;;) {
		size_t n = strcspn(p, ",");

		if (a->n == GDR_ALLOW_MAX) {
			gdr_err("--allow: more than %d networks", GDR_ALLOW_MAX);
			return -1;
		}
		if (parse_one(p, n, &a->net[a->n].family, a->net[a->n].addr, &a->net[a->n].bits)) {
			gdr_err("--allow: '%.*s' is not an address or network (use e.g. "
				"10.0.0.0/8,192.168.1.5,fd00::/8)",
				(int)(n < 64 ? n : 64), p);
			return -1;
		}
		a->n++;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static bool prefix_eq(const uint8_t *x, const uint8_t *y, int bits)
{
	int whole = bits / 8, rest = bits % 8;

	if (memcmp(x, y, (size_t)whole))
		return false;
	return !rest || !((x[whole] ^ y[whole]) & (uint8_t)(0xff << (8 - rest)));
}

bool gdr_allow_match(const struct gdr_allow *a, const struct sockaddr *sa)
{
	static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	uint8_t v4[4], v6[16];
	bool has4 = false, has6 = false;

	if (!a->n)
		return true;
	if (sa->sa_family == AF_INET) {
		memcpy(v4, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
		has4 = true;
	} else if (sa->sa_family == AF_INET6) {
		memcpy(v6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
		has6 = true;
		if (!memcmp(v6, v4mapped, 12)) {
			memcpy(v4, v6 + 12, 4);
			has4 = true;
		}
	}
	for (int i = 0; i < a->n; i++) {
		if (a->net[i].family == AF_INET && has4 &&
		    prefix_eq(v4, a->net[i].addr, a->net[i].bits))
			return true;
		if (a->net[i].family == AF_INET6 && has6 &&
		    prefix_eq(v6, a->net[i].addr, a->net[i].bits))
			return true;
	}
	return false;
}
