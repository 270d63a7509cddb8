/* SPDX-License-Identifier: MIT */
/* Cluster mode in a build without MPI: one clear line. */
#include "cluster.h"
#include "log.h"

int gdr_cluster_main(const struct gdr_opts *o, const struct gdr_test *t)
{
	(void)t;
	if (gdr_cluster_args(o)) /* a usage error reads the same in every build */
		return 2;
	gdr_err("--cluster: this build has no MPI (install Open MPI or MPICH with its mpicc, "
		"then configure --with-mpi)");
	return 2;
}
