/* SPDX-License-Identifier: MIT */
/* --use_cuda=auto: PCIe switch or root complex, else NUMA node and order, else rail order. */
#include "config.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "affinity.h"
#include "cuda_topo.h"
#include "gpu_pair.h"
#include "gpu_pick.h"
#include "log.h"
#include "sysfs.h"

#define PICK_MAX 64

/*
 * Resolve root/rel to the device's path as the host would show it (/sys/devices/...,
 * a fixture's prefix taken off), and its NUMA node. 0, or -1 when it does not resolve.
 */
static int locate(const char *root, const char *rel, char *out, size_t n, int *numa)
{
	char path[PATH_MAX], real[PATH_MAX], rreal[PATH_MAX];
	size_t rl;
	FILE *f;

	*numa = -1;
	out[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!realpath(path, real) || !realpath(root, rreal))
		return -1;
	rl = strlen(rreal);
	if (strncmp(real, rreal, rl) || real[rl] != '/')
		return -1;
	snprintf(out, n, "/sys%s", real + rl);
	if (snprintf(path, sizeof(path), "%s/numa_node", real) >= (int)sizeof(path))
		return 0;
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", numa) != 1 || *numa < 0)
			*numa = -1;
		fclose(f);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return fs_name_cmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The RDMA devices with a PCI function, in name order (mlx5_2 before mlx5_10), with their
 * NUMA nodes and, when paths is not NULL, their device paths (free them); the place of
 * rdma_dev among them in *me (-1 if absent). Returns the count.
 */
static int list_nics(const char *root, const char *rdma_dev, int *numa, char **paths, int *me)
{
	char dir[PATH_MAX], rel[PATH_MAX], path[PATH_MAX], *names[PICK_MAX];
	struct dirent *e;
	int count = 0, out = 0;
	DIR *d;

	*me = -1;
	snprintf(dir, sizeof(dir), "%s/class/infiniband", root);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)) && count < PICK_MAX)
		if (e->d_name[0] != '.' && (names[count] = strdup(e->d_name)))
			count++;
	closedir(d);
	qsort(names, (size_t)count, sizeof(*names), cmp_str);
	for (int i = 0; i < count; i++) {
		snprintf(rel, sizeof(rel), "class/infiniband/%s/device", names[i]);
		if (!locate(root, rel, path, sizeof(path), &numa[out]) &&
		    !strncmp(path, "/sys/devices/pci", 16)) {
			if (!strcmp(names[i], rdma_dev))
				*me = out;
			if (paths && !(paths[out] = strdup(path)))
				continue;
			out++;
		}
		free(names[i]);
	}
	return out;
}

static int is_grace(const char *root)
{
	char path[PATH_MAX];
	const char *env = getenv("GDR_SYSFS_ROOT");

	if (!env || !*env)
		return gdr_cpuinfo_grace("/proc/cpuinfo");
	snprintf(path, sizeof(path), "%s/../proc/cpuinfo", root);
	return gdr_cpuinfo_grace(path);
}

/*
 * GPUs tie[nt] (CUDA indices) are all as near the NIC at nic (best_common path components):
 * the NIC's place among the NICs as near them (name order) picks the GPU of that place
 * among them (PCI address order), so two NICs and two GPUs under one switch pair 1:1, as
 * the cluster's NIC choice pairs them the other way. The pick; the NIC's place in *place,
 * of *of NICs.
 */
static int tie_break(const char *root, const char *rdma_dev, const char *const *gpu_bdf, int *tie,
		     int nt, const char *gpu0, size_t best_common, int *place, int *of)
{
	char *paths[PICK_MAX];
	int numa[PICK_MAX], me, nnic, k = 0, mine = -1;

	nnic = list_nics(root, rdma_dev, numa, paths, &me);
	for (int i = 0; i < nnic; i++) {
		if (gdr_path_common(paths[i], gpu0) >= best_common) {
			if (i == me)
				mine = k;
			k++;
		}
		free(paths[i]);
	}
	for (int i = 1; i < nt; i++) /* PCI address order */
		for (int j = i; j > 0 && strcmp(gpu_bdf[tie[j]], gpu_bdf[tie[j - 1]]) < 0; j--) {
			int t = tie[j];

			tie[j] = tie[j - 1];
			tie[j - 1] = t;
		}
	*of = k;
	*place = mine < 0 ? 0 : mine;
	return tie[*place % nt];
}

int gdr_pick_gpu(const char *const *gpu_bdf, int count, const char *rdma_dev, char *why, size_t n)
{
	char nic[PATH_MAX], gpu[PATH_MAX], rel[PATH_MAX], o1[16], o2[16];
	const char *root = gdr_sysfs_root();
	char bestpath[PATH_MAX] = "";
	int gnuma[PICK_MAX], nnuma[PICK_MAX], nnic, me, nicnuma, best = 0, ties = 0, known = 0;
	int g, gr = 0, nr = 0, tie[PICK_MAX], place = 0, of = 0;
	size_t best_common = 0;
	enum gdr_pci_affinity aff = GDR_PCI_UNKNOWN;

	if (!rdma_dev) {
		snprintf(why, n, "no RDMA device to compare with");
		return 0;
	}
	snprintf(rel, sizeof(rel), "class/infiniband/%s/device", rdma_dev);
	if (strchr(rdma_dev, '/') || locate(root, rel, nic, sizeof(nic), &nicnuma) ||
	    strncmp(nic, "/sys/devices/pci", 16)) {
		snprintf(why, n, "the PCIe position of %s is unknown", rdma_dev);
		return 0;
	}
	if (count > PICK_MAX)
		count = PICK_MAX;
	for (int i = 0; i < count; i++) {
		size_t c;

		snprintf(rel, sizeof(rel), "bus/pci/devices/%s", gpu_bdf[i]);
		if (!gpu_bdf[i][0] || locate(root, rel, gpu, sizeof(gpu), &gnuma[i])) {
			gnuma[i] = -1;
			continue;
		}
		known++;
		c = gdr_path_common(nic, gpu);
		if (c > best_common) {
			best_common = c;
			best = i;
			aff = gdr_pci_affinity(nic, gpu);
			snprintf(bestpath, sizeof(bestpath), "%s", gpu);
			ties = 0;
			tie[ties++] = i;
		} else if (c == best_common) {
			tie[ties++] = i;
		}
	}
	if (!known) {
		snprintf(why, n, "the PCIe position of the GPUs is unknown");
		return 0;
	}
	if ((aff == GDR_PCI_SAME_SWITCH || aff == GDR_PCI_SAME_ROOT) && ties > 1) {
		best = tie_break(root, rdma_dev, gpu_bdf, tie, ties, bestpath, best_common, &place,
				 &of);
		snprintf(why, n,
			 "nearest NIC: %s; %d GPUs as near: the %s of %d NICs as near takes the %s "
			 "GPU (PCI order)",
			 aff == GDR_PCI_SAME_SWITCH ? "same PCIe switch" : "same PCIe root complex",
			 ties, gdr_ordinal(place, o1, sizeof(o1)), of,
			 gdr_ordinal(place % ties, o2, sizeof(o2)));
		return best;
	}
	if (aff == GDR_PCI_SAME_SWITCH || aff == GDR_PCI_SAME_ROOT) {
		snprintf(why, n, "nearest NIC: %s",
			 aff == GDR_PCI_SAME_SWITCH ? "same PCIe switch"
						    : "same PCIe root complex");
		return best;
	}
	/* Every GPU is NODE or SYS from the NIC: pair by NUMA node and order. */
	nnic = list_nics(root, rdma_dev, nnuma, NULL, &me);
	g = me < 0 ? -1 : gdr_numa_pair_gpu(gnuma, count, nnuma, nnic, me, &gr, &nr);
	if (g >= 0) {
		snprintf(why, n, "%s: %s GPU and %s NIC of NUMA node %d",
			 is_grace(root) ? "C2C node" : "no GPU on the NIC's PCIe root complex",
			 gdr_ordinal(gr, o1, sizeof(o1)), gdr_ordinal(nr, o2, sizeof(o2)), nicnuma);
		return g;
	}
	if (me >= 0) {
		snprintf(why, n, "rail order: %s NIC of %d (no GPU pairs with it by NUMA node)",
			 gdr_ordinal(me, o1, sizeof(o1)), nnic);
		return me % count;
	}
	snprintf(why, n, "no GPU on the NIC's PCIe root complex; lowest index taken");
	return 0;
}

int gdr_pick_gpu_said(const char *opt, const char *const *gpu_bdf, int count, const char *rdma_dev)
{
	char why[160];
	int best = gdr_pick_gpu(gpu_bdf, count, rdma_dev, why, sizeof(why));

	if (rdma_dev)
		gdr_info("%s=auto: GPU %d (%s) for %s (%s)", opt, best,
			 best < count && gpu_bdf[best][0] ? gpu_bdf[best] : "?", rdma_dev, why);
	else
		gdr_info("%s=auto: GPU %d (%s)", opt, best, why);
	return best;
}
