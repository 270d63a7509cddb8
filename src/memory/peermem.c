/* SPDX-License-Identifier: MIT */
/* Peer-memory module detection (see peermem.h). */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include "peermem.h"

const char *gdr_peermem_loaded(const char *root)
{
	static const struct {
		const char *path, *name;
	} where[] = {
		{ "/sys/module/nvidia_peermem", "nvidia_peermem" },
		{ "/sys/module/nv_peer_mem", "nv_peer_mem" },
		{ "/sys/kernel/mm/memory_peers/nv_mem/version", "nv_peer_mem" },
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root ? root : "", where[i].path);
		if (!access(path, F_OK))
			return where[i].name;
	}
	return NULL;
}
