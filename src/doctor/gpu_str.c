/* SPDX-License-Identifier: MIT */
/* Words about a GPU that the NVIDIA and AMD checks print alike (doctor.h). */
#include "config.h"
#include <stdio.h>
#include "doctor.h"

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
