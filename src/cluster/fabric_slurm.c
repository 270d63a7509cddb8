/* SPDX-License-Identifier: MIT */
/*
 * Reading Slurm's topology.conf (topology/tree):
 *
 *   SwitchName=leaf0 Nodes=gpu[001-032]
 *   SwitchName=spine0 Switches=leaf[0-7]
 *
 * It names the tree, not the cables: one cable per switch and child, ports
 * numbered in the order listed, and each host `rails` NICs (rail0, rail1, ...)
 * on its leaf. Host lists as Slurm writes them: a[1-3,7],b, zero padding kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "fabric.h"
#include "log.h"

struct slurm {
	struct gdr_fabric *f;
	const char *path;
	unsigned line, rails;
	uint32_t sw;	/* the SwitchName of the line */
	int hosts;	/* Nodes= (else Switches=) */
	uint32_t *port; /* next port of each switch */
	uint32_t cap_port;
};

static uint32_t next_port(struct slurm *s, uint32_t sw)
{
	if (sw >= s->cap_port) {
		uint32_t c = (sw + 1) * 2, *g = realloc(s->port, c * sizeof(*g));

		if (!g)
			return 0;
		memset(g + s->cap_port, 0, (c - s->cap_port) * sizeof(*g));
		s->port = g;
		s->cap_port = c;
	}
	return ++s->port[sw];
}

/* One expanded name: a child of the line's switch. */
static int child(struct slurm *s, const char *name)
{
	char dev[16];
	uint32_t w, n;

	if (!s->hosts) {
		w = gdr_fab_switch(s->f, name);
		if (w == GDR_FAB_NONE)
			return -1;
		return gdr_fab_connect(s->f, s->sw, next_port(s, s->sw), w, next_port(s, w));
	}
	for (unsigned r = 0; r < s->rails; r++) {
		snprintf(dev, sizeof(dev), "rail%u", r);
		n = gdr_fab_add_nic(s->f, name, dev);
		if (n == GDR_FAB_NONE ||
		    gdr_fab_connect(s->f, s->sw, next_port(s, s->sw), GDR_FAB_NIC(n), 1))
			return -1;
	}
	return 0;
}

/* Expand "pre[a-b,c]rest" (the first bracket, then the rest recursively). */
static int expand(struct slurm *s, const char *pre, size_t plen, const char *spec)
{
	char buf[256];
	const char *lb = strchr(spec, '['), *rb;

	if (!lb) {
		if (plen + strlen(spec) >= sizeof(buf))
			goto bad;
		memcpy(buf, pre, plen);
		memcpy(buf + plen, spec, strlen(spec) + 1);
		return child(s, buf);
	}
	rb = strchr(lb, ']');
	if (!rb || plen + (size_t)(lb - spec) >= 128)
		goto bad;
	for (const char *r = lb + 1; r < rb;) {
		char *end;
		unsigned long a = strtoul(r, &end, 10), b = a;
		int width = (int)(end - r);

		if (end == r)
			goto bad;
		if (*end == '-') {
			const char *r2 = end + 1;

			b = strtoul(r2, &end, 10);
			if (end == r2 || b < a || b - a > 1000000)
				goto bad;
		}
		if (*end != ',' && end != rb)
			goto bad;
		for (unsigned long k = a; k <= b; k++) {
			char head[160];
			int hl = snprintf(head, sizeof(head), "%.*s%.*s%0*lu", (int)plen, pre,
					  (int)(lb - spec), spec, width, k);

			if (hl < 0 || (size_t)hl >= sizeof(head) ||
			    expand(s, head, (size_t)hl, rb + 1))
				return -1;
		}
		r = end + (*end == ',');
	}
	return 0;
bad:
	gdr_err("%s:%u: cannot read the host list '%s'", s->path, s->line, spec);
	return -1;
}

/* "a[1-2],b[3]": split at commas outside brackets. */
static int list(struct slurm *s, char *v)
{
	int depth = 0;
	char *start = v;

	for (char *p = v;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if ((*p == ',' && !depth) || !*p) {
			char c = *p;

			*p = 0;
			if (*start && expand(s, "", 0, start))
				return -1;
			if (!c)
				return 0;
			start = p + 1;
		}
	}
}

static int one_line(struct slurm *s, char *p)
{
	char *tok, *save, *nodes = NULL, *sws = NULL, *name = NULL;

	for (tok = strtok_r(p, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		if (!strncmp(tok, "SwitchName=", 11))
			name = tok + 11;
		else if (!strncmp(tok, "Nodes=", 6))
			nodes = tok + 6;
		else if (!strncmp(tok, "Switches=", 9))
			sws = tok + 9;
	}
	if (!name && !nodes && !sws)
		return 0;
	if (!name || !*name) {
		gdr_err("%s:%u: a line without SwitchName=", s->path, s->line);
		return -1;
	}
	s->sw = gdr_fab_switch(s->f, name);
	if (s->sw == GDR_FAB_NONE)
		return -1;
	s->hosts = 1;
	if (nodes && list(s, nodes))
		return -1;
	s->hosts = 0;
	return sws ? list(s, sws) : 0;
}

int gdr_fab_read_slurm(struct gdr_fabric *f, const char *path, unsigned rails)
{
	struct slurm s = {f, path, 0, rails ? rails : 1, 0, 0, NULL, 0};
	char *text, *p, *e;
	int rc = 0;

	if (gdr_read_text(path, &text))
		return -1;
	for (p = text; *p && !rc; p = e ? e + 1 : p + strlen(p)) {
		char *hash;

		s.line++;
		e = strchr(p, '\n');
		if (e)
			*e = 0;
		hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		rc = one_line(&s, p);
	}
	if (!rc && !f->nsw) {
		gdr_err("%s: no SwitchName= lines: not a topology.conf", path);
		rc = -1;
	}
	free(s.port);
	free(text);
	return rc;
}
