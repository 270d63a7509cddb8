/* SPDX-License-Identifier: MIT */
/* The report's header (struct gdr_run_info) and the files the reporters write. */
#ifndef GDR_RUN_HEADER_H
#define GDR_RUN_HEADER_H

#include "opts.h"
#include "report.h"
#include "run_state.h"

/* The files the options ask the reporters to write. */
struct gdr_report_files gdr_run_report_files(const struct gdr_opts *o);
/* Where the buffers' pages are, into r->ri (after the memory is allocated). */
void gdr_header_numa(struct gdr_run *r);
/*
 * The rest of r->ri, once the connection and the copiers are set up (what
 * the paths add: gdr_paths_header, path_setup.h).
 */
void gdr_header_fill(struct gdr_run *r, const struct gdr_test *t);

#endif
