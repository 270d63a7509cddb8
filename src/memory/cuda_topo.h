/* SPDX-License-Identifier: MIT */
/* PCIe distance between two devices, from their sysfs paths (GPU selection). */
#ifndef GDR_CUDA_TOPO_H
#define GDR_CUDA_TOPO_H

#include <stddef.h>

/* How close two PCI devices are, from their resolved sysfs device paths. */
enum gdr_pci_affinity {
	GDR_PCI_UNKNOWN = 0,	 /* a path is missing */
	GDR_PCI_OTHER_ROOT = 1,	 /* different PCIe root complexes (maybe other CPU socket) */
	GDR_PCI_SAME_ROOT = 2,	 /* same root complex, through the host bridge */
	GDR_PCI_SAME_SWITCH = 3, /* below a common PCIe switch/bridge */
};

/*
 * Number of leading path components /a/b/c that a and b share (sysfs
 * realpaths such as /sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0).
 */
size_t gdr_path_common(const char *a, const char *b);

/* Classify two resolved sysfs device paths (NULL = unknown). */
enum gdr_pci_affinity gdr_pci_affinity(const char *a, const char *b);
const char *gdr_pci_affinity_str(enum gdr_pci_affinity a);

/*
 * Normalize a PCI address ("0000:19:00.0", "00000000:19:00.0", "19:00.0",
 * any case) to the sysfs form "dddd:bb:dd.f". Returns 0 or -1 if malformed.
 */
int gdr_pci_normalize(const char *in, char *out, size_t n);

#endif
