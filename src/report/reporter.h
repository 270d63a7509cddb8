/* SPDX-License-Identifier: MIT */
/*
 * The reporter interface: what every output format (text, CSV, JSON)
 * implements, and the kinds report.c's fan-out opens. A new format is a new
 * file with its ops and kind, plus one row in report.c's table.
 */
#ifndef GDR_REPORTER_H
#define GDR_REPORTER_H

#include <stdbool.h>
#include <stdio.h>
#include "results.h"

/*
 * How a run that opened its outputs ended, whatever happened (gdr_reports_finish):
 * the last word of the outputs that keep one (--prom's gdr_run_success).
 */
struct gdr_run_outcome {
	int status;	  /* the program's exit status, enum gdr_exit (base/exitcode.h) */
	bool interrupted; /* stopped by SIGINT/SIGTERM */
	const char *test; /* "write_bw", known before the run info is */
	const char *dev;  /* the RDMA device asked for or opened; "" unknown */
	const char *why;  /* the error, or where the run stopped; "" none */
};

struct gdr_reporter_ops {
	const char *name;
	int (*begin)(void *ctx, const struct gdr_run_info *ri);
	int (*row)(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r);
	int (*end)(void *ctx, const struct gdr_run_info *ri); /* flush/commit; 0 ok */
	void (*destroy)(void *ctx);
	/* optional (NULL): after end() or without it (a run that failed); 0 ok */
	int (*finish)(void *ctx, const struct gdr_run_info *ri, const struct gdr_run_outcome *e);
};

struct gdr_reporter {
	const struct gdr_reporter_ops *ops;
	void *ctx;
};

/* The files the reporters write (the caller's options); NULL = not asked for. */
struct gdr_report_files {
	const char *csv;  /* --csv=FILE */
	const char *json; /* --json=FILE; "-" = stdout */
	const char *prom; /* --prom=FILE */
	int output;	  /* --output: enum gdr_output (opts.h); not the table = one number a row */
	bool no_text;	  /* the caller prints its own text (--matrix): no table */
};

/*
 * A kind of reporter, registered in report.c's table: open() makes one when
 * f asks for it. Returns 1 made, 0 not asked for, -1 error printed.
 */
struct gdr_reporter_kind {
	const char *name;
	int (*open)(struct gdr_reporter *r, const struct gdr_report_files *f);
};

extern const struct gdr_reporter_kind gdr_reporter_text;   /* the table, unless --output */
extern const struct gdr_reporter_kind gdr_reporter_number; /* --output=WHAT */
extern const struct gdr_reporter_kind gdr_reporter_csv;	 /* --csv=FILE */
extern const struct gdr_reporter_kind gdr_reporter_json; /* --json=FILE */
extern const struct gdr_reporter_kind gdr_reporter_prom; /* --prom=FILE */

/* Reporter constructors. Each returns 0 or -1 (error printed, e.g. unwritable file). */
int gdr_report_text_new(struct gdr_reporter *r, FILE *out);
int gdr_report_csv_new(struct gdr_reporter *r, const char *path);
int gdr_report_json_new(struct gdr_reporter *r, const char *path); /* "-" = stdout */
int gdr_report_number_new(struct gdr_reporter *r, FILE *out, enum gdr_output what);
/* A row's --output figure, NAN when the row has none (e.g. latency of a bw row). */
double gdr_output_value(enum gdr_output what, bool gbits, const struct gdr_result *r);

#endif
