/* SPDX-License-Identifier: MIT */
/*
 * A rank's NIC when the user named none (no --rails, no -d): the only RDMA
 * device of its host, else the one nearest its GPU in PCIe (as
 * --use_cuda=auto picks a GPU near a NIC, the other way round), else none:
 * several ranks of a host would all take the first NIC.
 */
#include "config.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "cuda_topo.h"
#ifdef HAVE_CUDA
#include "cuda_api.h"
#endif

int gdr_nic_nearest(const char *sysfs, const char *bdf, char *out, size_t n)
{
	char path[PATH_MAX], gpu[PATH_MAX], nic[PATH_MAX];
	size_t best = 0;
	int count = 0;
	DIR *d;
	struct dirent *e;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", sysfs, bdf ? bdf : "");
	if (!bdf || !realpath(path, gpu))
		gpu[0] = '\0';
	snprintf(path, sizeof(path), "%s/class/infiniband", sysfs);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		size_t c;

		if (e->d_name[0] == '.')
			continue;
		count++;
		snprintf(path, sizeof(path), "%s/class/infiniband/%.200s/device", sysfs, e->d_name);
		c = gpu[0] && realpath(path, nic) ? gdr_path_common(gpu, nic) : 0;
		/* nearer wins; equally near: the first name, as a listing sorts them */
		if (!out[0] || c > best || (c == best && strcmp(e->d_name, out) < 0)) {
			best = c;
			snprintf(out, n, "%s", e->d_name);
		}
	}
	if (d)
		closedir(d);
	return count;
}

int gdr_nic_choose(const char *sysfs, const char *bdf, int mates, char *out, size_t n)
{
	int ndev = gdr_nic_nearest(sysfs, bdf, out, n);

	if (ndev > 1 && mates > 1 && !bdf) {
		out[0] = '\0'; /* every rank of the host would take the first NIC */
		return -1;
	}
	return ndev;
}

int gdr_gpu_bdf(int index, char *out, size_t n, char *why, size_t wn)
{
#ifdef HAVE_CUDA
	const struct gdr_cuda_api *cu;
	char raw[32];
	CUdevice dev;
	int count = 0;

	if (gdr_cuda_load(&cu, why, wn))
		return -1;
	if (cu->cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1) {
		snprintf(why, wn, "no CUDA device");
		return -1;
	}
	if (index < 0)
		index =
		    (-index - 1) % count; /* the local rank's GPU: local rank modulo the count */
	if (index >= count) {
		snprintf(why, wn, "no CUDA device %d (the host has %d)", index, count);
		return -1;
	}
	if (cu->cuDeviceGet(&dev, index) != CUDA_SUCCESS ||
	    cu->cuDeviceGetPCIBusId(raw, sizeof(raw), dev) != CUDA_SUCCESS ||
	    gdr_pci_normalize(raw, out, n)) {
		snprintf(why, wn, "no PCI address for CUDA device %d", index);
		return -1;
	}
	return 0;
#else
	(void)index;
	(void)out;
	(void)n;
	snprintf(why, wn, "this build has no CUDA");
	return -1;
#endif
}
