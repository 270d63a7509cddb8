/* SPDX-License-Identifier: MIT */
/*
 * Reading a plain links file, one cable a line (RoCE fabrics, from LLDP):
 *
 *   node1:eth2 leaf3:17        a host's netdev and its switch port
 *   leaf3:49 spine0:3          a switch-to-switch cable
 *
 * A name on the right of any line is a switch; a name on the left is a host
 * unless it is a switch (so a switch with no hosts is written on the right of
 * a line at least once). A host's rails follow its netdevs in the order listed.
 * `#` starts a comment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "fabric.h"
#include "log.h"

/* "name:port" split in place; port as text. 0 or -1. */
static int split(char *end, char **port)
{
	char *c = strrchr(end, ':');

	if (!c || c == end || !c[1])
		return -1;
	*c = 0;
	*port = c + 1;
	return 0;
}

static int port_num(const char *s, uint32_t *out)
{
	char *e;
	unsigned long v = strtoul(s, &e, 10);

	*out = *e || e == s ? 0 : (uint32_t)v; /* not a number ("Ethernet1/17"): 0 */
	return 0;
}

/* Pass 1: the right-hand names are switches. */
static int rights(struct gdr_fabric *f, char *text, const char *path)
{
	unsigned line = 0;

	for (char *p = text; *p;) {
		char *e = strchr(p, '\n'), a[160], b[160], *pb, *hash;
		int n;

		line++;
		if (e)
			*e = 0;
		hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		n = sscanf(p, "%159s %159s", a, b);
		if (hash)
			*hash = '#';
		if (n == 1 || (n == 2 && split(b, &pb))) {
			gdr_err("%s:%u: expected NAME:PORT NAME:PORT", path, line);
			return -1;
		}
		if (n == 2 && gdr_fab_switch(f, b) == GDR_FAB_NONE)
			return -1;
		if (e)
			*e = '\n';
		p = e ? e + 1 : p + strlen(p);
	}
	return 0;
}

static int cable(struct gdr_fabric *f, char *a, char *b, const char *path, unsigned line)
{
	char *pa, *pb;
	uint32_t na, nb, qa, qb;

	if (split(a, &pa) || split(b, &pb)) {
		gdr_err("%s:%u: expected NAME:PORT NAME:PORT", path, line);
		return -1;
	}
	nb = gdr_fab_switch(f, b);
	port_num(pb, &qb);
	na = gdr_fab_find_switch(f, a);
	if (na == GDR_FAB_NONE) { /* not a switch: a host's netdev */
		na = gdr_fab_add_nic(f, a, pa);
		if (na == GDR_FAB_NONE)
			return -1;
		na = GDR_FAB_NIC(na);
		qa = 1;
	} else {
		port_num(pa, &qa);
	}
	if (na == GDR_FAB_NONE || nb == GDR_FAB_NONE)
		return -1;
	return gdr_fab_connect(f, na, qa, nb, qb);
}

int gdr_fab_read_links(struct gdr_fabric *f, const char *path)
{
	char *text;
	unsigned line = 0;
	int rc = 0;

	if (gdr_read_text(path, &text))
		return -1;
	rc = rights(f, text, path);
	for (char *p = text; *p && !rc;) {
		char *e = strchr(p, '\n'), a[160], b[160], *hash;

		line++;
		if (e)
			*e = 0;
		hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		if (sscanf(p, "%159s %159s", a, b) == 2)
			rc = cable(f, a, b, path, line);
		p = e ? e + 1 : p + strlen(p);
	}
	if (!rc && !f->nlink) {
		gdr_err("%s: no cables", path);
		rc = -1;
	}
	free(text);
	return rc;
}
