/* SPDX-License-Identifier: MIT */
/*
 * The model of a fabric's routing: up from the source's leaf until a switch
 * has the destination's leaf below it, then down. Where several cables lead
 * on, the destination picks one (D-mod-K, what InfiniBand's fat-tree routing
 * does with LIDs): up from a leaf by the destination's place on its leaf,
 * further up by the destination leaf's place, down (parallel cables) by the
 * destination's place on its leaf. Adaptive routing spreads at least as
 * evenly; RoCE's ECMP hashes instead, which is why a plan is checked against
 * the counters (docs/cluster.md).
 */
#include <stdio.h>
#include <string.h>
#include "fabric.h"

/* Which of the candidate cables: the destination's key at this tier. */
static uint32_t dest_key(const struct gdr_fabric *f, uint32_t b, uint32_t tier)
{
	const struct gdr_fab_nic *n = &f->nic[b];

	return tier <= 1 ? n->pos : f->sw[n->sw].leaf;
}

/* The next hop from switch s toward leaf `leaf`: up (when `up`) or down. */
static uint32_t next_link(const struct gdr_fabric *f, uint32_t s, uint32_t leaf, int up,
			  uint32_t key)
{
	uint32_t cand = 0, pick = GDR_FAB_NONE, want;
	/* down from tier 2 the cables are the leaf's own: scan the leaf's few, not a spine's many
	 */
	uint32_t v = !up && f->sw[s].tier == 2 ? f->leaf[leaf] : s;

	for (int pass = 0; pass < 2; pass++) {
		uint32_t seen = 0;

		want = cand ? key % cand : 0;
		for (uint32_t k = f->adj_start[v]; k < f->adj_start[v + 1]; k++) {
			const struct gdr_fab_link *l = &f->link[f->adj[k]];
			uint32_t w = l->node[l->node[0] == s];

			if (v != s) { /* a cable of the leaf: one to s? */
				if (l->node[0] != s && l->node[1] != s)
					continue;
				w = v;
			}
			if (w >= f->nsw || (!up && !gdr_fab_below(f, w, leaf)))
				continue; /* up: any switch above (a fat tree reaches every leaf
					     from its top) */
			if (up ? f->sw[w].tier <= f->sw[s].tier : f->sw[w].tier >= f->sw[s].tier)
				continue;
			if (!pass) {
				cand++;
			} else if (seen++ == want) {
				pick = f->adj[k];
				break;
			}
		}
		if (!cand)
			return GDR_FAB_NONE;
	}
	return pick;
}

static uint32_t dir_from(const struct gdr_fabric *f, uint32_t link, uint32_t from)
{
	return 2 * link + (f->link[link].node[0] == from ? 0u : 1u);
}

unsigned gdr_fab_route(const struct gdr_fabric *f, uint32_t a, uint32_t b, uint32_t *hop)
{
	uint32_t s = f->nic[a].sw, dl = f->sw[f->nic[b].sw].leaf, l;
	unsigned n = 0, guard = 2 * f->tiers + 2;

	if (a == b || f->sw[s].plane != f->sw[f->nic[b].sw].plane)
		return 0;
	hop[n++] = dir_from(f, f->nic[a].link, f->nsw + a);
	while (!gdr_fab_below(f, s, dl)) {
		l = next_link(f, s, dl, 1, dest_key(f, b, f->sw[s].tier));
		if (l == GDR_FAB_NONE || n + 1 >= guard) /* room for the last cable */
			return 0;
		hop[n++] = dir_from(f, l, s);
		s = f->link[l].node[f->link[l].node[0] == s];
	}
	while (s != f->nic[b].sw) {
		l = next_link(f, s, dl, 0, f->nic[b].pos);
		if (l == GDR_FAB_NONE || n + 1 >= guard) /* room for the last cable */
			return 0;
		hop[n++] = dir_from(f, l, s);
		s = f->link[l].node[f->link[l].node[0] == s];
	}
	hop[n++] = dir_from(f, f->nic[b].link, s);
	return n;
}

unsigned gdr_fab_route_text(const struct gdr_fabric *f, uint32_t a, uint32_t b, char *buf,
			    unsigned len)
{
	uint32_t hop[2 * 16 + 2];
	char name[4 * GDR_FAB_NAME + 32];
	size_t at = strnlen(buf, len), k = at;
	unsigned n = f->tiers > 16 ? 0 : gdr_fab_route(f, a, b, hop);

	for (unsigned h = 0; h < n; h++) {
		int w = snprintf(buf + k, len - k, "%s%s", h ? GDR_FAB_ROUTE_SEP : "",
				 gdr_fab_link_name(f, hop[h] / 2, name, sizeof(name)));

		if (w < 0 || (size_t)w >= len - k) { /* no room: leave buf as it was */
			if (at < len)
				buf[at] = '\0';
			return 0;
		}
		k += (size_t)w;
	}
	return n;
}
