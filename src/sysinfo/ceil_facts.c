/* SPDX-License-Identifier: MIT */
/* What a ceiling needs to know about a NIC port and a GPU, read from sysfs: see ceiling.h. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "ceiling.h"
#include "ibdev.h"
#include "sysfs.h"

/* How many bridges a and b share from the root port down. */
static int shared(const struct topo_loc *a, const struct topo_loc *b)
{
	int c = 0;

	if (strcmp(a->rc, b->rc))
		return 0;
	while (c < a->depth && c < b->depth && !strcmp(a->bridge[c], b->bridge[c]))
		c++;
	return c;
}

void ceiling_facts(const char *sysroot, const char *dev, int port, const char *gpu_bdf,
		   struct ceil_in *in)
{
	char nic[TOPO_BDF_LEN], gpu[TOPO_BDF_LEN], path[PATH_MAX];
	struct topo_loc ln, lg;
	size_t i;

	nic[0] = '\0';
	memset(in, 0, sizeof(*in));
	in->path = TOPO_UNKNOWN;
	in->port_gbps = ib_port_rate_gbps(sysroot, dev, port);
	if (!ib_dev_bdf(sysroot, dev, nic, sizeof(nic))) {
		pcie_link_read(sysroot, nic, &in->nic);
		if (!topo_locate(sysroot, nic, &ln)) /* host memory: every link to the root port */
			pcie_narrowest(sysroot, &ln, 0, ln.depth, &in->nic_up);
		else
			nic[0] = '\0';
	} else /* there, without a PCI function: a software device; else not known at all */
		in->nic_virtual = fs_exists(
		    fs_path(path, sizeof(path), sysroot, "/sys/class/infiniband/%s", dev));
	if (!gpu_bdf || !*gpu_bdf)
		return;
	in->gpu_mem = true;
	if (strlen(gpu_bdf) >= sizeof(gpu))
		return; /* no PCI address: the GPU's link stays unknown (and is said so) */
	for (i = 0; gpu_bdf[i]; i++) /* CUDA writes the address in upper case, sysfs in lower */
		gpu[i] = (char)tolower((unsigned char)gpu_bdf[i]);
	gpu[i] = '\0';
	pcie_link_read(sysroot, gpu, &in->gpu);
	if (topo_locate(sysroot, gpu, &lg))
		return;
	/* the GPU's own slot port (its last bridge) shows the GPU's link: left out */
	pcie_narrowest(sysroot, &lg, 0, lg.depth - 1, &in->gpu_up);
	if (!nic[0])
		return;
	in->path = topo_relation(&ln, &lg);
	if (in->path == TOPO_PIX || in->path == TOPO_PXB) {
		/* peer to peer turns at the last bridge both share: the links below it */
		int c = shared(&ln, &lg);

		pcie_narrowest(sysroot, &ln, c, ln.depth, &in->nic_up);
		pcie_narrowest(sysroot, &lg, c, lg.depth - 1, &in->gpu_up);
	}
}
