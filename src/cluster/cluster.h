/* SPDX-License-Identifier: MIT */
/* Cluster mode (--cluster): every pair of an MPI job, round by round. */
#ifndef GDR_CLUSTER_H
#define GDR_CLUSTER_H

#include "opts.h"

/*
 * Run the cluster job of which this process is one rank. Returns the exit
 * status, the same on every rank: 0 all OK, 1 a pair flagged (SLOW, FAIL,
 * TIMEOUT), 2 setup error (one line printed). Without MPI: 2.
 */
int gdr_cluster_main(const struct gdr_opts *o, const struct gdr_test *t);

#endif
