/* SPDX-License-Identifier: MIT */
/*
 * Indexing a fabric once it is read: each NIC's leaf, the switches' tiers
 * (distance from the leaves), planes and pods (the leaves joined by the
 * switches up to a tier), the leaves in pod order, and the leaves below each
 * switch, which routing and planning ask for.
 */
#include <stdlib.h>
#include <string.h>
#include "fabric.h"
#include "log.h"

static uint32_t find(uint32_t *up, uint32_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void join(uint32_t *up, uint32_t a, uint32_t b)
{
	a = find(up, a);
	b = find(up, b);
	if (a != b)
		up[a < b ? b : a] = a < b ? a : b;
}

/* Each NIC has exactly one cable, to a switch. */
static int nic_links(struct gdr_fabric *f)
{
	char a[2 * GDR_FAB_NAME + 2];

	for (uint32_t l = 0; l < f->nlink; l++) {
		for (int e = 0; e < 2; e++) {
			uint32_t v = f->link[l].node[e], w = f->link[l].node[!e];
			struct gdr_fab_nic *n;

			if (v < f->nsw)
				continue;
			n = &f->nic[v - f->nsw];
			if (w >= f->nsw) {
				gdr_err("fabric: NIC %s is cabled to another NIC, not a switch",
					gdr_fab_node_name(f, v, a, sizeof(a)));
				return -1;
			}
			if (n->link != GDR_FAB_NONE) {
				gdr_err("fabric: NIC %s has two cables",
					gdr_fab_node_name(f, v, a, sizeof(a)));
				return -1;
			}
			n->link = l;
			n->sw = w;
		}
	}
	for (uint32_t i = 0; i < f->nnic; i++)
		if (f->nic[i].link == GDR_FAB_NONE) {
			gdr_err("fabric: NIC %s has no cable",
				gdr_fab_node_name(f, f->nsw + i, a, sizeof(a)));
			return -1;
		}
	return 0;
}

static int adjacency(struct gdr_fabric *f)
{
	uint32_t nv = f->nsw + f->nnic, *fill;

	f->adj_start = calloc((size_t)nv + 1, sizeof(uint32_t));
	f->adj = malloc(((size_t)f->nlink * 2 + 1) * sizeof(uint32_t));
	fill = calloc((size_t)nv + 1, sizeof(uint32_t));
	if (!f->adj_start || !f->adj || !fill) {
		free(fill);
		gdr_err("fabric: out of memory");
		return -1;
	}
	for (uint32_t l = 0; l < f->nlink; l++) {
		f->adj_start[f->link[l].node[0] + 1]++;
		f->adj_start[f->link[l].node[1] + 1]++;
	}
	for (uint32_t v = 0; v < nv; v++)
		f->adj_start[v + 1] += f->adj_start[v];
	for (uint32_t l = 0; l < f->nlink; l++)
		for (int e = 0; e < 2; e++) {
			uint32_t v = f->link[l].node[e];

			f->adj[f->adj_start[v] + fill[v]++] = l;
		}
	free(fill);
	return 0;
}

/* Tier: 1 + the hops from the nearest switch with NICs (a switch with none and no
 * cable to one is a leaf too). */
static int tiers(struct gdr_fabric *f)
{
	uint32_t *queue = malloc(((size_t)f->nsw + 1) * sizeof(uint32_t)), head = 0, tail = 0;

	if (!queue) {
		gdr_err("fabric: out of memory");
		return -1;
	}
	for (uint32_t s = 0; s < f->nsw; s++)
		f->sw[s].tier = 0;
	for (uint32_t i = 0; i < f->nnic; i++)
		if (!f->sw[f->nic[i].sw].tier) {
			f->sw[f->nic[i].sw].tier = 1;
			queue[tail++] = f->nic[i].sw;
		}
	for (int pass = 0; pass < 2; pass++) {
		while (head < tail) {
			uint32_t s = queue[head++];

			for (uint32_t k = f->adj_start[s]; k < f->adj_start[s + 1]; k++) {
				const struct gdr_fab_link *l = &f->link[f->adj[k]];
				uint32_t w = l->node[l->node[0] == s];

				if (w < f->nsw && !f->sw[w].tier) {
					f->sw[w].tier = f->sw[s].tier + 1;
					queue[tail++] = w;
				}
			}
		}
		for (uint32_t s = 0; s < f->nsw && !pass; s++)
			if (!f->sw[s].tier) {
				f->sw[s].tier = 1;
				queue[tail++] = s;
			}
	}
	free(queue);
	f->tiers = 0;
	for (uint32_t s = 0; s < f->nsw; s++)
		if (f->sw[s].tier > f->tiers)
			f->tiers = f->sw[s].tier;
	return 0;
}

static const struct gdr_fabric *sort_f;

/* Leaves by pod from the top tier down, then by name. */
static int leaf_cmp(const void *x, const void *y)
{
	const struct gdr_fabric *f = sort_f;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	uint32_t ia = f->sw[a].leaf, ib = f->sw[b].leaf;

	for (uint32_t t = f->tiers; t >= 2; t--) {
		uint32_t ga = f->group[t * f->nleaf + ia], gb = f->group[t * f->nleaf + ib];

		if (ga != gb)
			return ga < gb ? -1 : 1;
	}
	return strcmp(f->sw[a].name, f->sw[b].name);
}

/* group[t][leaf]: the smallest switch id of the leaf's component over tiers <= t. */
static int pods(struct gdr_fabric *f)
{
	uint32_t *up = malloc(((size_t)f->nsw + 1) * sizeof(uint32_t)), *g;

	f->leaf = malloc(((size_t)f->nleaf + 1) * sizeof(uint32_t));
	f->group = malloc(((size_t)f->tiers + 1) * f->nleaf * sizeof(uint32_t) + sizeof(uint32_t));
	g = malloc(((size_t)f->tiers + 1) * f->nleaf * sizeof(uint32_t) + sizeof(uint32_t));
	if (!up || !f->leaf || !f->group || !g) {
		free(up);
		free(g);
		gdr_err("fabric: out of memory");
		return -1;
	}
	for (uint32_t s = 0, i = 0; s < f->nsw; s++)
		if (f->sw[s].tier == 1) {
			f->leaf[i] = s;
			f->sw[s].leaf = i++;
		}
	for (uint32_t s = 0; s < f->nsw; s++)
		up[s] = s;
	for (uint32_t t = 1; t <= f->tiers; t++) {
		for (uint32_t l = 0; l < f->nlink; l++) {
			uint32_t a = f->link[l].node[0], b = f->link[l].node[1];

			if (a < f->nsw && b < f->nsw && f->sw[a].tier <= t && f->sw[b].tier <= t)
				join(up, a, b);
		}
		for (uint32_t i = 0; i < f->nleaf; i++)
			f->group[t * f->nleaf + i] = find(up, f->leaf[i]);
	}
	for (uint32_t s = 0; s < f->nsw; s++)
		f->sw[s].plane = find(up, s);
	sort_f = f;
	qsort(f->leaf, f->nleaf, sizeof(uint32_t), leaf_cmp);
	/* renumber: leaf i is f->leaf[i]; groups follow */
	for (uint32_t i = 0; i < f->nleaf; i++)
		for (uint32_t t = 1; t <= f->tiers; t++)
			g[t * f->nleaf + i] = f->group[t * f->nleaf + f->sw[f->leaf[i]].leaf];
	for (uint32_t i = 0; i < f->nleaf; i++)
		f->sw[f->leaf[i]].leaf = i;
	memcpy(f->group + f->nleaf, g + f->nleaf, (size_t)f->tiers * f->nleaf * sizeof(uint32_t));
	/* planes numbered 0.. in leaf order */
	f->nplane = 0;
	for (uint32_t s = 0; s < f->nsw; s++)
		up[s] = GDR_FAB_NONE;
	for (uint32_t i = 0; i < f->nleaf; i++) {
		uint32_t r = f->sw[f->leaf[i]].plane;

		if (up[r] == GDR_FAB_NONE)
			up[r] = f->nplane++;
	}
	for (uint32_t s = 0; s < f->nsw; s++)
		f->sw[s].plane = up[f->sw[s].plane];
	free(up);
	free(g);
	return 0;
}

/* The leaves below each switch, lowest tier first. */
static int reach(struct gdr_fabric *f)
{
	uint32_t w = f->reach_words = (f->nleaf + 63) / 64;

	f->reach = calloc((size_t)f->nsw * w + 1, sizeof(uint64_t));
	if (!f->reach) {
		gdr_err("fabric: out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < f->nleaf; i++)
		f->reach[(uint64_t)f->leaf[i] * w + i / 64] |= 1ull << (i % 64);
	for (uint32_t t = 2; t <= f->tiers; t++)
		for (uint32_t s = 0; s < f->nsw; s++) {
			if (f->sw[s].tier != t)
				continue;
			for (uint32_t k = f->adj_start[s]; k < f->adj_start[s + 1]; k++) {
				const struct gdr_fab_link *l = &f->link[f->adj[k]];
				uint32_t c = l->node[l->node[0] == s];

				if (c >= f->nsw || f->sw[c].tier >= t)
					continue;
				for (uint32_t j = 0; j < w; j++)
					f->reach[(uint64_t)s * w + j] |=
					    f->reach[(uint64_t)c * w + j];
			}
		}
	return 0;
}

static const struct gdr_fabric *port_f;

static int port_cmp(const void *x, const void *y)
{
	const struct gdr_fab_nic *a = &port_f->nic[*(const uint32_t *)x];
	const struct gdr_fab_nic *b = &port_f->nic[*(const uint32_t *)y];
	uint32_t pa = port_f->link[a->link].port[port_f->link[a->link].node[1] == a->sw];
	uint32_t pb = port_f->link[b->link].port[port_f->link[b->link].node[1] == b->sw];

	if (pa != pb)
		return pa < pb ? -1 : 1;
	return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

/* Each leaf's NICs by the leaf's port number. */
static int leaf_nics(struct gdr_fabric *f)
{
	f->leaf_start = calloc((size_t)f->nleaf + 1, sizeof(uint32_t));
	f->leaf_nics = malloc(((size_t)f->nnic + 1) * sizeof(uint32_t));
	if (!f->leaf_start || !f->leaf_nics) {
		gdr_err("fabric: out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < f->nnic; i++)
		f->leaf_start[f->sw[f->nic[i].sw].leaf + 1]++;
	for (uint32_t i = 0; i < f->nleaf; i++)
		f->leaf_start[i + 1] += f->leaf_start[i];
	/* shifted one up: filling leaf i moves leaf_start[i + 1] from its start to its end */
	memmove(f->leaf_start + 1, f->leaf_start, (size_t)f->nleaf * sizeof(uint32_t));
	f->leaf_start[0] = 0;
	for (uint32_t i = 0; i < f->nnic; i++)
		f->leaf_nics[f->leaf_start[f->sw[f->nic[i].sw].leaf + 1]++] = i;
	port_f = f;
	for (uint32_t i = 0; i < f->nleaf; i++) {
		uint32_t *v = f->leaf_nics + f->leaf_start[i],
			 n = f->leaf_start[i + 1] - f->leaf_start[i];

		qsort(v, n, sizeof(uint32_t), port_cmp);
		for (uint32_t k = 0; k < n; k++)
			f->nic[v[k]].pos = k;
	}
	return 0;
}

int gdr_fab_index(struct gdr_fabric *f)
{
	if (!f->nnic) {
		gdr_err("fabric: no NICs");
		return -1;
	}
	for (uint32_t l = 0; l < f->nlink; l++)
		for (int e = 0; e < 2; e++) {
			uint32_t *v = &f->link[l].node[e];

			if (*v & GDR_FAB_NIC(0))
				*v = f->nsw + (*v & ~GDR_FAB_NIC(0));
		}
	if (nic_links(f) || adjacency(f) || tiers(f))
		return -1;
	f->nleaf = 0;
	for (uint32_t s = 0; s < f->nsw; s++)
		f->nleaf += f->sw[s].tier == 1;
	if (pods(f) || reach(f) || leaf_nics(f))
		return -1;
	return 0;
}
