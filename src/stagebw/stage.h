/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw: the host<->GPU copy leg of a staged transfer, measured alone. */
#ifndef GDR_STAGE_H
#define GDR_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "place.h"

enum stage_dir { STAGE_H2D = 1, STAGE_D2H = 2, STAGE_BIDIR = 4, STAGE_ALL = 7 };

#define STAGE_MAX_SIZES 64
#define STAGE_MAX_GPUS	64
#define STAGE_KV_LIST	8 /* --block and --batch: values each (GDR_KV_MAX_LIST) */

struct stage_opts {
	/* what the run uses, set from the options below */
	uint64_t sizes[STAGE_MAX_SIZES];
	size_t nsizes;
	unsigned int dirs; /* enum stage_dir bits */
	/* the options, one table row each (stage_opts.c) */
	uint64_t size;	/* -s */
	bool all;	/* -a */
	bool sweep_set; /* --sizes=MIN:MAX[:F] */
	uint64_t sweep_min, sweep_max;
	uint32_t sweep_factor;
	uint64_t iters; /* 0 = automatic per size */
	double time;	/* --time: seconds a measurement (its copies from the warm-up's rate); 0 none */
	uint32_t reps;
	int dir; /* --dir: index in h2d, d2h, bidir, all */
	bool pageable;
	int streams;
	int copier;	   /* --copier: index in GDR_GPU_COPIERS */
	bool copier_given; /* --copier given: the table and CSV name it */
	/*
	 * --use_cuda or --use_rocm (rocm set): IDX (one GPU, as always), or all /
	 * A,B,... (the multi-GPU run)
	 */
	bool rocm;
	int use_cuda; /* the GPU index, of either runtime */
	bool gpus_all;
	int gpus[STAGE_MAX_GPUS]; /* the list A,B,... */
	size_t ngpus;		  /* its length; 0 = no list */
	char *cuda_bus_id;	  /* or NULL */
	char *csv_file;
	char *json_file; /* multi-GPU run only */
	bool quiet;
	/*
	 * The block-list run (stage_kv.c, docs/kv.md): --block gives it; each
	 * block x batch cell gathers (d2h) and scatters (h2d) one block list a
	 * batch, beside the same bytes as one contiguous copy.
	 */
	uint32_t kv_nblocks;		   /* --block=SIZE[,SIZE...]: 0 = not a block-list run */
	uint64_t kv_blocks[STAGE_KV_LIST]; /* bytes per block */
	uint32_t kv_nbatch;		   /* --batch=N[,N...] */
	uint64_t kv_batch[STAGE_KV_LIST];  /* blocks per batch (one list copy) */
	uint64_t kv_pool;		   /* --pool: GPU pool bytes (0: the default) */
	struct gdr_kv_place kv_place;	   /* --place */
	uint64_t set_bits[2]; /* which rows were given (the option engine's) */
};

/* the --copier words, by o->copier: GDR_GPU_COPIERS (copier_names.h) */
extern const char *const stage_copier_words[];

/* Returns 0 run, 1 done (--help/-V), -1 bad input (line printed). */
int stage_parse(struct stage_opts *o, int argc, char **argv);
void stage_opts_free(struct stage_opts *o);

/* --use_cuda=all (--use_rocm=all) or a list: one thread per GPU, started together (stage_multi.c).
 */
static inline bool stage_is_multi(const struct stage_opts *o)
{
	return o->gpus_all || o->ngpus;
}

/* The block-list run (stage_kv.c): 0, or 1 when it could not end (printed). */
int stage_kv_run(const struct stage_opts *o);
/* Runs the measurements and prints the table; returns the exit status. */
int stage_run(const struct stage_opts *o);
/* The multi-GPU run (stage_multi.c); the same contract. */
int stage_run_multi(const struct stage_opts *o);

#endif
