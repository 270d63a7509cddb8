/* SPDX-License-Identifier: MIT */
/* --use_cuda=auto: the GPU to use with an RDMA device, and the rule that picked it. */
#ifndef GDR_GPU_PICK_H
#define GDR_GPU_PICK_H

#include <stddef.h>

/*
 * gpu_bdf[count]: the GPUs' PCI addresses in CUDA order ("dddd:bb:dd.f", "" unknown).
 * Rules, first that applies: a GPU under a common PCIe switch (PIX/PXB) or root complex
 * (PHB) with the NIC; else the NUMA node and order rule of gpu_pair.h ("C2C node" on a
 * Grace host); else rail order (the NIC's place among the RDMA devices with a PCI
 * function). Reads $GDR_SYSFS_ROOT or /sys, and the cpuinfo beside it (../proc/cpuinfo
 * of a fixture, else /proc/cpuinfo). Returns the CUDA index (0 when nothing is known)
 * and writes the rule, e.g. "nearest NIC: same PCIe switch", into why.
 */
int gdr_pick_gpu(const char *const *gpu_bdf, int count, const char *rdma_dev, char *why, size_t n);
/*
 * gdr_pick_gpu, and the choice said in one info line with the rule that made it,
 * e.g. "--use_cuda=auto: GPU 1 (0000:19:00.0) for mlx5_0 (nearest NIC: ...)"; opt names
 * the option ("--use_cuda", "--use_rocm").
 */
int gdr_pick_gpu_said(const char *opt, const char *const *gpu_bdf, int count, const char *rdma_dev);

#endif
