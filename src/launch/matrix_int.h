/* SPDX-License-Identifier: MIT */
/* Inside --matrix (matrix.h): what the launcher measured, and what matrix_out.c prints from it. */
#ifndef GDR_MATRIX_INT_H
#define GDR_MATRIX_INT_H

#include <stdio.h>
#include "assign.h"
#include "matrix_dir.h"
#include "rails.h"
#include "results.h"

#define MX_MAX GDR_ASSIGN_MAX

/* One direction of a cell (matrix_dir.h): average bytes/s of each path; 0 did not run. */
struct mx_fig {
	double host, direct, staged;
	/* its direct and staged rows, kept for the pairing's rows (iters 0: none; no pointers) */
	struct gdr_result row[2];
	char mem_kind[16]; /* the client's memory in it ("cuda", "host"): the pairing row's */
	/* its facts (port, GPU, placement) for the pairing row; test and mem_kind NULL here */
	struct gdr_run_info ri;
	bool has_ri;
};

struct mx_cell {
	struct mx_fig d[MX_NDIR]; /* d2h, h2d; a direction not asked stays 0 */
	int rel;		  /* enum topo_rel of the GPU and the NIC */
	char error[200];	  /* why a direction asked has no direct figure ("" none) */
};

/*
 * --matrix_shared: k cells at once (every GPU through NIC n, or GPU g through every NIC), in
 * one direction
 */
struct mx_shared {
	int gpu, nic;	 /* -1: every one */
	int dir;	 /* enum mx_dir */
	double direct;	 /* all the rails' bytes over the union of their intervals, bytes/s */
	double staged;	 /* same, the staged path */
	double alone;	 /* the sum of the same cells measured one at a time (direct) */
	double port_Bps; /* the ports' rate (the sum of them), bytes/s; 0 unknown */
	char error[200];
};

struct mx {
	const struct gdr_opts *o;
	const char *verb;
	uint64_t size;
	int ngpu, nnic;
	char gpu_bdf[MX_MAX][32];
	char gpu_name[MX_MAX][96]; /* as its cells' client named it ("" none ran) */
	struct gdr_rail nic[MX_MAX];
	char nic_name[MX_MAX][80]; /* "mlx5_0:1" */
	double port_Bps[MX_MAX];   /* the port's active rate, bytes/s; 0 unknown */
	char rule_nic[MX_MAX][64]; /* the pairing rule's NIC of each GPU ("" none) */
	struct mx_cell cell[MX_MAX][MX_MAX];
	int pair[MX_MAX]; /* the measured pairing: GPU g's NIC, -1 none */
	int npair;
	struct mx_shared shared[2 * MX_MAX * MX_NDIR];
	int nshared;
	/* the outputs' header: the first cell's facts, those of one cell cleared (mx_head) */
	struct gdr_run_info head;
	char head_test[32], head_mem[16];
	bool begun; /* the header went to the reporters */
};

struct rail;
struct gdr_reports;
/*
 * matrix.c: the options every cell runs with: loopback, one size, direct and staged,
 * --matrix_time a path, a run token of this run's own unless given (gdr_rails_own_token).
 */
struct gdr_opts mx_cell_opts(const struct mx *m);
/*
 * The outputs' header, once: from r's facts (r: a rail that reported them, else nothing
 * yet); whether it went out. mx_row: a row after the header, begun from r's facts when no
 * cell's began it, so no output gets a row before its header; 0, or the reporters' error.
 */
bool mx_begin(struct mx *m, struct gdr_reports *rs, const struct rail *r);
int mx_row(struct mx *m, struct gdr_reports *rs, const struct rail *r,
	   const struct gdr_run_info *ri, const struct gdr_result *x);

/*
 * The figure the pairing uses: direct, or staged when no cell ran direct, of the direction
 * asked (--matrix_dir; both: the smaller, mx_dir_figure). mx_figure_dir: that direction.
 */
double mx_figure(const struct mx *m, int g, int n);
int mx_figure_dir(const struct mx *m, int g, int n);
/*
 * matrix_out.c: whether a pairing can be chosen: every cell has a figure (the leximin
 * compares them all) in every direction the pairing needs (a cell's figure is the direction
 * asked; with both the smaller); else false with the first cell that has none and why into
 * why.
 */
bool mx_pairing_ready(const struct mx *m, char *why, size_t len);
/* A row that measured something: messages timed over a time (else left out of the outputs). */
bool mx_row_ran(const struct gdr_result *x);
/* The outputs' header from the first cell's facts: the matrix's, no single cell's. */
void mx_head(struct mx *m);
/*
 * The measured pairing into the outputs (CSV, JSON): each pair's figure row again (in its
 * direction, mx_figure_dir), its path "pairing", named by its GPU, NIC port, relation and
 * direction; none unless mx_pairing_ready. 0, or the reporters' error.
 */
int mx_report_pairing(const struct mx *m, struct gdr_reports *rs);
/* matrix_out.c: the matrix, the pairing, the disagreements, the rule beside the measurement. */
void mx_print(FILE *f, const struct mx *m);
/* matrix_copy.c: no ACTIVE RDMA port: gdr_stage_bw per GPU, then all at once. Its exit status. */
int mx_copy_leg_only(const struct mx *m);
/* The pairing into --pairing's file (memory/pairing.h); none unless mx_pairing_ready. 0 or -1
 * (printed). */
int mx_write_pairing(const struct mx *m, const char *file);

#endif
