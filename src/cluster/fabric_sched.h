/* SPDX-License-Identifier: MIT */
/*
 * --topology: the fabric planner's rounds as the job's schedule of rank
 * pairs. Rank 0 builds it from the placement and sends it like a pairs file.
 */
#ifndef GDR_FABRIC_SCHED_H
#define GDR_FABRIC_SCHED_H

#include "cluster_int.h"

/*
 * Read the fabric of spec ("ibnetdiscover:FILE", "slurm:FILE", "links:FILE"),
 * plan it, and map each NIC to the rank on it: by host name (the rank's, or
 * its part before the first dot) and device (the rank's "mlx5_3:1", or
 * "mlx5_3"), else by host and rail. Pairs with a NIC no rank has are left out
 * (*missing counts them). 0, or -1 with one line printed.
 */
int gdr_fab_sched(const char *spec, const struct gdr_place *pl, int nranks, struct gdr_sched *s,
		  unsigned *missing);

#endif
