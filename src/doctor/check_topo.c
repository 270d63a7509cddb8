/* SPDX-License-Identifier: MIT */
/*
 * Topology: the PCIe relation of every GPU x RDMA device pair, and the best pair.
 * On Grace hosts (GB200, GB300, GH200) GPUs hang off the CPU over NVLink-C2C and
 * every NIC is NODE or SYS from every GPU: there a GPU is paired by NUMA node and
 * rail order instead, and NODE/SYS is not called slow.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"
#include "gpu_pair.h"
#include "sysfs.h"

static const char *verdict(enum topo_rel rel)
{
	switch (rel) {
	case TOPO_X:
	case TOPO_PIX:
	case TOPO_PXB:
		return "good: traffic stays inside the PCIe switch";
	case TOPO_PHB:
		return "likely fine: traffic crosses the CPU's PCIe host bridge";
	case TOPO_NODE:
		return "slow: traffic crosses root complexes inside the NUMA node";
	case TOPO_SYS:
		return "slow: traffic crosses the CPU interconnect between NUMA nodes";
	default:
		return "unknown: the PCI path could not be read";
	}
}

const char *doc_no_pairs(const struct doctor *d, char *buf, size_t n)
{
	int hw = 0;

	for (int i = 0; i < d->nnic; i++)
		hw += d->nic[i].bdf[0] != '\0';
	if (d->ngpu && hw)
		return NULL;
	if (!d->ngpu && !hw)
		snprintf(buf, n,
			 "GPU-NIC pairs skipped: no NVIDIA GPU on the PCI bus and no "
			 "hardware RDMA device (%d software one(s))",
			 d->nnic);
	else if (!d->ngpu)
		snprintf(buf, n,
			 "GPU-NIC pairs skipped: no NVIDIA GPU on the PCI bus (%d hardware "
			 "RDMA device(s) found)",
			 hw);
	else
		snprintf(buf, n, "GPU-NIC pairs skipped: %d GPU(s) but no hardware RDMA device%s",
			 d->ngpu, d->nnic ? " (software ones have no PCIe path)" : "");
	return buf;
}

/* 1 when /proc/cpuinfo shows NVIDIA Grace cores. */
static int grace_host(const struct doctor *d)
{
	char path[PATH_MAX];

	return gdr_cpuinfo_grace(fs_path(path, sizeof(path), d->procroot, "/proc/cpuinfo"));
}

static enum topo_rel pair_rel(const struct doctor *d, int g, int n)
{
	const struct doc_gpu *gpu = &d->gpu[g];
	const struct doc_nic *nic = &d->nic[n];

	if (!nic->bdf[0] || !gpu->have_loc || !nic->have_loc)
		return TOPO_UNKNOWN;
	return topo_relation(&gpu->loc, &nic->loc);
}

/* 1 when no GPU has a NIC closer than NODE (and some pair is known). */
static int all_node_sys(const struct doctor *d)
{
	int known = 0;

	for (int g = 0; g < d->ngpu; g++)
		for (int n = 0; n < d->nnic; n++) {
			enum topo_rel r = pair_rel(d, g, n);

			if (r < TOPO_NODE)
				return 0;
			known |= r != TOPO_UNKNOWN;
		}
	return known;
}

/* The C2C rule (gpu_pair.h, shared with --use_cuda=auto). -1 when the node has no NIC. */
static int c2c_pair(const struct doctor *d, int g, int *rank)
{
	int gnuma[DOC_MAX_DEV], nnuma[DOC_MAX_DEV];

	for (int i = 0; i < d->ngpu; i++)
		gnuma[i] = d->gpu[i].have_loc ? d->gpu[i].loc.numa : -1;
	for (int n = 0; n < d->nnic; n++)
		nnuma[n] = d->nic[n].bdf[0] && d->nic[n].have_loc ? d->nic[n].loc.numa : -1;
	return gdr_numa_pair_nic(gnuma, d->ngpu, g, nnuma, d->nnic, rank, NULL);
}

void check_topo(struct doctor *d)
{
	enum topo_rel best_all = TOPO_UNKNOWN;
	int best_gpu = -1, best_nic = -1;
	char row[512], next[256], why[160];
	int c2c;

	out_group(&d->out, "Topology");
	check_gpu_links(d);
	if (doc_no_pairs(d, why, sizeof(why))) {
		out_add(&d->out, OUT_INFO, "topo.pairs", NULL, "%s", why);
		return;
	}
	c2c = all_node_sys(d) && grace_host(d);
	if (c2c)
		out_add(&d->out, OUT_INFO, "topo.rule", NULL,
			"Grace host (NVLink-C2C): every NIC is NODE or SYS from every GPU, as "
			"expected there; GPUs are paired with NICs by NUMA node and rail order");
	for (int g = 0; g < d->ngpu; g++) {
		struct doc_gpu *gpu = &d->gpu[g];
		enum topo_rel best = TOPO_UNKNOWN;
		int bn = -1, len = 0, shown = gpu->cuda_index >= 0 ? gpu->cuda_index : g;
		enum out_level lvl;

		row[0] = '\0';
		for (int n = 0; n < d->nnic; n++) {
			struct doc_nic *nic = &d->nic[n];
			enum topo_rel rel = TOPO_UNKNOWN;

			if (!nic->bdf[0])
				continue; /* software device: no PCI path */
			if (gpu->have_loc && nic->have_loc)
				rel = topo_relation(&gpu->loc, &nic->loc);
			out_pair(&d->out, gpu->bdf, shown, nic->name, topo_rel_name(rel));
			if (len < (int)sizeof(row))
				len += snprintf(row + len, sizeof(row) - (size_t)len, "%s%s %s",
						len ? ", " : "", nic->name, topo_rel_name(rel));
			if (rel < best) {
				best = rel;
				bn = n;
			}
		}
		if (bn < 0) {
			out_add(&d->out, OUT_INFO, "topo.gpu", NULL,
				"GPU %d (%s): no hardware RDMA device to pair with", shown,
				gpu->bdf);
			continue;
		}
		if (c2c) {
			int rank = 0, cn = c2c_pair(d, g, &rank);

			if (cn >= 0) {
				out_add(&d->out, OUT_OK, "topo.gpu", NULL,
					"GPU %d (%s): %s; paired with %s (%s) by NUMA node %d and "
					"rail order (GPU %d of the node): on NVLink-C2C, NODE/SYS "
					"alone is not slow",
					shown, gpu->bdf, row, d->nic[cn].name,
					topo_rel_name(pair_rel(d, g, cn)), gpu->loc.numa, rank);
				if (best_gpu < 0) {
					best_all = pair_rel(d, g, cn);
					best_gpu = g;
					best_nic = cn;
				}
				continue;
			}
		}
		lvl = best <= TOPO_PHB ? OUT_OK : OUT_WARN;
		snprintf(next, sizeof(next),
			 "put GPU and NIC under one PCIe switch (or at least one CPU socket); "
			 "expect a fraction of line rate on this pair");
		out_add(&d->out, lvl, "topo.gpu", lvl == OUT_OK ? NULL : next,
			"GPU %d (%s): %s; best %s %s, %s", shown, gpu->bdf, row, d->nic[bn].name,
			topo_rel_name(best), verdict(best));
		if (best < best_all) {
			best_all = best;
			best_gpu = g;
			best_nic = bn;
		}
	}
	if (best_gpu >= 0) {
		struct doc_gpu *gpu = &d->gpu[best_gpu];

		/* by bus id: HIP's index is known only when the runtime was asked */
		out_add(&d->out, OUT_INFO, "topo.best", NULL,
			"best pair: GPU %d (%s) with %s (%s): e.g. gdr_write_bw -d %s %s=%s",
			gpu->cuda_index >= 0 ? gpu->cuda_index : best_gpu, gpu->bdf,
			d->nic[best_nic].name, topo_rel_name(best_all), d->nic[best_nic].name,
			gpu->amd ? "--use_rocm" : "--use_cuda_bus_id", gpu->bdf);
	}
}
