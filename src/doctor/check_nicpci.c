/* SPDX-License-Identifier: MIT */
/*
 * NIC PCI functions with no RDMA device: a Mellanox/NVIDIA function with no
 * driver bound (rebind it), or bound but with no RDMA device (load the _ib
 * module). Either way it is missing from /sys/class/infiniband, so say why.
 * The NICs of AMD nodes too: a Broadcom function bound to bnxt_en (Thor2; not
 * tg3's onboard ports, which have no RDMA) without bnxt_re, and an AMD Pensando
 * (Pollara) function bound to ionic without ionic_rdma.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"
#include "sysfs.h"

#define VENDOR_MELLANOX 0x15b3
#define VENDOR_BROADCOM 0x14e4
#define VENDOR_PENSANDO 0x1dd8

/* The RDMA half of a bound Ethernet driver whose functions should have an RDMA device. */
static const char *rdma_module(long vendor, const char *drv)
{
	if (vendor == VENDOR_BROADCOM && !strcmp(drv, "bnxt_en"))
		return "bnxt_re";
	if (vendor == VENDOR_PENSANDO && !strcmp(drv, "ionic"))
		return "ionic_rdma";
	return NULL;
}

static int has_rdma(const struct doctor *d, const char *bdf)
{
	for (int n = 0; n < d->nnic; n++)
		if (!strcmp(d->nic[n].bdf, bdf))
			return 1;
	return 0;
}

/* A network or InfiniBand controller of the vendor (not a bridge or a DMA engine). */
static int is_nic(const struct doctor *d, const char *bdf)
{
	char path[PATH_MAX];
	long vendor, cls;

	return !fs_read_long(
		   fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/vendor", bdf),
		   &vendor) &&
	       vendor == VENDOR_MELLANOX &&
	       !fs_read_long(
		   fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/class", bdf),
		   &cls) &&
	       ((cls >> 16) == 0x02 || (cls >> 8) == 0x0c06);
}

/* A Broadcom or Pensando Ethernet function whose driver is bound but has no RDMA device. */
static void amd_node_nic(struct doctor *d, const char *bdf)
{
	char path[PATH_MAX], drv[64], next[160];
	const char *mod;
	long vendor, cls;

	if (fs_read_long(
		fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/vendor", bdf),
		&vendor) ||
	    (vendor != VENDOR_BROADCOM && vendor != VENDOR_PENSANDO) ||
	    fs_read_long(
		fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/class", bdf),
		&cls) ||
	    (cls >> 16) != 0x02 || has_rdma(d, bdf) ||
	    fs_link_name(
		fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/driver", bdf), drv,
		sizeof(drv)))
		return;
	mod = rdma_module(vendor, drv);
	if (!mod)
		return;
	snprintf(next, sizeof(next), "load the RDMA driver (`modprobe %s`) and check dmesg", mod);
	out_add(&d->out, OUT_WARN, "rdma.pci", next,
		"NIC PCI function %s is bound to %s but has no RDMA device (%s not loaded?)", bdf,
		drv, mod);
}

void check_nicpci(struct doctor *d)
{
	char path[PATH_MAX], drv[64], **fns;
	int n = fs_list(fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices"), &fns);

	for (int i = 0; i < n; i++) {
		amd_node_nic(d, fns[i]);
		if (!is_nic(d, fns[i]) || has_rdma(d, fns[i]))
			continue;
		if (fs_link_name(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/bus/pci/devices/%s/driver", fns[i]),
				 drv, sizeof(drv)))
			out_add(
			    &d->out, OUT_WARN, "rdma.pci",
			    "load the driver (`modprobe mlx5_core`; mlx4_core for ConnectX-3) or "
			    "bind the function: `echo BDF > /sys/bus/pci/drivers/DRIVER/bind`",
			    "NIC PCI function %s has no kernel driver bound: it has no RDMA device",
			    fns[i]);
		else
			out_add(&d->out, OUT_WARN, "rdma.pci",
				"load the RDMA half of the driver (`modprobe mlx5_ib`; mlx4_ib for "
				"ConnectX-3) and check dmesg",
				"NIC PCI function %s is bound to %s but has no RDMA device", fns[i],
				drv);
	}
	fs_free_names(fns, n);
}
