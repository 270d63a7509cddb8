/* SPDX-License-Identifier: MIT */
/* Cluster mode (--cluster): every pair of an MPI job, round by round. */
#ifndef GDR_CLUSTER_H
#define GDR_CLUSTER_H

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

#endif
