/* SPDX-License-Identifier: MIT */
/* A PCI function's link speed and width (sysfs) and its Max Payload Size (config space). */
#include <limits.h>
#include <stdlib.h>
#include "pcilink.h"
#include "sysfs.h"
#include "topo.h"

#define CFG_STATUS	   0x06 /* Status register (16 bits) */
#define CFG_STATUS_CAPLIST 0x10 /* it has a capability list */
#define CFG_CAP_PTR	   0x34 /* the first capability's offset */
#define CFG_HEADER	   0x40 /* capabilities live after the 64-byte header */
#define CAP_ID_PCIE	   0x10 /* PCI Express capability */
#define PCIE_DEVCTL	   0x08 /* its Device Control register (16 bits) */
#define CFG_SIZE	   256	/* the capability list lives in the first 256 bytes */

static unsigned get16(const uint8_t *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

int pcie_mps_from_config(const uint8_t *cfg, size_t len)
{
	unsigned at, v;

	if (len < CFG_HEADER || !(get16(cfg + CFG_STATUS) & CFG_STATUS_CAPLIST))
		return 0;
	at = cfg[CFG_CAP_PTR] & 0xfc;
	/* at most 48 capabilities fit in 192 bytes: a longer walk is a loop */
	for (int hops = 0; at >= CFG_HEADER && hops < 48; hops++) {
		if (at + PCIE_DEVCTL + 2 > len)
			return 0; /* the rest was not readable (not root) */
		if (cfg[at] == CAP_ID_PCIE) {
			/* bits 7:5; the codes 6 and 7 are reserved */
			v = (get16(cfg + at + PCIE_DEVCTL) >> 5) & 7;
			return v <= 5 ? 128 << v : 0;
		}
		at = cfg[at + 1] & 0xfc;
	}
	return 0;
}

static double read_num(const char *sysroot, const char *bdf, const char *name)
{
	char path[PATH_MAX], line[64], *end;
	double v;

	if (fs_read_line(
		fs_path(path, sizeof(path), sysroot, "/sys/bus/pci/devices/%s/%s", bdf, name), line,
		sizeof(line)))
		return 0;
	v = strtod(line, &end); /* "16.0 GT/s PCIe", "16"; "Unknown" reads as 0 */
	return end == line || !(v > 0) || v > 1e6 ? 0 : v;
}

int pcie_link_read(const char *sysroot, const char *bdf, struct pcie_link *l)
{
	char path[PATH_MAX];
	uint8_t cfg[CFG_SIZE];
	struct topo_loc loc;
	ssize_t n;

	l->gts = read_num(sysroot, bdf, "current_link_speed");
	l->width = (int)read_num(sysroot, bdf, "current_link_width");
	l->max_gts = read_num(sysroot, bdf, "max_link_speed");
	l->max_width = (int)read_num(sysroot, bdf, "max_link_width");
	l->up_max_gts = 0;
	l->up_max_width = 0;
	if (!topo_locate(sysroot, bdf, &loc) && loc.depth > 0) {
		l->up_max_gts = read_num(sysroot, loc.bridge[loc.depth - 1], "max_link_speed");
		l->up_max_width =
		    (int)read_num(sysroot, loc.bridge[loc.depth - 1], "max_link_width");
	}
	n = fs_read_bin(fs_path(path, sizeof(path), sysroot, "/sys/bus/pci/devices/%s/config", bdf),
			cfg, sizeof(cfg));
	l->mps = n > 0 ? pcie_mps_from_config(cfg, (size_t)n) : 0;
	return l->gts > 0 && l->width > 0 ? 0 : -1;
}

/*
 * Bytes a memory-write TLP carries besides its payload, 64-bit addressing and
 * no ECRC, per the PCI Express Base Specification's layering: a 4-doubleword
 * (16 B) header, the data link layer's 4 B LCRC and 2 B sequence number, and
 * the physical layer's framing (Start and End symbols, 2 B, at Gen1/2; at
 * Gen3+ a 4 B STP token that also carries the sequence number): 24 B either
 * way. Flow-control and ACK DLLPs take a little more, so this is an upper
 * bound: an H100 at Gen5 x16 copies about 55 GB/s against the 57.6 computed
 * here. Data a device reads (a NIC sending from host or GPU memory, a read
 * responder) comes back in completions the root complex may split at its
 * Read Completion Boundary (64 or 128 B), each with its own 12 B header and
 * framing: up to ~15 % below this for that direction. The bound stays.
 */
#define TLP_OVERHEAD 24
/* Gen6 flit mode: LCRC, sequence number and framing live in the flit (its
 * 236 of 256 bytes for TLPs count them), leaving the 16 B header per TLP. */
#define TLP_OVERHEAD_FLIT 16

/* Line encoding per generation: 8b/10b for Gen1/2, 128b/130b for Gen3-5;
 * Gen6's 256 B flits carry 236 B of TLPs (the rest is DLP, CRC and FEC). */
static double encoding(int gen)
{
	switch (gen) {
	case 1:
	case 2:
		return 8.0 / 10;
	case 3:
	case 4:
	case 5:
		return 128.0 / 130;
	case 6:
		return 236.0 / 256;
	default:
		return 0;
	}
}

double pcie_payload_Bps(double gts, int width, int mps)
{
	int gen = pcie_gen(gts);
	double enc = encoding(gen), over = gen == 6 ? TLP_OVERHEAD_FLIT : TLP_OVERHEAD;

	if (enc <= 0 || width <= 0)
		return 0;
	if (mps <= 0)
		mps = PCIE_MPS_ASSUMED;
	return gts * 1e9 * width * enc / 8 * mps / (mps + over);
}

double pcie_link_cap_gts(const struct pcie_link *l)
{
	if (l->up_max_gts > 0 && (!(l->max_gts > 0) || l->up_max_gts < l->max_gts))
		return l->up_max_gts;
	return l->max_gts > 0 ? l->max_gts : 0;
}

int pcie_gen(double gts)
{
	static const double gen[] = {2.5, 5, 8, 16, 32, 64};

	for (int i = 0; i < 6; i++)
		if (gts > gen[i] - 0.1 && gts < gen[i] + 0.1)
			return i + 1;
	return 0;
}
