/* SPDX-License-Identifier: MIT */
/* The fabric graph: switches, hosts, NICs and cables by name, then indexed (tiers, pods, leaves).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabric.h"
#include "log.h"

void gdr_fab_init(struct gdr_fabric *f)
{
	memset(f, 0, sizeof(*f));
}

void gdr_fab_free(struct gdr_fabric *f)
{
	free(f->sw);
	free(f->nic);
	free(f->link);
	free(f->host);
	free(f->host_nics);
	free(f->hsw.slot);
	free(f->hhost.slot);
	free(f->hnic.slot);
	free(f->adj_start);
	free(f->adj);
	free(f->leaf);
	free(f->leaf_nics);
	free(f->leaf_start);
	free(f->reach);
	free(f->group);
	gdr_fab_init(f);
}

static uint32_t hash2(const char *a, const char *b)
{
	uint32_t h = 2166136261u;

	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 16777619u;
	h = (h ^ 0xff) * 16777619u;
	for (; b && *b; b++)
		h = (h ^ (unsigned char)*b) * 16777619u;
	return h;
}

/* Grows arrays by doubling; 0 or -1 (printed). */
static int grow(void **p, uint32_t *cap, uint32_t n, size_t elem)
{
	uint32_t c = *cap ? *cap * 2 : 64;
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*p, (size_t)c * elem);
	if (!q) {
		gdr_err("fabric: out of memory");
		return -1;
	}
	*p = q;
	*cap = c;
	return 0;
}

/* Rebuild a table for n + 1 entries when it is over half full; key(i) names entry i. */
static int rehash(struct gdr_fab_hash *h, uint32_t n, const struct gdr_fabric *f,
		  uint32_t (*key)(const struct gdr_fabric *, uint32_t))
{
	uint32_t cap = h->cap ? h->cap : 128, i, j;
	uint32_t *slot;

	if (h->cap && (n + 1) * 2 <= h->cap)
		return 0;
	while ((n + 1) * 2 > cap)
		cap *= 2;
	slot = calloc(cap, sizeof(*slot));
	if (!slot) {
		gdr_err("fabric: out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (j = key(f, i) & (cap - 1); slot[j]; j = (j + 1) & (cap - 1))
			;
		slot[j] = i + 1;
	}
	free(h->slot);
	h->slot = slot;
	h->cap = cap;
	return 0;
}

static uint32_t key_sw(const struct gdr_fabric *f, uint32_t i)
{
	return hash2(f->sw[i].name, NULL);
}

static uint32_t key_host(const struct gdr_fabric *f, uint32_t i)
{
	return hash2(f->host[i], NULL);
}

static uint32_t key_nic(const struct gdr_fabric *f, uint32_t i)
{
	return hash2(f->host[f->nic[i].host], f->nic[i].dev);
}

static int name_ok(const char *name)
{
	if (!*name || strlen(name) >= GDR_FAB_NAME) {
		gdr_err("fabric: name '%.80s' is empty or over %d characters", name,
			GDR_FAB_NAME - 1);
		return 0;
	}
	if (strchr(name, GDR_FAB_ROUTE_CHAR)) {
		gdr_err("fabric: name '%s' holds '%c', which the route column puts between cables",
			name, GDR_FAB_ROUTE_CHAR);
		return 0;
	}
	return 1;
}

uint32_t gdr_fab_find_switch(const struct gdr_fabric *f, const char *name)
{
	uint32_t j;

	for (j = f->hsw.cap ? hash2(name, NULL) & (f->hsw.cap - 1) : 0;
	     f->hsw.cap && f->hsw.slot[j]; j = (j + 1) & (f->hsw.cap - 1))
		if (!strcmp(f->sw[f->hsw.slot[j] - 1].name, name))
			return f->hsw.slot[j] - 1;
	return GDR_FAB_NONE;
}

uint32_t gdr_fab_switch(struct gdr_fabric *f, const char *name)
{
	uint32_t j = gdr_fab_find_switch(f, name);

	if (j != GDR_FAB_NONE)
		return j;
	if (!name_ok(name))
		return GDR_FAB_NONE;
	if (grow((void **)&f->sw, &f->cap_sw, f->nsw, sizeof(*f->sw)) ||
	    rehash(&f->hsw, f->nsw, f, key_sw))
		return GDR_FAB_NONE;
	memset(&f->sw[f->nsw], 0, sizeof(f->sw[0]));
	snprintf(f->sw[f->nsw].name, GDR_FAB_NAME, "%s", name);
	f->sw[f->nsw].leaf = GDR_FAB_NONE;
	for (j = hash2(name, NULL) & (f->hsw.cap - 1); f->hsw.slot[j];
	     j = (j + 1) & (f->hsw.cap - 1))
		;
	f->hsw.slot[j] = ++f->nsw;
	return f->nsw - 1;
}

uint32_t gdr_fab_find_host(const struct gdr_fabric *f, const char *name)
{
	uint32_t j;

	for (j = f->hhost.cap ? hash2(name, NULL) & (f->hhost.cap - 1) : 0;
	     f->hhost.cap && f->hhost.slot[j]; j = (j + 1) & (f->hhost.cap - 1))
		if (!strcmp(f->host[f->hhost.slot[j] - 1], name))
			return f->hhost.slot[j] - 1;
	return GDR_FAB_NONE;
}

uint32_t gdr_fab_host(struct gdr_fabric *f, const char *name)
{
	uint32_t j = gdr_fab_find_host(f, name);

	if (j != GDR_FAB_NONE)
		return j;
	if (!name_ok(name))
		return GDR_FAB_NONE;
	if (grow((void **)&f->host, &f->cap_host, f->nhost, sizeof(*f->host)) ||
	    rehash(&f->hhost, f->nhost, f, key_host))
		return GDR_FAB_NONE;
	snprintf(f->host[f->nhost], GDR_FAB_NAME, "%s", name);
	for (j = hash2(name, NULL) & (f->hhost.cap - 1); f->hhost.slot[j];
	     j = (j + 1) & (f->hhost.cap - 1))
		;
	f->hhost.slot[j] = ++f->nhost;
	return f->nhost - 1;
}

uint32_t gdr_fab_find_nic(const struct gdr_fabric *f, const char *host, const char *dev)
{
	uint32_t j;

	if (!f->hnic.cap)
		return GDR_FAB_NONE;
	for (j = hash2(host, dev) & (f->hnic.cap - 1); f->hnic.slot[j];
	     j = (j + 1) & (f->hnic.cap - 1)) {
		const struct gdr_fab_nic *n = &f->nic[f->hnic.slot[j] - 1];

		if (!strcmp(n->dev, dev) && !strcmp(f->host[n->host], host))
			return f->hnic.slot[j] - 1;
	}
	return GDR_FAB_NONE;
}

uint32_t gdr_fab_add_nic(struct gdr_fabric *f, const char *host, const char *dev)
{
	uint32_t h, j, rail;

	if (gdr_fab_find_nic(f, host, dev) != GDR_FAB_NONE) {
		gdr_err("fabric: NIC %s:%s is listed twice", host, dev);
		return GDR_FAB_NONE;
	}
	h = gdr_fab_host(f, host);
	if (h == GDR_FAB_NONE || !name_ok(dev) ||
	    grow((void **)&f->nic, &f->cap_nic, f->nnic, sizeof(*f->nic)) ||
	    rehash(&f->hnic, f->nnic, f, key_nic))
		return GDR_FAB_NONE;
	if (h >= f->cap_hnics && grow((void **)&f->host_nics, &f->cap_hnics, h, sizeof(uint32_t)))
		return GDR_FAB_NONE;
	while (f->nhost_nics <= h)
		f->host_nics[f->nhost_nics++] = 0;
	rail = f->host_nics[h]++; /* this host's NICs so far, in the order listed */
	memset(&f->nic[f->nnic], 0, sizeof(f->nic[0]));
	snprintf(f->nic[f->nnic].dev, GDR_FAB_NAME, "%s", dev);
	f->nic[f->nnic].host = h;
	f->nic[f->nnic].rail = rail;
	f->nic[f->nnic].sw = GDR_FAB_NONE;
	f->nic[f->nnic].link = GDR_FAB_NONE;
	for (j = hash2(host, dev) & (f->hnic.cap - 1); f->hnic.slot[j];
	     j = (j + 1) & (f->hnic.cap - 1))
		;
	f->hnic.slot[j] = ++f->nnic;
	return f->nnic - 1;
}

int gdr_fab_connect(struct gdr_fabric *f, uint32_t a, uint32_t pa, uint32_t b, uint32_t pb)
{
	if (grow((void **)&f->link, &f->cap_link, f->nlink, sizeof(*f->link)))
		return -1;
	f->link[f->nlink++] = (struct gdr_fab_link){{a, b}, {pa, pb}};
	return 0;
}

const char *gdr_fab_node_name(const struct gdr_fabric *f, uint32_t node, char *buf, unsigned len)
{
	if (node < f->nsw)
		snprintf(buf, len, "%s", f->sw[node].name);
	else
		snprintf(buf, len, "%s:%s", f->host[f->nic[node - f->nsw].host],
			 f->nic[node - f->nsw].dev);
	return buf;
}

const char *gdr_fab_link_name(const struct gdr_fabric *f, uint32_t link, char *buf, unsigned len)
{
	char a[2 * GDR_FAB_NAME + 2], b[2 * GDR_FAB_NAME + 2];
	const struct gdr_fab_link *l = &f->link[link];

	snprintf(buf, len, "%s[%u] - %s[%u]", gdr_fab_node_name(f, l->node[0], a, sizeof(a)),
		 l->port[0], gdr_fab_node_name(f, l->node[1], b, sizeof(b)), l->port[1]);
	return buf;
}
