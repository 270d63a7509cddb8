/* SPDX-License-Identifier: MIT */
/*
 * Private to the reporters: the column model shared by CSV and JSON (one
 * list of named, typed cells per run and per result, so both formats carry
 * the same fields with the same units), number formatting and a small
 * growable string buffer.
 */
#ifndef GDR_REPORT_PRIV_H
#define GDR_REPORT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "reporter.h"

enum gdr_cell_type {
	GDR_CELL_NONE = 0, /* does not apply: empty CSV cell, JSON null */
	GDR_CELL_STR,
	GDR_CELL_U64,
	GDR_CELL_I64,
	GDR_CELL_NUM, /* double; non-finite is written as NONE */
	GDR_CELL_BOOL,
};

struct gdr_cell {
	char name[32];
	const char *unit; /* NULL: no unit */
	enum gdr_cell_type type;
	const char *s;
	uint64_t u;
	int64_t i;
	double d;
	bool b;
};

#define GDR_MAX_CELLS 80

/* A list of cells being built; a full list is a programming error caught by the tests. */
struct gdr_cells {
	struct gdr_cell *c;
	int n;
	int max;
	bool names_only; /* headers: names and units only */
};
/* Append a cell (a NULL string or a number that does not apply: empty/null). */
void gdr_cells_str(struct gdr_cells *cs, const char *name, const char *s);
void gdr_cells_u64(struct gdr_cells *cs, const char *name, const char *unit, uint64_t v);
void gdr_cells_i64(struct gdr_cells *cs, const char *name, const char *unit, int64_t v);
void gdr_cells_num(struct gdr_cells *cs, const char *name, const char *unit, bool applies,
		   double v);
void gdr_cells_bool(struct gdr_cells *cs, const char *name, bool v);

/* Run columns (schema_version .. cpu_placement), in the CSV order. */
int gdr_cells_run(const struct gdr_run_info *ri, struct gdr_cell *c, int max);
/*
 * Result columns (path .. speedup), in the CSV order; with r == NULL only
 * the names and units are filled (for headers).
 */
int gdr_cells_result(const struct gdr_run_info *ri, const struct gdr_result *r, struct gdr_cell *c,
		     int max);
struct gdr_sbuf;

/* What differs between formats when a cell's value is written. */
struct gdr_cell_style {
	const char *none; /* a cell that does not apply */
	void (*str)(struct gdr_sbuf *b, const char *s); /* a quoted string */
	const char *yes, *no; /* booleans */
};
/* Append c's value in the given style (numbers are the same in every format). */
void gdr_put_cell(struct gdr_sbuf *b, const struct gdr_cell *c, const struct gdr_cell_style *st);

/* The percentiles a run reports: from ri->opts, else the default 99, 99.9. */
int gdr_report_pcts(const struct gdr_run_info *ri, const double **q);


/* Growable buffer; on allocation failure 'oom' is set and appends are dropped. */
struct gdr_sbuf {
	char *p;
	size_t len;
	size_t cap;
	bool oom;
};
void gdr_sbuf_puts(struct gdr_sbuf *b, const char *s);
void gdr_sbuf_putc(struct gdr_sbuf *b, char c);
void gdr_sbuf_printf(struct gdr_sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* One CSV field, quoted as RFC 4180 says when it holds , " CR or LF. */
void gdr_csv_put_field(struct gdr_sbuf *b, const char *s);
void gdr_sbuf_free(struct gdr_sbuf *b);

/* Cells as one CSV line's fields (names: the header), no line end. */
void gdr_csv_cells(struct gdr_sbuf *b, const struct gdr_cell *c, int n, bool names);
/* Cells as JSON members "name": value, one a line at indent ind; more: a comma after the last. */
void gdr_json_members(struct gdr_sbuf *b, const struct gdr_cell *c, int n, const char *ind,
		      bool more);
/* s as a JSON string literal, quoted and escaped. */
void gdr_json_str(struct gdr_sbuf *b, const char *s);

/* Shortest "%.Ng" that reads back as exactly d (d must be finite). */
void gdr_fmt_double(char *out, size_t len, double d);

#endif
