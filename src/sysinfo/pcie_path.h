/* SPDX-License-Identifier: MIT */
/*
 * The links between a PCI device and its root port, from the bridges' own
 * link files below a root ("/" or a fixture): the narrowest of them, and what
 * several devices under shared bridges (a switch uplink) can move together.
 */
#ifndef GDR_SYSINFO_PCIE_PATH_H
#define GDR_SYSINFO_PCIE_PATH_H

#include <stddef.h>
#include "topo.h"

/* A link on a device's path: a bridge's current speed and width. */
struct pcie_hop {
	double gts; /* 0: none readable */
	int width;
	char at[TOPO_BDF_LEN]; /* the bridge whose link it is */
};

/*
 * The narrowest readable link among loc's bridges [from, to) (root port
 * first), at the assumed MPS, into h (h->gts 0: none). A device's own slot
 * port (its last bridge) shows the device's own link: callers leave it out
 * where the device's link is taken otherwise (an idle GPU's).
 */
void pcie_narrowest(const char *sysroot, const struct topo_loc *loc, int from, int to,
		    struct pcie_hop *h);

/*
 * What devices bdf[n] with ceilings each[n] (B/s, one way) move together:
 * their sum, but through a bridge above two or more of them no more than its
 * link carries (worked from the devices up; devices of different root
 * complexes add up). The bridge that cut the sum most goes into at ("" none).
 * Returns B/s.
 */
double pcie_shared_sum(const char *sysroot, const char *const *bdf, const double *each, int n,
		       char *at, size_t atn);

#endif
