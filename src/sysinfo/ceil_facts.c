/* SPDX-License-Identifier: MIT */
/* What a ceiling needs to know about a NIC port and a GPU, read from sysfs: see ceiling.h. */
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include "ceiling.h"
#include "ibdev.h"
#include "sysfs.h"

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
	if (!ib_dev_bdf(sysroot, dev, nic, sizeof(nic)))
		pcie_link_read(sysroot, nic, &in->nic);
	else /* there, without a PCI function: a software device; else not known at all */
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
	if (nic[0] && !topo_locate(sysroot, nic, &ln) && !topo_locate(sysroot, gpu, &lg))
		in->path = topo_relation(&ln, &lg);
}
