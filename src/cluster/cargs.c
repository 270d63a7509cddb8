/* SPDX-License-Identifier: MIT */
/* Cluster mode's own arguments, checked before MPI starts (cluster.h). */
#include "config.h"
#include <stdlib.h>
#include "cluster.h"
#include "fabric.h"
#include "log.h"
#include "schedule.h"

int gdr_cluster_args(const struct gdr_opts *o)
{
	struct gdr_pattern pat;
	uint64_t *sizes = NULL;
	size_t n = 0;

	if (o->server) {
		gdr_err("--cluster takes no server argument: every rank is a server or a client "
			"in turn");
		return -1;
	}
	if (o->source_ip || o->bind_addr) {
		gdr_err("--cluster: each rank's address is its rail's (-R): --source_ip and --bind "
			"do not apply");
		return -1;
	}
	if (gdr_pattern_parse(o->pattern, &pat) || gdr_opts_sizes(o, &sizes, &n))
		return -1;
	free(sizes);
	if (o->topology && gdr_fab_spec_check(o->topology))
		return -1;
	return 0;
}
