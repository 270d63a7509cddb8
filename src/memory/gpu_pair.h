/* SPDX-License-Identifier: MIT */
/*
 * GPU-NIC pairing where PCIe gives no answer: on Grace hosts (GB200, GB300, GH200) the
 * GPUs hang off the CPU over NVLink-C2C and every NIC is NODE or SYS from every GPU.
 * There the k-th GPU of a NUMA node pairs with the k-th NIC of that node (rail order,
 * wrapping when the node has fewer NICs). Used by --use_cuda=auto and by gdr_doctor.
 */
#ifndef GDR_GPU_PAIR_H
#define GDR_GPU_PAIR_H

#include <stddef.h>

/*
 * gpu_numa[ngpu] and nic_numa[nnic]: the NUMA node of each GPU and NIC in enumeration
 * order (CUDA index / device name order), -1 for one that does not take part (unknown
 * node, software RDMA device). The NIC GPU g pairs with, or -1; *gpu_rank and
 * *nic_rank (may be NULL) get their 0-based places within the node.
 */
int gdr_numa_pair_nic(const int *gpu_numa, int ngpu, int g, const int *nic_numa, int nnic,
		      int *gpu_rank, int *nic_rank);

/* The first GPU that gdr_numa_pair_nic pairs with NIC n, or -1. Same ranks. */
int gdr_numa_pair_gpu(const int *gpu_numa, int ngpu, const int *nic_numa, int nnic, int n,
		      int *gpu_rank, int *nic_rank);

/* 1 when the cpuinfo file shows NVIDIA Grace cores (Arm Neoverse V2), else 0. */
int gdr_cpuinfo_grace(const char *path);

/* "1st", "2nd", "3rd", "4th"... for a 0-based place k. */
const char *gdr_ordinal(int k, char *buf, size_t n);

#endif
