/* SPDX-License-Identifier: MIT */
/* The ROCm memory backend (mem_rocm.c): AMD GPU memory through the HIP runtime. */
#ifndef GDR_MEM_ROCM_H
#define GDR_MEM_ROCM_H

#include "mem.h"

/*
 * Set up m on the AMD GPU cfg names (cfg->gpu, HIP's index; GDR_MEM_GPU_AUTO, the
 * GPU nearest rdma_dev by the rule of --use_cuda=auto; or cfg->gpu_bus_id),
 * registered as cfg->reg says (dma-buf, amdgpu_peermem, or dma-buf then
 * amdgpu_peermem). 0, or -1 (printed).
 */
int gdr_mem_rocm_init(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev);
/* The AMD GPUs ROCm sees (>= 1), or -1 with one line in why. */
int gdr_mem_rocm_count(char *why, size_t n);
/* HIP GPU index's PCI address (gdr_mem_gpu_bdf's contract). */
int gdr_mem_rocm_bdf(int index, char *out, size_t n, char *why, size_t wn);
/* The HIP runtime's path when this process loaded it (gdr_mem_runtime_loaded), else NULL. */
const char *gdr_mem_rocm_loaded(void);

#endif
