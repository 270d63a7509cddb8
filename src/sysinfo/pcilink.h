/* SPDX-License-Identifier: MIT */
/*
 * A PCI function's link as sysfs shows it (current and maximum speed and
 * width) and its Max Payload Size from the PCI Express capability in config
 * space, below a root ("/" or a fixture).
 */
#ifndef GDR_SYSINFO_PCILINK_H
#define GDR_SYSINFO_PCILINK_H

#include <stddef.h>
#include <stdint.h>

struct pcie_link {
	double gts;	/* current speed per lane in GT/s; 0: not readable */
	int width;	/* current lanes; 0: not readable */
	double max_gts; /* what the link can train at; 0: not readable */
	int max_width;
	int mps; /* Max Payload Size in bytes (Device Control); 0: not readable */
	/* the port above it (the slot: a root or switch downstream port): what that
	 * end can train at; 0: no port above, or not readable */
	double up_max_gts;
	int up_max_width;
};

/*
 * Read <sysroot>/sys/bus/pci/devices/<bdf>/{current,max}_link_{speed,width},
 * the max_link_{speed,width} of the bridge above it, and the MPS from its config file (only root
 * reads past the first 64 bytes, where the capability lives: others get mps 0). 0 when the current
 * speed and width were read, else -1 (the fields read are still set).
 */
int pcie_link_read(const char *sysroot, const char *bdf, struct pcie_link *l);

/*
 * The speed the link can train at: the lower of the device's maximum and its
 * slot's (a Gen5 GPU in a Gen4 slot: 16); the device's alone when the slot's
 * is not known; 0 when neither is.
 */
double pcie_link_cap_gts(const struct pcie_link *l);

/* The MPS in bytes from a config space image of len bytes; 0 when not there. */
int pcie_mps_from_config(const uint8_t *cfg, size_t len);

/* The payload size assumed where the MPS is not readable (the common setting). */
#define PCIE_MPS_ASSUMED 256

/*
 * Payload bytes per second one direction of a PCIe link carries: the lanes'
 * bit rate less line encoding, times MPS / (MPS + TLP overhead); mps 0 takes
 * PCIE_MPS_ASSUMED. 0 for an unknown speed or width.
 */
double pcie_payload_Bps(double gts, int width, int mps);

/* The PCIe generation of a per-lane speed (2.5 GT/s: 1 ... 64 GT/s: 6); 0 unknown. */
int pcie_gen(double gts);

#endif
