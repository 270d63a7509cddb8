/* SPDX-License-Identifier: MIT */
/* Cluster mode in a build without MPI: one clear line. */
#include "cluster.h"
#include "log.h"

int gdr_cluster_main(const struct gdr_opts *o, const struct gdr_test *t)
{
	(void)o;
	(void)t;
	gdr_err("--cluster: this build has no MPI (install Open MPI or MPICH with its mpicc, "
		"then configure --with-mpi)");
	return 2;
}
