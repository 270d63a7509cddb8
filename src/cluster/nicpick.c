/* SPDX-License-Identifier: MIT */
/*
 * A rank's NIC when the user named none (no --rails, no -d): the only RDMA
 * device of its host, else the one nearest its GPU in PCIe (as
 * --use_cuda=auto picks a GPU near a NIC, the other way round), else none:
 * several ranks of a host would all take the first NIC. NICs equally near
 * (two under one switch; every NIC of a Grace tray) go by the GPU's place
 * among the GPUs as near them, within its NUMA node where they span several.
 */
#include "config.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "cuda_topo.h"
#include "mem.h"
#include "sysfs.h"

#define NEAR_MAX 64

struct near_dev {
	char name[64];
	char path[PATH_MAX];
	int numa;
};

/* Resolve a sysfs link to its device path and NUMA node; 0 or -1. */
static int resolve(const char *link, struct near_dev *d)
{
	char path[PATH_MAX + 16];
	FILE *f;

	d->numa = -1;
	if (!realpath(link, d->path))
		return -1;
	snprintf(path, sizeof(path), "%s/numa_node", d->path);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &d->numa) != 1 || d->numa < 0)
			d->numa = -1;
		fclose(f);
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return fs_name_cmp(((const struct near_dev *)a)->name, ((const struct near_dev *)b)->name);
}

/*
 * The GPU's place among the host's GPUs (NVIDIA display controllers, PCI address order)
 * that are as near the first tied NIC (common >= best) and, when numa >= 0, on that node.
 */
static int gpu_place(const char *sysfs, const char *bdf, const char *nic0, size_t best, int numa)
{
	char path[PATH_MAX], **fns = NULL, line[32];
	struct near_dev g;
	int n, k = 0, mine = -1;

	n = fs_list(fs_path(path, sizeof(path), sysfs, "/bus/pci/devices"), &fns);
	for (int i = 0; i < n; i++) {
		int nvidia = 0, display = 0;

		if (fs_path(path, sizeof(path), sysfs, "/bus/pci/devices/%s/vendor", fns[i]) &&
		    !fs_read_line(path, line, sizeof(line)))
			nvidia = !strcmp(line, "0x10de");
		if (fs_path(path, sizeof(path), sysfs, "/bus/pci/devices/%s/class", fns[i]) &&
		    !fs_read_line(path, line, sizeof(line)))
			display = !strncmp(line, "0x03", 4);
		if (!nvidia || !display ||
		    !fs_path(path, sizeof(path), sysfs, "/bus/pci/devices/%s", fns[i]) ||
		    resolve(path, &g) || gdr_path_common(g.path, nic0) < best ||
		    (numa >= 0 && g.numa != numa))
			continue;
		if (!strcmp(fns[i], bdf))
			mine = k;
		k++;
	}
	fs_free_names(fns, n);
	return mine;
}

int gdr_nic_nearest(const char *sysfs, const char *bdf, char *out, size_t n)
{
	char path[PATH_MAX];
	struct near_dev *nic, gpu;
	size_t best = 0, *common;
	int count = 0, tied = 0, numa = -1, k;
	DIR *d;
	struct dirent *e;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", sysfs, bdf ? bdf : "");
	if (!bdf || resolve(path, &gpu)) { /* no GPU: no path, no NUMA node to prefer */
		gpu.path[0] = '\0';
		gpu.numa = -1;
	}
	nic = calloc(NEAR_MAX, sizeof(*nic));
	common = calloc(NEAR_MAX, sizeof(*common));
	snprintf(path, sizeof(path), "%s/class/infiniband", sysfs);
	d = nic && common ? opendir(path) : NULL;
	while (d && (e = readdir(d)) && count < NEAR_MAX) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(nic[count].name, sizeof(nic[count].name), "%.63s", e->d_name);
		snprintf(path, sizeof(path), "%s/class/infiniband/%.200s/device", sysfs, e->d_name);
		if (resolve(path, &nic[count]))
			nic[count].path[0] = '\0';
		count++;
	}
	if (d)
		closedir(d);
	if (!count)
		goto done;
	qsort(nic, (size_t)count, sizeof(*nic), by_name); /* mlx5_2 before mlx5_10 */
	for (int i = 0; i < count; i++) {
		common[i] =
		    gpu.path[0] && nic[i].path[0] ? gdr_path_common(gpu.path, nic[i].path) : 0;
		best = common[i] > best ? common[i] : best;
	}
	/* equally near NICs spanning NUMA nodes (a Grace tray): those of the GPU's node */
	for (int i = 0; i < count; i++)
		if (common[i] == best && gpu.numa >= 0 && nic[i].numa == gpu.numa)
			numa = gpu.numa;
	for (int i = 0; i < count; i++)
		tied += common[i] == best && (numa < 0 || nic[i].numa == numa);
	k = 0;
	if (tied > 1 && gpu.path[0]) {
		for (int i = 0; i < count; i++)
			if (common[i] == best && (numa < 0 || nic[i].numa == numa)) {
				k = gpu_place(sysfs, bdf, nic[i].path, best, numa);
				break;
			}
		k = k < 0 ? 0 : k % tied;
	}
	for (int i = 0; i < count; i++)
		if (common[i] == best && (numa < 0 || nic[i].numa == numa) && !k--) {
			snprintf(out, n, "%s", nic[i].name);
			break;
		}
done:
	free(nic);
	free(common);
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
	return gdr_mem_gpu_bdf(GDR_MEM_API_CUDA, index, out, n, why, wn);
}
