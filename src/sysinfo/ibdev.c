/* SPDX-License-Identifier: MIT */
/* An RDMA device's PCI function and a port's rate, from sysfs below a root. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ibdev.h"
#include "sysfs.h"
#include "topo.h"

int ib_dev_bdf(const char *sysroot, const char *dev, char *bdf, size_t n)
{
	char path[PATH_MAX], real[PATH_MAX];
	char *base;

	if (!fs_path(path, sizeof(path), sysroot, "/sys/class/infiniband/%s/device", dev) ||
	    !realpath(path, real))
		return -1;
	base = strrchr(real, '/');
	if (base && strstr(base, ".sf.")) { /* an mlx5 sub-function ("mlx5_core.sf.2"): its PF's */
		*base = '\0';
		base = strrchr(real, '/');
	}
	base = base ? base + 1 : real;
	if (!topo_is_bdf(base) || strlen(base) >= n)
		return -1;
	strcpy(bdf, base);
	return 0;
}

double ib_port_rate_gbps(const char *sysroot, const char *dev, int port)
{
	char path[PATH_MAX], line[64];
	double g;

	if (fs_read_line(fs_path(path, sizeof(path), sysroot,
				 "/sys/class/infiniband/%s/ports/%d/rate", dev, port),
			 line, sizeof(line)) ||
	    sscanf(line, "%lf Gb/sec", &g) != 1 || !(g > 0))
		return 0;
	/* the kernel writes signalling rates: SDR/DDR/QDR lanes carry 8 of 10 bits, FDR's
	 * 14.0625 Gb/s ("56 Gb/sec (4X FDR)") 64 of 66; FDR10 and later are data rates */
	if (strstr(line, "SDR)") || strstr(line, "DDR)") || strstr(line, "QDR)"))
		return g * 8 / 10;
	if (strstr(line, " FDR)"))
		return g / 14 * 14.0625 * 64 / 66;
	return g;
}
