/* SPDX-License-Identifier: MIT */
/*
 * The GPU-NIC pairing from a measured matrix (--matrix, docs/matrix.md): a
 * one-to-one assignment that maximizes the slowest pair, then the next slowest
 * and so on (leximin: the sorted figures of the pairs compared from the
 * slowest up), figures within a tolerance of each other counting as equal.
 * Assignments that tie are broken as the pairing rule breaks them
 * (--use_cuda=auto, gdr_doctor, the cluster's NIC choice): the smaller sum of
 * topology ranks (nearer PCIe relation), then the GPUs in their order each
 * taking the first NIC left in name order (so equally near GPUs and NICs pair
 * k-th with k-th). Non-square: min(GPUs, NICs) pairs; with more GPUs than
 * NICs the later GPUs of a tie go unpaired. Pure: no I/O.
 */
#ifndef GDR_ASSIGN_H
#define GDR_ASSIGN_H

#define GDR_ASSIGN_MAX 16 /* GPUs, and NIC ports, at most */

struct gdr_assign_in {
	int ngpu, nnic;
	const double *bw; /* [g * nnic + n]: the pair's figure; <= 0 or NaN: not measured */
	const int *topo;  /* [g * nnic + n]: rank of the PCIe relation, lower nearer; NULL none */
	double tol;	  /* relative: figures within it of a level's lowest are one level */
};

/*
 * pair[g] (ngpu entries): the NIC index of GPU g, or -1 unpaired. Returns the
 * number of pairs, or -1 when the sizes are out of range (0 or over
 * GDR_ASSIGN_MAX).
 */
int gdr_assign(const struct gdr_assign_in *in, int *pair);

/*
 * The level of every cell (lev[g * nnic + n]): 0 not measured, 1 the slowest
 * measured level, and so on; the number of levels in *nlev. Two cells are
 * within the tolerance of each other when they share a level.
 */
void gdr_assign_levels(const struct gdr_assign_in *in, int *lev, int *nlev);

#endif
