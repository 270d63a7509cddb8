/* SPDX-License-Identifier: MIT */
/*
 * PCIe relation of two devices in nvidia-smi's words, computed from the
 * sysfs device hierarchy alone (realpath of /sys/bus/pci/devices/<bdf>):
 *   PIX  at most one PCIe bridge (switch) between them
 *   PXB  several bridges, all below the same root port
 *   PHB  through the PCIe host bridge (same root complex)
 *   NODE across root complexes within one NUMA node
 *   SYS  across NUMA nodes (the CPU interconnect)
 */
#ifndef GDR_SYSINFO_TOPO_H
#define GDR_SYSINFO_TOPO_H

#define TOPO_MAX_DEPTH 16
#define TOPO_BDF_LEN   24

enum topo_rel { TOPO_X, TOPO_PIX, TOPO_PXB, TOPO_PHB, TOPO_NODE, TOPO_SYS, TOPO_UNKNOWN };

struct topo_loc {
	char bdf[TOPO_BDF_LEN];			   /* "0000:05:00.0" */
	char rc[TOPO_BDF_LEN];			   /* root complex "0000:00" */
	int depth;				   /* bridges above the device */
	char bridge[TOPO_MAX_DEPTH][TOPO_BDF_LEN]; /* root port first */
	int numa;				   /* -1: unknown */
};

/* 1 if s is a PCI address "dddd:bb:dd.f" (lower-case hex), else 0. */
int topo_is_bdf(const char *s);

/* Locate a PCI device below sysroot ("/" or a fixture). 0, or -1 when it cannot be found. */
int topo_locate(const char *sysroot, const char *bdf, struct topo_loc *loc);

enum topo_rel topo_relation(const struct topo_loc *a, const struct topo_loc *b);
const char *topo_rel_name(enum topo_rel rel);

/*
 * The bridges that peer-to-peer traffic between a and b crosses without going
 * up to the root complex (PIX/PXB pairs; none otherwise). Returns the count.
 */
int topo_path_bridges(const struct topo_loc *a, const struct topo_loc *b, char out[][TOPO_BDF_LEN],
		      int max);

#endif
