/* SPDX-License-Identifier: MIT */
/* The multi-GPU run's state and results, shared by the runner and its output. */
#ifndef GDR_STAGE_MULTI_H
#define GDR_STAGE_MULTI_H

#include <pthread.h>
#include <stdbool.h>
#include "stage_copy.h"
#include "tbarrier.h"

#define GDR_STAGE_SCHEMA 2 /* gdr_stage_bw's multi-GPU CSV/JSON columns (2: pcie_*) */

struct stage_multi;

/* One GPU and its thread. */
struct stage_gpu {
	struct stage_multi *mu;
	int index; /* CUDA device ordinal */
	struct stage_bufs b;
	int numa;	/* the GPU's NUMA node, -1 unknown */
	int buf_numa;	/* where its bounce buffers' first page lies, -1 unknown */
	char cpus[192]; /* its thread's CPU placement */
	pthread_t th;
	bool started;
	bool failed;
	double t0, t1; /* this round's start and end, seconds (monotonic) */
};

/* The run: the main thread sets the round, the GPU threads run it together. */
struct stage_multi {
	const struct stage_opts *o;
	int ns; /* streams per direction */
	size_t n;
	struct stage_gpu *g;
	struct gdr_tbarrier go, start, done;
	/* the current round */
	enum { ROUND_COPY, ROUND_MEMCPY, ROUND_QUIT } what;
	enum stage_dir dir;
	uint64_t size, iters;
	bool warm;	       /* warm up before the start */
	uint64_t memcpy_bytes; /* the probe's bytes per thread (0: no probe) */
	double timeout_s;
};

/* One row of results: a GPU (g != NULL) or the aggregate of all GPUs. */
struct stage_row {
	const struct stage_gpu *g;
	uint64_t size, iters;
	enum stage_dir dir;
	uint64_t bytes;	       /* moved: size * iters (* 2 for bidir), summed for the aggregate */
	double start_s, end_s; /* from the round's common start */
	double gbps;	       /* bytes / (end - start) / 1e9 */
	double memcpy_gbps; /* aggregate row: host memory traffic of the memcpy probe, 0 = none */
};

/* Output of the multi-GPU run (stage_out.c): text on stdout, --csv, --json. */
struct stage_out;
struct stage_out *stage_out_open(const struct stage_multi *mu); /* NULL: error printed */
int stage_out_row(struct stage_out *so, const struct stage_row *r);
int stage_out_close(struct stage_out *so); /* writes the JSON; 0 or -1 */

/*
 * The PCIe ceiling of the GPU at PCI address gpu_pci, one way, in GB/s (0:
 * its link is not readable), read from sysfs (below $GDR_SYSFS_ROOT/.. when
 * set) with src/sysinfo's arithmetic; how it was found, in words, into how.
 */
double stage_pcie_ceiling(const char *gpu_pci, char *how, size_t n);

#endif
