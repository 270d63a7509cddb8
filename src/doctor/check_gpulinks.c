/* SPDX-License-Identifier: MIT */
/*
 * Topology: the GPU-GPU matrix in `nvidia-smi topo -m` words. NVLink comes
 * from the CUDA driver (peer access with native atomics); every other pair
 * gets its PCIe relation from sysfs (PIX, PXB, PHB, NODE, SYS).
 */
#include <stdio.h>
#include <string.h>
#include "doctor.h"

static int shown(const struct doctor *d, int i)
{
	return d->gpu[i].cuda_index >= 0 ? d->gpu[i].cuda_index : i;
}

static const char *link_word(const struct doctor *d, int a, int b)
{
	const struct doc_gpu *ga = &d->gpu[a], *gb = &d->gpu[b];

	if (a == b)
		return "X";
	if (d->link[a][b] == DOC_LINK_NVLINK)
		return "NV";
	if (!ga->have_loc || !gb->have_loc)
		return topo_rel_name(TOPO_UNKNOWN);
	return topo_rel_name(topo_relation(&ga->loc, &gb->loc));
}

void check_gpu_links(struct doctor *d)
{
	char line[DOC_MAX_DEV * 6 + 32];
	int nv = 0, nopeer = 0, pairs = 0;
	size_t len;

	if (d->ngpu < 2) {
		out_add(&d->out, OUT_INFO, "topo.gpulinks", NULL,
			"GPU-GPU links: %d GPU%s, no pair to check", d->ngpu,
			d->ngpu == 1 ? "" : "s");
		return;
	}
	if (d->amd)
		out_add(&d->out, OUT_INFO, "topo.gpulinks", NULL,
			"AMD GPUs: the matrix below is the PCIe path only; xGMI links between "
			"them are not read (`amd-smi topology` shows them)");
	else
		out_add(&d->out, OUT_INFO, "topo.gpulinks", NULL,
			"GPU-GPU links in `nvidia-smi topo -m` words: NV = NVLink (%s), "
			"PIX/PXB/PHB/NODE/SYS = the PCIe path (sysfs)",
			d->cuda_checked ? "CUDA reports peer access with native atomics; "
					  "`nvidia-smi topo -m` adds the link count"
					: "not known: CUDA was not asked");
	len = (size_t)snprintf(line, sizeof(line), "%-6s", "");
	for (int b = 0; b < d->ngpu && len < sizeof(line); b++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " GPU%-*d",
					b + 1 < d->ngpu ? 2 : 0, shown(d, b));
	out_add(&d->out, OUT_INFO, "topo.gpulinks", NULL, "%s", line);
	for (int a = 0; a < d->ngpu; a++) {
		len = (size_t)snprintf(line, sizeof(line), "GPU%-3d", shown(d, a));
		for (int b = 0; b < d->ngpu && len < sizeof(line); b++) {
			const char *w = link_word(d, a, b);

			len += (size_t)snprintf(line + len, sizeof(line) - len, " %-*s",
						b + 1 < d->ngpu ? 5 : 0, w);
			if (a == b)
				continue;
			out_link(&d->out, d->gpu[a].bdf, shown(d, a), d->gpu[b].bdf, shown(d, b),
				 w);
			if (b < a)
				continue;
			pairs++;
			nv += !strcmp(w, "NV");
			nopeer += d->link[a][b] == DOC_LINK_NONE;
		}
		out_add(&d->out, OUT_INFO, "topo.gpulinks", NULL, "%s", line);
	}
	if (!d->cuda_checked)
		return;
	out_add(&d->out, nopeer ? OUT_WARN : OUT_OK, "topo.gpupeers",
		nopeer ? "GPU-GPU copies of those pairs go through host memory: check ACS and "
			 "the IOMMU (below)"
		       : NULL,
		"%d of %d GPU pairs over NVLink; %d pair(s) without peer access", nv, pairs,
		nopeer);
}
