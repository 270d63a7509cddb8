/* SPDX-License-Identifier: MIT */
/* One GPU's buffers and one timed measurement through a copier, shared by both runs. */
#ifndef GDR_STAGE_COPY_H
#define GDR_STAGE_COPY_H

#include "config.h"
#include <stdbool.h>
#include <stdint.h>
#include "copier.h"
#include "mem.h"
#include "stage.h"

struct stage_bufs {
	struct gdr_mem m; /* the GPU (gdr_mem_cuda_init), its ops do the copies */
	uint8_t *up;	  /* host source of h2d copies, one region per stream */
	uint8_t *down;	  /* host destination of d2h copies */
	uint8_t *host;	  /* the one host block: [up][down], those the directions use */
	size_t region;	  /* bytes per stream region (the largest size) */
	size_t host_len;  /* bytes of up, and of down */
	size_t host_total;
	bool pageable;
	enum gdr_copier_kind kind; /* the copier every measurement opens (--copier) */
};

/* The copier --copier names. */
enum gdr_copier_kind stage_copier_kind(const struct stage_opts *o);
/* Copies per measurement when -n is not given: ~2 GiB worth, 20..10000. */
uint64_t stage_auto_iters(uint64_t size);
/*
 * --time: the copies of one measurement of about secs, from timed runs of 2, 4, 8, ...
 * copies (the warm-up) until one takes a tenth of secs; the rate it measured gives the
 * rest, whatever the copy engine's speed. measure(ctx, n): the seconds n copies took, or
 * < 0 (printed). 1..100000000, or 0 when a run failed.
 */
uint64_t stage_timed_iters(double secs, double (*measure)(void *ctx, uint64_t n), void *ctx);
/* Streams per direction the run uses (--streams, capped at a copier's lanes; warns once). */
int stage_streams(const struct stage_opts *o);
/* "h2d", "d2h", "bidir". */
const char *stage_dir_name(enum stage_dir d);
/*
 * Device and host buffers for the run's sizes, directions and ns streams, on
 * b->m (already set up). 0, or -1 (line printed); stage_bufs_free in any case.
 */
int stage_bufs_alloc(struct stage_bufs *b, const struct stage_opts *o, int ns);
void stage_bufs_free(struct stage_bufs *b);
/*
 * Whether --copier's copier opens on these buffers with ns lanes, before
 * anything is measured: 0, or -1 with one line in why naming the copier and
 * why it cannot run here (nothing printed).
 */
int stage_copier_check(struct stage_bufs *b, int ns, char *why, size_t n);
/*
 * One timed measurement, exactly as --staged copies: iters copies of size
 * bytes (each way for bidir), one copy in flight per stream. Seconds, or -1.
 */
double stage_measure(struct stage_bufs *b, enum stage_dir dir, uint64_t size, uint64_t iters,
		     int streams);

#endif
