/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw: the host<->GPU copy leg of a staged transfer, measured alone. */
#ifndef GDR_STAGE_H
#define GDR_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum stage_dir { STAGE_H2D = 1, STAGE_D2H = 2, STAGE_BIDIR = 4, STAGE_ALL = 7 };

#define STAGE_MAX_SIZES 64

struct stage_opts {
	uint64_t sizes[STAGE_MAX_SIZES];
	size_t nsizes;
	uint64_t iters; /* 0 = automatic per size */
	unsigned int reps;
	unsigned int dirs; /* enum stage_dir bits */
	bool pageable;
	int streams;
	int use_cuda;	   /* index, or -2 auto */
	char *cuda_bus_id; /* or NULL */
	char *csv_file;
	bool quiet;
};

/* Returns 0 run, 1 done (--help/-V), -1 bad input (line printed). */
int stage_parse(struct stage_opts *o, int argc, char **argv);
void stage_opts_free(struct stage_opts *o);
/* "64K" style sizes with binary suffixes K/M/G; 0 ok, -1 bad. */
int stage_parse_size(const char *s, uint64_t *out);

/* Runs the measurements and prints the table; returns the exit status. */
int stage_run(const struct stage_opts *o);

#endif
