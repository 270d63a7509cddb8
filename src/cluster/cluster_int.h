/* SPDX-License-Identifier: MIT */
/* Internal to cluster mode: placement, result rows, verdicts, the CSV. */
#ifndef GDR_CLUSTER_INT_H
#define GDR_CLUSTER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cluster.h"
#include "schedule.h"

enum gdr_cstatus { GDR_CS_OK, GDR_CS_SLOW, GDR_CS_FAIL, GDR_CS_TIMEOUT, GDR_CS_SKIP, GDR_CS_NONE };
const char *gdr_cstatus_name(int s);
struct gdr_ctexts;

/* Where one rank runs (allgathered; plain bytes, no pointers). */
struct gdr_place {
	char host[64];
	char nic[64]; /* device[:port] */
	char gpu[48]; /* "host", "cuda:0", "cuda:auto", "rocm:1", a PCI address */
	int32_t rail; /* index of the rank among its host's ranks */
	char ip[48];  /* -R: the IPv4 address of its RDMA port, for rdma_cm */
};

/* One result row: a size on a path of one pair, or a pair's failure/skip. */
struct gdr_crow {
	int32_t status; /* enum gdr_cstatus; GDR_CS_NONE: empty slot */
	int32_t round;
	int32_t a, b; /* server and client rank; b = -1: a has no partner */
	int32_t from_server;
	int32_t rail; /* the rail verdicts compare within; -1: all (--same-host) */
	char path[12];
	int32_t shared; /* verdicts: its NIC carried another pair of its round too */
	int32_t cnt;	/* rank 0, -W: the pair's counters cell in struct gdr_ctexts; 0 none */
	int32_t blame;	/* rank 0, --topology: a flagged pair's blame cell (cblame.c); 0 none */
	int32_t retest; /* rank 0, --topology: a row of the retest round over suspect cables */
	uint64_t bytes;
	uint64_t iters;
	double bw_gbps;	   /* 0: latency test */
	double lat_med_us; /* 0: bandwidth test */
	double lat_p99_us;
	double seconds;
	char err[240];
};

/*
 * verdict.c: SLOW under expect_gbps (> 0), a latency median over expect_us
 * (> 0), or under slow_pct% of the median of
 * the OK rows of the same rail, size and path (latency: over 100/slow_pct times
 * it); slow_pct 0: no relative rule. The relative rule leaves out the rows of
 * a pair whose NIC (host and nic of pl) also carried another pair of the same
 * round: they share it, and what each gets depends on when each started.
 * pl NULL: no NIC is shared. Returns the rows the relative rule left out.
 */
size_t gdr_verdict_apply(struct gdr_crow *rows, size_t n, const struct gdr_place *pl, int nranks,
			 double expect_gbps, double expect_us, double slow_pct);
/* The NIC rank r measures through, as the index of the first rank with its host and nic. */
int gdr_nic_id(const struct gdr_place *pl, int r);
/*
 * Print the summary (counts, suspects, flagged links, and with ct the counters
 * of flagged pairs, -W); returns pairs flagged.
 */
size_t gdr_verdict_summary(FILE *f, const struct gdr_crow *rows, size_t n,
			   const struct gdr_place *pl, int nranks, const struct gdr_ctexts *ct);

/*
 * ccount.c: -W in cluster mode. Each rank reads its device's counters before
 * and after each of its pairs (gdr_cwatch_start/end) and sends what moved, as
 * one side text ("rxe0: out_of_seq_request +3, sent_pkts +1200": counters of
 * trouble first, of traffic (*_data, *_packets, *_pkts, rx_*_requests) after;
 * "rxe0: none moved"), with its rows of the round. Rank 0 joins a pair's two
 * sides into the rows' counters cell (gdr_cpair_text: hosts named when the
 * ends are on two hosts, one side when both ends are one NIC) and keeps one
 * cell a pair in a pool the rows point into (gdr_crow.cnt).
 */
#define GDR_CSIDE_LEN 256
struct gdr_cwatch;
/* The first read of dev's port; NULL when nothing is readable. why: what was not ("" all was). */
struct gdr_cwatch *gdr_cwatch_start(const char *dev, int port, char *why, size_t wn);
/* The second read, the side text into buf (buf NULL: none), and free. */
void gdr_cwatch_end(struct gdr_cwatch *w, char *buf, size_t len);
void gdr_cpair_text(char *buf, size_t len, const struct gdr_place *pl, int a, int b, const char *ta,
		    const char *tb);
struct gdr_ctexts {
	char **s; /* s[id], id 1..n-1 */
	size_t n, cap;
};
/* A copy of s in the pool: its id, or 0 for "" (or no memory). */
int32_t gdr_ctexts_add(struct gdr_ctexts *t, const char *s);
/* The text of id; NULL for 0 or t NULL. */
const char *gdr_ctexts_get(const struct gdr_ctexts *t, int32_t id);
void gdr_ctexts_free(struct gdr_ctexts *t);

/*
 * ccsv.c: the long-format CSV. After the error text, the run's facts: the
 * version, the start (UTC), the SLOW rule on every row, and the command line
 * on the file's first row only (first: rows[0] is the file's first row); then
 * the counters that moved around the row's pair (-W); then, with --topology,
 * the blame of a flagged row's pair (cblame.c), and last the route of the
 * row's pair: the cables its data crosses (gdr_fab_job_route).
 */
struct gdr_fab_job;
struct gdr_ccsv {
	const char *run_id;
	const char *pattern;
	const char *test;
	const struct gdr_place *pl;
	const char *version;   /* PACKAGE_VERSION */
	const char *started;   /* "2026-11-24T21:22:49Z" */
	const char *slow_rule; /* "slow-pct=90 expect-bw=100" */
	const char *command;   /* rank 0's argv, shell-quoted */
	const struct gdr_ctexts *cnt; /* -W: the rows' counters cells (NULL none) */
	const struct gdr_ctexts *blame; /* --topology: the rows' blame cells (NULL none) */
	const struct gdr_fab_job *fab;	/* --topology: the fabric the route cells come from */
	int flow;			/* --topology: the data's way (enum gdr_fab_flow) */
};
void gdr_ccsv_header(FILE *f);
void gdr_ccsv_rows(FILE *f, const struct gdr_ccsv *cx, const struct gdr_crow *rows, size_t n,
		   bool first);
/* The same rows as JSON Lines: an object a line, members named as the CSV's columns. */
void gdr_cjson_rows(FILE *f, const struct gdr_ccsv *cx, const struct gdr_crow *rows, size_t n,
		    bool first);
/* The SLOW rule of the options, "slow-pct=90" (+ " expect-bw=G", " expect-lat=U"). */
void gdr_slow_rule(char *buf, size_t len, double slow_pct, double expect_gbps, double expect_us);
/* argv (argc words) as one shell line: words with other than [A-Za-z0-9_./:=,+-@%] quoted. */
void gdr_shell_line(char *buf, size_t len, int argc, char *const *argv);
/* Rewrite path with rows, CSV or JSON Lines (temp file + rename: the old file stays whole). */
int gdr_ccsv_rewrite(const char *path, bool json, const struct gdr_ccsv *cx,
		     const struct gdr_crow *rows, size_t n);

/* place.c: the units a schedule pairs (hosts, or ranks with --same-host). */
struct gdr_units {
	unsigned n;
	bool by_rank;
	unsigned *start; /* unit u: ranks rank[start[u] .. start[u+1]-1], by rail */
	int *rank;
};
int gdr_units_build(struct gdr_units *u, const struct gdr_place *pl, int nranks, bool by_rank);
void gdr_units_free(struct gdr_units *u);
/* Host names to rails: rail = index of the rank among the ranks of its host. */
void gdr_place_rails(struct gdr_place *pl, int nranks);
/*
 * Rank pairs of units x and y: out[k] = {server, client}; client -1 when
 * the server's rail has no partner on the other unit. Returns the count.
 */
size_t gdr_units_pairs(const struct gdr_units *u, unsigned x, unsigned y, int (*out)[2]);
/* The most rank pairs any unit pair yields (the size of out). */
size_t gdr_units_max_pairs(const struct gdr_units *u);
/*
 * -R: the addresses of rank me in pair (a server, b client). The server
 * listens on its rail's address (*listen); the client connects to the
 * server's (*dst) from its own rail's address (*src: rdma_resolve_addr with a
 * source), so that on a node whose NICs share one subnet each client still
 * leaves through its own rail's NIC. NULL where a side has none.
 */
void gdr_cm_addrs(const struct gdr_place *pl, int a, int me, const char **listen, const char **dst,
		  const char **src);

/* nicpick.c: gdr_nic_nearest and gdr_gpu_bdf are in cluster.h (--matrix uses them too). */
/*
 * The NIC of a rank with mates ranks on its host (itself included) and a GPU
 * at bdf (NULL: none known): gdr_nic_nearest's, or -1 (out "") when the host
 * has several NICs and several ranks and no GPU tells them apart.
 */
int gdr_nic_choose(const char *sysfs, const char *bdf, int mates, char *out, size_t n);

/*
 * pairs.c: schedules the user gives, in ranks (units = ranks). A pairs file:
 * a line per round, pairs "A:B" (or "A-B") split by spaces or commas, '#'
 * comments; no rank twice in a round, ranks 0..nranks-1. Retest: the pairs
 * of csv flagged SLOW, FAIL or TIMEOUT, found in this job by host and rail
 * (*unmatched counts those it lacks), packed into rounds. 0, or -1 (one line).
 */
int gdr_pairs_parse(const char *text, const char *name, int nranks, struct gdr_sched *s);
int gdr_retest_parse(const char *csv, const char *name, const struct gdr_place *pl, int nranks,
		     struct gdr_sched *s, unsigned *unmatched);
/* The whole of file path, NUL-terminated, into *out (free it). 0, or -1 (one line). */
int gdr_read_text(const char *path, char **out);

/*
 * cexit.c: in seconds, end the process with status (one line on stderr
 * naming what did not return) unless it has exited: arm before MPI_Finalize
 * and MPI_Abort, which wait for other nodes.
 */
void gdr_cexit_arm(int rank, const char *what, unsigned seconds, int status);

#endif
