/* SPDX-License-Identifier: MIT */
/* Is a peer-memory module loaded, so ibv_reg_mr accepts GPU memory? */
#ifndef GDR_PEERMEM_H
#define GDR_PEERMEM_H

/*
 * Looks under root ("" = this host; a fixture tree in tests) for
 * nvidia_peermem (/sys/module/nvidia_peermem) and the legacy Mellanox
 * nv_peer_mem (/sys/module/nv_peer_mem, or its peer-memory client
 * /sys/kernel/mm/memory_peers/nv_mem/version). Returns a short description
 * of the first one found ("nvidia_peermem", "nv_peer_mem"), or NULL.
 */
const char *gdr_peermem_loaded(const char *root);

/* The hint for a host that has none, naming both modules. */
#define GDR_PEERMEM_NONE                                                                           \
	"neither nvidia-peermem (/sys/module/nvidia_peermem) nor the legacy nv_peer_mem "          \
	"(/sys/kernel/mm/memory_peers/nv_mem) is loaded"

#endif
