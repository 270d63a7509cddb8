/* SPDX-License-Identifier: MIT */
/* Cluster mode (--cluster): every pair of an MPI job, round by round. */
#ifndef GDR_CLUSTER_H
#define GDR_CLUSTER_H

#include <stddef.h>
#include "opts.h"

/*
 * Run the cluster job of which this process is one rank. Returns the exit
 * status: 0 all OK, 1 a pair flagged (SLOW, FAIL, TIMEOUT: rank 0 alone, the
 * others 0, unless a rank was lost), 2 setup error (every rank; one line
 * printed). Without MPI: 2.
 */
int gdr_cluster_main(const struct gdr_opts *o, const struct gdr_test *t);

/*
 * What cluster mode can refuse without MPI (a server address, --source_ip or
 * --bind, the pattern, the sizes): 0, or -1 with one line printed.
 * gdr_cluster_main calls it before MPI_Init, so a usage error exits at once
 * and leaves no MPI state (nor its leaks) behind.
 */
int gdr_cluster_args(const struct gdr_opts *o);

/*
 * nicpick.c: a rank's NIC when none is named. gdr_nic_nearest: the RDMA
 * device of sysfs ("/sys"; tests: a fixture) nearest in PCIe to the PCI
 * device bdf (the longest common sysfs path) into out ("" when none);
 * equally near ones (names in number order, mlx5_2 before mlx5_10), those
 * of bdf's NUMA node where they span several, go by bdf's place among the
 * GPUs as near them (PCI address order, wrapping): the k-th GPU takes the
 * k-th NIC; bdf NULL or not found: the first name. Returns how many RDMA
 * devices there are. gdr_gpu_bdf: the PCI address of CUDA
 * device index (index < 0: local rank -index-1 modulo the GPU count); 0, or
 * -1 with why.
 */
int gdr_nic_nearest(const char *sysfs, const char *bdf, char *out, size_t n);
int gdr_gpu_bdf(int index, char *out, size_t n, char *why, size_t wn);

#endif
