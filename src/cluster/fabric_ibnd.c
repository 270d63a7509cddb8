/* SPDX-License-Identifier: MIT */
/*
 * Reading ibnetdiscover's topology text (its default output):
 *
 *   Switch	36 "S-0002c90300a1b2c3"		# "leaf1" enhanced port 0 lid 4 lmc 0
 *   [1]	"H-0002c90300000001"[1](2c90300000002)		# "node1 mlx5_0" lid 3 4xHDR
 *   Ca	1 "H-0002c90300000001"		# "node1 mlx5_0"
 *   [1](2c90300000002)	"S-0002c90300a1b2c3"[1]		# lid 3 lmc 0 "leaf1" lid 4 4xHDR
 *
 * A switch is named by its description (its GUID id when two share one), an
 * HCA port by its description "HOST DEVICE" (port 2 and up: DEVICE:PORT).
 * Every cable is listed at both ends; each is kept once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "fabric.h"
#include "log.h"

struct ibnode {
	char id[GDR_FAB_NAME];
	char desc[GDR_FAB_NAME * 2];
	int is_ca;
	uint32_t sw;  /* switches: the fabric's id */
	uint32_t lid; /* switches: "lid N" of its line's comment; 0: none */
};

static int id_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ibnode *)a)->id, ((const struct ibnode *)b)->id);
}

/* The text between the first pair of quotes at or after p into out; the end, or NULL. */
static const char *quoted(const char *p, char *out, size_t len)
{
	const char *q = strchr(p, '"'), *e;

	if (!q || !(e = strchr(q + 1, '"')))
		return NULL;
	snprintf(out, len, "%.*s", (int)(e - q - 1), q + 1);
	return e + 1;
}

static struct ibnode *lookup(struct ibnode *v, size_t n, const char *id)
{
	struct ibnode key = {0};

	snprintf(key.id, sizeof(key.id), "%s", id);
	return bsearch(&key, v, n, sizeof(*v), id_cmp);
}

/* The NIC of an HCA's port, added on first sight. */
static uint32_t ca_port(struct gdr_fabric *f, const struct ibnode *ca, unsigned port)
{
	char host[GDR_FAB_NAME * 2], dev[GDR_FAB_NAME * 2];
	uint32_t nic;
	int got = sscanf(ca->desc, "%127s %127s", host, dev);

	if (got < 1)
		snprintf(host, sizeof(host), "%s", ca->id);
	if (got < 2)
		snprintf(dev, sizeof(dev), "hca");
	if (port > 1) {
		size_t l = strlen(dev);

		snprintf(dev + l, sizeof(dev) - l, ":%u", port);
	}
	if (strlen(host) >= GDR_FAB_NAME || strlen(dev) >= GDR_FAB_NAME) {
		gdr_err("fabric: HCA '%s': a host or device name over %d characters", ca->desc,
			GDR_FAB_NAME - 1);
		return GDR_FAB_NONE;
	}
	nic = gdr_fab_find_nic(f, host, dev);
	return nic != GDR_FAB_NONE ? nic : gdr_fab_add_nic(f, host, dev);
}

static uint32_t node_of(struct gdr_fabric *f, const struct ibnode *n, unsigned port)
{
	uint32_t nic;

	if (!n->is_ca)
		return n->sw;
	nic = ca_port(f, n, port);
	return nic == GDR_FAB_NONE ? GDR_FAB_NONE : GDR_FAB_NIC(nic);
}

/* Pass 1: the nodes. */
static int nodes(char *text, struct ibnode **out, size_t *nout, const char *path)
{
	size_t n = 0, cap = 0;
	struct ibnode *v = NULL;
	unsigned line = 0;

	for (char *p = text; *p; line++) {
		char *e = strchr(p, '\n'), *hash;
		int is_ca = !strncmp(p, "Ca", 2),
		    is_sw = !strncmp(p, "Switch", 6) || !strncmp(p, "Rt", 2);

		if (e)
			*e = 0;
		if (is_ca || is_sw) {
			if (n == cap) {
				void *g = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*v));

				if (!g) {
					gdr_err("%s: out of memory", path);
					free(v);
					return -1;
				}
				v = g;
			}
			memset(&v[n], 0, sizeof(v[n]));
			v[n].is_ca = is_ca;
			hash = strchr(p, '#');
			if (hash)
				*hash = 0;
			if (!quoted(p, v[n].id, sizeof(v[n].id))) {
				gdr_err("%s:%u: a node line without its \"id\"", path, line + 1);
				free(v);
				return -1;
			}
			if (hash) {
				const char *lid;

				*hash = '#';
				quoted(hash, v[n].desc, sizeof(v[n].desc));
				lid = strstr(hash, " lid ");
				v[n].lid = lid ? (uint32_t)strtoul(lid + 5, NULL, 10) : 0;
			}
			n++;
		}
		if (e)
			*e = '\n';
		p = e ? e + 1 : p + strlen(p);
	}
	if (n) /* none: v is NULL */
		qsort(v, n, sizeof(*v), id_cmp);
	*out = v;
	*nout = n;
	return 0;
}

static int switches(struct gdr_fabric *f, struct ibnode *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t before = f->nsw;

		if (v[i].is_ca)
			continue;
		v[i].sw = v[i].desc[0] && strlen(v[i].desc) < GDR_FAB_NAME
			      ? gdr_fab_switch(f, v[i].desc)
			      : gdr_fab_switch(f, v[i].id);
		if (v[i].sw != GDR_FAB_NONE && v[i].sw < before) /* description taken: the id */
			v[i].sw = gdr_fab_switch(f, v[i].id);
		if (v[i].sw == GDR_FAB_NONE)
			return -1;
		f->sw[v[i].sw].lid = v[i].lid;
	}
	return 0;
}

/* Pass 2: the cables, from the port lines under each node. */
static int cables(struct gdr_fabric *f, char *text, struct ibnode *v, size_t n, const char *path)
{
	struct ibnode *cur = NULL;
	char id[GDR_FAB_NAME];
	unsigned line = 0;

	for (char *p = text; *p; line++) {
		char *e = strchr(p, '\n');

		if (e)
			*e = 0;
		if (!strncmp(p, "Ca", 2) || !strncmp(p, "Switch", 6) || !strncmp(p, "Rt", 2)) {
			quoted(p, id, sizeof(id));
			cur = lookup(v, n, id);
		} else if (*p == '[' && cur) {
			unsigned lp, rp;
			const char *q = strchr(p, '"'), *r;
			struct ibnode *far;
			uint32_t a, b;

			if (sscanf(p, "[%u]", &lp) != 1 || !q || !(r = quoted(q, id, sizeof(id))) ||
			    sscanf(r, "[%u]", &rp) != 1) {
				gdr_err("%s:%u: expected [PORT] \"ID\"[PORT]", path, line + 1);
				return -1;
			}
			far = lookup(v, n, id);
			if (!far) {
				gdr_err("%s:%u: %s is not a node of the file", path, line + 1, id);
				return -1;
			}
			/* once: from the end with the smaller (id, port) */
			if (strcmp(cur->id, far->id) < 0 || (cur == far && lp < rp)) {
				a = node_of(f, cur, lp);
				b = node_of(f, far, rp);
				if (a == GDR_FAB_NONE || b == GDR_FAB_NONE ||
				    gdr_fab_connect(f, a, lp, b, rp))
					return -1;
			}
		}
		if (e)
			*e = '\n';
		p = e ? e + 1 : p + strlen(p);
	}
	return 0;
}

int gdr_fab_read_ibnd(struct gdr_fabric *f, const char *path)
{
	char *text;
	struct ibnode *v = NULL;
	size_t n = 0;
	int rc = -1;

	if (gdr_read_text(path, &text))
		return -1;
	if (nodes(text, &v, &n, path))
		goto out;
	if (!n) {
		gdr_err("%s: no Switch or Ca lines: not ibnetdiscover's output", path);
		goto out;
	}
	if (switches(f, v, n) || cables(f, text, v, n, path))
		goto out;
	rc = 0;
out:
	free(v);
	free(text);
	return rc;
}
