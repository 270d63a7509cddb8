/* SPDX-License-Identifier: MIT */
/* Internal to cluster mode's MPI part: one pair, run by each of its two ranks. */
#ifndef GDR_CLUSTER_MPI_H
#define GDR_CLUSTER_MPI_H

#include <mpi.h>
#include <stdint.h>
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
	char *gpu_used; /* set to "cuda:PCI" of the GPU memory this rank's side used */
	size_t gpu_len;
	char *cnt_text; /* -W: set to what moved on this rank's device around the pair; NULL: off */
	size_t cnt_len;
};

/* Run this rank's side; rows[0..cap) gets its rows (client: measurements; either: a failure). */
size_t gdr_cluster_pair(const struct gdr_cpair *p, struct gdr_crow *rows, size_t cap);

/*
 * csync.c: round boundaries without collectives, so a dead rank does not stop
 * the job. A rank reports its rows of a round to rank 0 and waits for the
 * next round's release; rank 0 collects the reports against a deadline,
 * marks the ranks that did not report as lost, and releases the others.
 */
struct gdr_csync {
	MPI_Comm comm;
	int rank, size;
	size_t slot; /* rows per report */
	int wait_ms; /* a round's reports arrive within this */
	size_t report_len, go_len;
	uint8_t *sbuf, *rbuf;
	char *lost; /* lost[k]: rank k stopped reporting */
	char (*gpu)[48]; /* rank 0: the GPU each rank reported using ("" none yet) */
	char (*cnt)[GDR_CSIDE_LEN]; /* rank 0: each rank's counters text of the round (-W) */
	int nlost;
	MPI_Request *reqs; /* rank 0: last release sent to k; others: [0] last report */
	uint32_t *xbuf;	   /* rank 0: the rounds added to the schedule, as sent */
	MPI_Request *xreqs; /* rank 0: their sends to each rank */
};
int gdr_csync_init(struct gdr_csync *s, MPI_Comm comm, int rank, int size, size_t slot,
		   int wait_ms);
void gdr_csync_free(struct gdr_csync *s);
/* Not rank 0: send the rows of round (-1: ready; rows NULL: none), the GPU used, the counters. */
int gdr_csync_report(struct gdr_csync *s, int round, const struct gdr_crow *rows, const char *gpu,
		     const char *cnt);
/* Not rank 0: wait for the release; returns its round (-1: the end, *status set), or -2. */
int gdr_csync_wait_go(struct gdr_csync *s, int *status);
/*
 * Rank 0: the reports of round from every rank not lost, into rows[k * slot]
 * (rows may be NULL), waiting until since_ns + wait_ms. Ranks that did not
 * report become lost (a line printed). Returns how many were lost now, or -1.
 */
int gdr_csync_collect(struct gdr_csync *s, int round, uint64_t since_ns, struct gdr_crow *rows);
/* Rank 0: release round (-1: the end, with status) to every rank not lost. */
int gdr_csync_go(struct gdr_csync *s, int round, int status);
/*
 * Rounds added to the schedule after its last round (--topology's retest
 * round): rank 0 sends x to every rank not lost, right after releasing the
 * first of them; the others, released into a round past their schedule's
 * end, receive them into x (free with gdr_sched_free). 0, or -1 (printed).
 */
int gdr_csync_sched_send(struct gdr_csync *s, const struct gdr_sched *x);
int gdr_csync_sched_recv(struct gdr_csync *s, struct gdr_sched *x);

#endif
