/* SPDX-License-Identifier: MIT */
/*
 * NIC settings fixed before any queue pair exists: mlx5's scatter-to-CQE
 * (off when receive buffers are in GPU memory) and PCIe relaxed ordering
 * (on for bandwidth tests unless --disable_pcie_relaxed).
 */
#ifndef GDR_NIC_ENV_H
#define GDR_NIC_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include "opts.h"

/*
 * libmlx5 copies a received message of up to 32 B (64 B with 128-byte CQEs)
 * from the completion entry into the receive buffer with the CPU: into GPU
 * memory that faults. The copy is done by the receiving process into its own
 * buffers, so this side's memory decides. With gpu_rx, sets
 * MLX5_SCATTER_TO_CQE=0 unless the user set it (then kept, with a warning if
 * it is not 0). Must run before the first QP is created. Writes one phrase
 * for the run header into desc.
 */
void gdr_scatter_to_cqe(bool gpu_rx, char *desc, size_t n);

/* Access flag to add to bandwidth-test memory registrations (0: none). */
int gdr_relaxed_ordering_flag(const struct gdr_opts *o);

/* One phrase for the run header: relaxed ordering requested or why not. */
void gdr_relaxed_ordering_desc(const struct gdr_opts *o, char *desc, size_t n);

#endif
