/* SPDX-License-Identifier: MIT */
/* A GPU entry and the words about it that the NVIDIA and AMD checks share (doctor.h). */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"
#include "sysfs.h"

struct doc_gpu *doc_gpu_new(struct doctor *d, const char *bdf, long *device)
{
	struct doc_gpu *g = &d->gpu[d->ngpu++];
	char path[PATH_MAX];

	memset(g, 0, sizeof(*g));
	snprintf(g->bdf, sizeof(g->bdf), "%s", bdf);
	g->cuda_index = -1;
	g->dmabuf = -1;
	g->gdr = -1;
	if (fs_read_long(
		fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/device", bdf),
		device))
		*device = 0;
	return g;
}

const char *doc_numa_str(int numa, char *buf, size_t n)
{
	if (numa < 0)
		snprintf(buf, n, "?");
	else
		snprintf(buf, n, "%d", numa);
	return buf;
}

/* "root 0000:00 > 0000:00:01.0 > 0000:01:00.0": the bridges from the root complex down. */
const char *doc_pcie_path(const struct doc_gpu *g, char *buf, size_t n)
{
	size_t len;

	if (!g->have_loc) {
		snprintf(buf, n, "unknown");
		return buf;
	}
	len = (size_t)snprintf(buf, n, "root %s", g->loc.rc);
	for (int i = 0; i < g->loc.depth && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, " > %s", g->loc.bridge[i]);
	return buf;
}
