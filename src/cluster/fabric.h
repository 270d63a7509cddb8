/* SPDX-License-Identifier: MIT */
/*
 * The fabric: switches, NICs (an HCA port or a netdev, of one host and one
 * rail) and the cables between them, read from ibnetdiscover's text, Slurm's
 * topology.conf or a links file. fabric.c builds and indexes it,
 * fabric_route.c models its routing, fabric_plan.c plans rounds that load
 * every cable both ways, fabric_blame.c blames cables, switches, NICs and
 * hosts from the pairs' results. No MPI, no verbs: pure data.
 */
#ifndef GDR_FABRIC_H
#define GDR_FABRIC_H

#include <stdint.h>

#define GDR_FAB_NAME 64
#define GDR_FAB_NONE UINT32_MAX

/*
 * A node is a switch (id < nsw) or a NIC (id nsw + nic index, once indexed).
 * While a fabric is read, a cable names a NIC as GDR_FAB_NIC(nic index).
 */
#define GDR_FAB_NIC(i) (0x80000000u | (i))
struct gdr_fab_link {
	uint32_t node[2];
	uint32_t port[2];
};

struct gdr_fab_sw {
	char name[GDR_FAB_NAME];
	uint32_t tier;	/* 1: leaf (has NICs or no lower switch), 2: above it, ... */
	uint32_t plane; /* connected component of switches */
	uint32_t leaf;	/* index in gdr_fabric.leaf[], leaves only; else GDR_FAB_NONE */
	uint32_t lid;	/* its LID (ibnetdiscover's "lid N"); 0: unknown */
};

struct gdr_fab_nic {
	char dev[GDR_FAB_NAME]; /* "mlx5_3", "eth2", "rail3" (topology.conf) */
	uint32_t host;		/* index in gdr_fabric.host[] */
	uint32_t rail;		/* its place among its host's NICs */
	uint32_t sw;		/* its leaf switch */
	uint32_t link;		/* its access cable */
	uint32_t pos;		/* its place among its leaf's NICs, by port */
};

/* Names to ids: open addressing, ids + 1 (0: empty). */
struct gdr_fab_hash {
	uint32_t cap;
	uint32_t *slot;
};

struct gdr_fabric {
	uint32_t nsw, nnic, nlink, nhost;
	struct gdr_fab_hash hsw, hhost, hnic;
	uint32_t cap_sw, cap_nic, cap_link, cap_host;
	struct gdr_fab_sw *sw;
	struct gdr_fab_nic *nic;
	struct gdr_fab_link *link;
	char (*host)[GDR_FAB_NAME];
	uint32_t *host_nics; /* NICs of each host so far */
	uint32_t cap_hnics, nhost_nics;
	/* gdr_fab_index() fills the rest */
	uint32_t *adj_start, *adj; /* node's links: adj[adj_start[v] .. adj_start[v+1]-1] */
	uint32_t tiers, nplane;
	uint32_t nleaf;
	uint32_t *leaf;	     /* leaves (switch ids) by plane, then pod, then name */
	uint32_t *leaf_nics; /* leaf i's NICs by port: leaf_nics[leaf_start[i] ..] */
	uint32_t *leaf_start;
	uint32_t reach_words;
	uint64_t *reach; /* switch s: bit i set when leaf i lies below s (or is s) */
	uint32_t *group; /* group[t * nleaf + i]: leaf i's pod at tier t (1..tiers) */
};

static inline uint32_t gdr_fab_nic_node(const struct gdr_fabric *f, uint32_t nic)
{
	return f->nsw + nic;
}

static inline int gdr_fab_below(const struct gdr_fabric *f, uint32_t sw, uint32_t leaf)
{
	return (int)((f->reach[(uint64_t)sw * f->reach_words + leaf / 64] >> (leaf % 64)) & 1);
}

void gdr_fab_init(struct gdr_fabric *f);
void gdr_fab_free(struct gdr_fabric *f);
/* Find or add by name; GDR_FAB_NONE when out of memory (printed). */
uint32_t gdr_fab_switch(struct gdr_fabric *f, const char *name);
uint32_t gdr_fab_host(struct gdr_fabric *f, const char *name);
uint32_t gdr_fab_find_switch(const struct gdr_fabric *f, const char *name);
uint32_t gdr_fab_find_host(const struct gdr_fabric *f, const char *name);
/* A NIC of a host, its rail the next of that host's. */
uint32_t gdr_fab_add_nic(struct gdr_fabric *f, const char *host, const char *dev);
uint32_t gdr_fab_find_nic(const struct gdr_fabric *f, const char *host, const char *dev);
/* A cable between node a port pa and node b port pb (a switch id or GDR_FAB_NIC(i)). */
int gdr_fab_connect(struct gdr_fabric *f, uint32_t a, uint32_t pa, uint32_t b, uint32_t pb);
/*
 * Tiers, planes, leaves and what lies below each switch. 0, or -1 with one
 * line printed (a NIC without a cable or with two, a cable between NICs).
 */
int gdr_fab_index(struct gdr_fabric *f);
/* "node3:mlx5_0", "leaf7", for messages. */
const char *gdr_fab_node_name(const struct gdr_fabric *f, uint32_t node, char *buf, unsigned len);
const char *gdr_fab_link_name(const struct gdr_fabric *f, uint32_t link, char *buf, unsigned len);

/*
 * Readers. Each returns 0, or -1 with one line naming the file and line.
 * topology.conf knows no NICs: each host gets `rails` NICs "rail0".. on its leaf.
 */
int gdr_fab_read_ibnd(struct gdr_fabric *f, const char *path);
int gdr_fab_read_slurm(struct gdr_fabric *f, const char *path, unsigned rails);
int gdr_fab_read_links(struct gdr_fabric *f, const char *path);
/* "ibnetdiscover:FILE", "slurm:FILE", "links:FILE": read and index. */
int gdr_fab_load(struct gdr_fabric *f, const char *spec, unsigned rails);
/* The kind known and the file readable (before MPI starts); 0 or -1 (printed). */
int gdr_fab_spec_check(const char *spec);

/*
 * The model of the routing (fabric_route.c): up/down, the uplink chosen by the
 * destination (D-mod-K: by its place on its leaf at a leaf, by its leaf's
 * place above), as InfiniBand's fat-tree routing spreads destinations. The
 * directed links (2 * link + d, d = 0 from node[0] to node[1]) from NIC a to
 * NIC b into hop[] (room for 2 * tiers + 2); their count, 0 when b cannot be
 * reached.
 */
unsigned gdr_fab_route(const struct gdr_fabric *f, uint32_t a, uint32_t b, uint32_t *hop);

/*
 * The route from NIC a to NIC b as text: its cables in the order the data
 * crosses them, each named as gdr_fab_link_name names it (so as the blame
 * does), GDR_FAB_ROUTE_SEP between two (no name holds it: the readers refuse
 * one that does). Appended at buf's end; its cables (0: none, a == b, b cannot
 * be reached, or no room: buf then as it was). GDR_FAB_ROUTE_TEXT holds any
 * route of at most 16 tiers.
 */
#define GDR_FAB_ROUTE_SEP  " > "
#define GDR_FAB_ROUTE_CHAR '>'
#define GDR_FAB_ROUTE_TEXT ((2 * 16 + 2) * (4 * GDR_FAB_NAME + 32))
unsigned gdr_fab_route_text(const struct gdr_fabric *f, uint32_t a, uint32_t b, char *buf,
			    unsigned len);

#endif
