/* SPDX-License-Identifier: MIT */
/*
 * Synthetic fabrics for the fabric tests: 2- and 3-tier fat trees, either
 * rail-optimized (each rail its own plane) or with every rail of a host on
 * one leaf. Hosts "n00000".., NICs "mlx5_R", switches named by plane and role.
 */
#ifndef GDR_TEST_FABRIC_SYNTH_H
#define GDR_TEST_FABRIC_SYNTH_H

#include <stdio.h>
#include "fabric.h"

struct synth {
	unsigned tiers; /* 2 or 3 */
	unsigned hosts, rails;
	unsigned per_leaf;   /* NICs on a leaf */
	unsigned up;	     /* leaf uplinks: spines (2 tiers) or aggregation switches a pod */
	unsigned pod_leaves; /* 3 tiers: leaves a pod */
	unsigned core_up;    /* 3 tiers: cores above each aggregation switch */
	int rail_opt;	     /* each rail its own plane */
};

enum synth_role { LEAF, SPINE, AGG, CORE };

/* Switch b of plane a (AGG: aggregation switch c of pod b). */
static inline uint32_t synth_sw(struct gdr_fabric *f, enum synth_role role, unsigned a, unsigned b,
				unsigned c)
{
	char name[GDR_FAB_NAME];

	if (role == LEAF)
		snprintf(name, sizeof(name), "p%u-leaf%u", a, b);
	else if (role == SPINE)
		snprintf(name, sizeof(name), "p%u-spine%u", a, b);
	else if (role == AGG)
		snprintf(name, sizeof(name), "p%u-pod%u-agg%u", a, b, c);
	else
		snprintf(name, sizeof(name), "p%u-core%u", a, b);
	return gdr_fab_switch(f, name);
}

/* Build and index; 0 or -1. */
static inline int synth_build(struct gdr_fabric *f, const struct synth *s)
{
	unsigned planes = s->rail_opt ? s->rails : 1;
	unsigned nics = s->hosts * s->rails / planes; /* NICs a plane */
	unsigned leaves = (nics + s->per_leaf - 1) / s->per_leaf;
	unsigned pods = s->tiers == 3 ? (leaves + s->pod_leaves - 1) / s->pod_leaves : 1;
	char host[32], dev[32];

	gdr_fab_init(f);
	for (unsigned h = 0; h < s->hosts; h++)
		for (unsigned r = 0; r < s->rails; r++) {
			unsigned pl = s->rail_opt ? r : 0;
			unsigned k =
			    s->rail_opt ? h : h * s->rails + r; /* NIC's place in its plane */
			uint32_t nic, leaf;

			snprintf(host, sizeof(host), "n%05u", h);
			snprintf(dev, sizeof(dev), "mlx5_%u", r);
			nic = gdr_fab_add_nic(f, host, dev);
			leaf = synth_sw(f, LEAF, pl, k / s->per_leaf, 0);
			if (nic == GDR_FAB_NONE || leaf == GDR_FAB_NONE ||
			    gdr_fab_connect(f, GDR_FAB_NIC(nic), 1, leaf, k % s->per_leaf + 1))
				return -1;
		}
	for (unsigned pl = 0; pl < planes; pl++)
		for (unsigned l = 0; l < leaves; l++) {
			uint32_t leaf = synth_sw(f, LEAF, pl, l, 0);
			unsigned pod = s->tiers == 3 ? l / s->pod_leaves : 0;

			for (unsigned u = 0; u < s->up; u++) {
				uint32_t sp = s->tiers == 2 ? synth_sw(f, SPINE, pl, u, 0)
							    : synth_sw(f, AGG, pl, pod, u);

				if (sp == GDR_FAB_NONE ||
				    gdr_fab_connect(f, leaf, s->per_leaf + 1 + u, sp,
						    s->tiers == 2 ? l + 1 : l % s->pod_leaves + 1))
					return -1;
			}
		}
	for (unsigned pl = 0; pl < planes && s->tiers == 3; pl++)
		for (unsigned pod = 0; pod < pods; pod++)
			for (unsigned a = 0; a < s->up; a++) {
				uint32_t agg = synth_sw(f, AGG, pl, pod, a);

				for (unsigned c = 0; c < s->core_up; c++) {
					uint32_t core =
					    synth_sw(f, CORE, pl, a * s->core_up + c, 0);

					if (core == GDR_FAB_NONE ||
					    gdr_fab_connect(f, agg, s->pod_leaves + 1 + c, core,
							    pod + 1))
						return -1;
				}
			}
	return gdr_fab_index(f);
}

#endif
