/* SPDX-License-Identifier: MIT */
/* Internal to cluster mode's MPI part: one pair, run by each of its two ranks. */
#ifndef GDR_CLUSTER_MPI_H
#define GDR_CLUSTER_MPI_H

#include <mpi.h>
#include "cluster_int.h"
#include "opts.h"

struct gdr_cpair {
	const struct gdr_opts *o; /* this rank's options (its rail's device) */
	const struct gdr_test *t;
	MPI_Comm comm;
	int round;
	int a, b, me; /* server, client, this rank */
	int rail;     /* for verdicts; -1 with --same-host */
	const struct gdr_place *pl;
	const uint64_t *sizes;
	size_t nsizes;
	uint32_t npaths;
};

/* Run this rank's side; rows[0..cap) gets its rows (client: measurements; either: a failure). */
size_t gdr_cluster_pair(const struct gdr_cpair *p, struct gdr_crow *rows, size_t cap);

#endif
