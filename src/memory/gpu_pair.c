/* SPDX-License-Identifier: MIT */
/* GPU-NIC pairing by NUMA node and order, for NVLink-C2C (Grace) hosts. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "gpu_pair.h"

int gdr_numa_pair_nic(const int *gpu_numa, int ngpu, int g, const int *nic_numa, int nnic,
		      int *gpu_rank, int *nic_rank)
{
	int numa, k = 0, nics = 0;

	if (g < 0 || g >= ngpu || gpu_numa[g] < 0)
		return -1;
	numa = gpu_numa[g];
	for (int i = 0; i < g; i++)
		k += gpu_numa[i] == numa;
	for (int n = 0; n < nnic; n++)
		nics += nic_numa[n] == numa;
	if (!nics)
		return -1;
	if (gpu_rank)
		*gpu_rank = k;
	k %= nics;
	if (nic_rank)
		*nic_rank = k;
	for (int n = 0; n < nnic; n++)
		if (nic_numa[n] == numa && !k--)
			return n;
	return -1;
}

int gdr_numa_pair_gpu(const int *gpu_numa, int ngpu, const int *nic_numa, int nnic, int n,
		      int *gpu_rank, int *nic_rank)
{
	for (int g = 0; g < ngpu; g++)
		if (gdr_numa_pair_nic(gpu_numa, ngpu, g, nic_numa, nnic, gpu_rank, nic_rank) == n)
			return g;
	return -1;
}

int gdr_cpuinfo_grace(const char *path)
{
	char line[256];
	int arm = 0, v2 = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* implementer 0x41 (Arm), part 0xd4f (Neoverse V2) */
		arm |= !strncmp(line, "CPU implementer", 15) && strstr(line, "0x41");
		v2 |= !strncmp(line, "CPU part", 8) && strstr(line, "0xd4f");
	}
	fclose(f);
	return arm && v2;
}

const char *gdr_ordinal(int k, char *buf, size_t n)
{
	int v = k + 1;
	const char *suf = "th";

	if (v % 100 < 11 || v % 100 > 13)
		suf = v % 10 == 1 ? "st" : v % 10 == 2 ? "nd" : v % 10 == 3 ? "rd" : "th";
	snprintf(buf, n, "%d%s", v, suf);
	return buf;
}
