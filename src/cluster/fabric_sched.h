/* SPDX-License-Identifier: MIT */
/*
 * --topology: the fabric planner's rounds as the job's schedule of rank
 * pairs. Rank 0 builds it from the placement and sends it like a pairs file,
 * and keeps the fabric and its NICs' ranks for the blame at the end.
 */
#ifndef GDR_FABRIC_SCHED_H
#define GDR_FABRIC_SCHED_H

#include "cluster_int.h"
#include "fabric_ecmp.h"
#include "fabric_plan.h"

/*
 * Which way a pair's data flows: from the client (the pair's second rank) to
 * the server (write and send bandwidth), from the server to the client (read,
 * atomics), or both (-b, and the ping-pong of write and send latency).
 */
enum gdr_fab_flow { GDR_FLOW_TO_SERVER, GDR_FLOW_TO_CLIENT, GDR_FLOW_BOTH };

/* The flow of a test: verb (enum gdr_verb), kind (enum gdr_kind), -b. */
enum gdr_fab_flow gdr_fab_flow_of(int verb, int kind, bool bidir);

/* The fabric of a job and its NICs' ranks (rank 0 keeps it for the blame). */
struct gdr_fab_job {
	struct gdr_fabric f;
	int nranks;
	uint32_t *rank;		       /* NIC -> rank, GDR_FAB_NONE: no rank */
	uint32_t *nic;		       /* rank -> NIC, GDR_FAB_NONE: not in the fabric */
	struct gdr_fab_ecmp_info ecmp; /* --ecmp: the plan's runs (copies 1: none added) */
	uint32_t planned;	       /* the plan's rounds before ECMP copies */
};
void gdr_fab_job_free(struct gdr_fab_job *fj);
/*
 * The route cell of the pair of ranks a (server) and b (client): the cables
 * its data crosses (gdr_fab_route_text), from the client to the server
 * (TO_SERVER), from the server to the client (TO_CLIENT), or there and back
 * (BOTH: client to server, then server to client, so the server's access
 * cable twice in a row where the data turns). Into buf; NULL when a rank is
 * not in the fabric, both are one NIC, or it does not fit
 * (2 * GDR_FAB_ROUTE_TEXT does).
 */
const char *gdr_fab_job_route(const struct gdr_fab_job *fj, enum gdr_fab_flow flow, int32_t a,
			      int32_t b, char *buf, unsigned len);

/*
 * The plan's pairs whose NICs have ranks (rank[nic], GDR_FAB_NONE: none; pairs
 * with one are left out, *missing counts them) as rounds of rank pairs
 * {server, client}, no rank twice in a round. flow says which rank of a pair
 * sends, so that each planned pair's data goes from its src NIC to its dst:
 * TO_SERVER: the client is src's rank; TO_CLIENT: the server is; BOTH: the
 * lower rank serves. A pair met in an earlier round (the same direction; with
 * BOTH either) of the same run of the plan is left out: an ECMP copy
 * (GDR_FAB_ECMP, fabric_ecmp.c) meets its pairs again, on new QPs. 0, or -1
 * (printed).
 */
int gdr_fab_to_ranks(const struct gdr_fab_plan *p, const uint32_t *rank, int nranks,
		     enum gdr_fab_flow flow, struct gdr_sched *s, unsigned *missing);

/*
 * Read the fabric of spec ("ibnetdiscover:FILE", "slurm:FILE", "links:FILE"),
 * plan it, and map each NIC to the rank on it: by host name (the rank's, or
 * its part before the first dot) and device (the rank's "mlx5_3:1", or
 * "mlx5_3"), else by host and rail; then gdr_fab_to_ranks. eps > 0 (--ecmp):
 * first the plan's rounds again (gdr_fab_ecmp) until each leaf pair's flows,
 * qps a pair, miss one of its ECMP paths with at most eps. keep (NULL: none)
 * gets the fabric, the mapping and the ECMP figures (free with
 * gdr_fab_job_free). 0, or -1 with one line printed.
 */
int gdr_fab_sched(const char *spec, const struct gdr_place *pl, int nranks, enum gdr_fab_flow flow,
		  unsigned qps, double eps, struct gdr_sched *s, unsigned *missing,
		  struct gdr_fab_job *keep);

#endif
