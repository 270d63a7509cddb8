/* SPDX-License-Identifier: MIT */
/*
 * A copier moves bytes between the test's memory (GPU or host) and pinned
 * host memory (the staged path's bounce ring), in lanes ("streams") per
 * direction, one copy in flight per lane; copies of one direction complete
 * in the order they were submitted. The staged path, its copy-rate probe and
 * gdr_stage_bw use copiers only through this interface, so each copier is
 * measured exactly as the staged path runs it.
 *
 *   ce       the copy engine: the backend's asynchronous copies on its streams
 *            (CUDA: cuMemcpy*Async; ROCm: hipMemcpyAsync, the SDMA engines)
 *   gdrcopy  the CPU through a BAR1 mapping of the GPU buffer (libgdrapi.so.2,
 *            /dev/gdrdrv), as UCX stages small messages
 *   sm       a persistent GPU kernel woken by doorbells in mapped pinned host
 *            memory, copying with SM loads and stores, as NCCL stages
 *   batch    ce, save that a block list is one cuMemcpyBatchAsync (CUDA 12.8+)
 *   memcpy   host test memory: memcpy, complete at once
 *
 * The registry (copier.c) lists the copiers built in; gdr_copier_find gives
 * NULL for one that is not. A copier plugs in with its file (copier_X.c,
 * defining `const struct gdr_copier_ops gdr_copier_X_ops`), its line in
 * src/staging/staging.mk and one X(name, NAME) line in options/copier_names.h.
 *
 * Counters: gdr_copier_submit and gdr_copier_reap keep cp->submitted[] and
 * cp->done[]; ops->submit sees cp->submitted[d] still as the index of the
 * copy it queues (its lane: cp->submitted[d] % cp->lanes), ops->reap sees
 * cp->done[d] as the oldest copy not yet reaped, and neither changes them.
 */
#ifndef GDR_COPIER_H
#define GDR_COPIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "copier_names.h"
#include "mem.h"

/* GDR_COPIER_CE, GDR_COPIER_GDRCOPY, ...: GDR_COPIERS' order (copier_names.h) */
#define GDR_COPIER_ENUM(name, NAME) GDR_COPIER_##NAME,
enum gdr_copier_kind {
	GDR_COPIER_AUTO = 0, /* chosen per size by measurement (--stage_copy=auto) */
	GDR_COPIERS(GDR_COPIER_ENUM) GDR_COPIER_NKINDS /* auto and every copier */
};
#undef GDR_COPIER_ENUM

#define GDR_COPIER_LANES (GDR_MEM_STREAMS / 2) /* most lanes per direction */

struct gdr_copier;

struct gdr_copier_ops {
	const char *name; /* "ce", "gdrcopy", "sm", "memcpy": the stage_copy column */
	enum gdr_copier_kind kind;
	/*
	 * Set up cp (cp->data, cp->host, cp->host_len, cp->lanes and
	 * cp->timeout_ns are filled in by gdr_copier_open). 0, or -1 with one
	 * line saying why in why (nothing printed): the caller prints it once,
	 * then falls back or stops as --stage_copy says.
	 */
	int (*open)(struct gdr_copier *cp, char *why, size_t n);
	/*
	 * Optional: whether it can open on data at all, asked before any network
	 * step (nothing set up): 0, or -1 with one line in why. NULL: open tells.
	 */
	int (*ready)(struct gdr_mem *data, char *why, size_t n);
	/*
	 * Queue a copy of len bytes between test memory at offset off and host
	 * memory at host (inside [cp->host, cp->host + cp->host_len)) on the
	 * next lane of direction d; the caller has checked gdr_copier_room.
	 * 0, or -1 (one line printed).
	 */
	int (*submit)(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host,
		      size_t len);
	/*
	 * Optional: queue ONE copy (one lane entry, reaped as a unit) of n
	 * blocks of blk bytes each between test memory at off[0..n) and the
	 * contiguous host range [host, host + n x blk), block k at host + k x
	 * blk: a KV batch's gather or scatter (docs/kv.md). NULL: the copier
	 * takes no block lists (gdr_copier_takes_lists). 0, or -1 (printed).
	 */
	int (*submit_list)(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			   uint32_t n, size_t blk, void *host);
	/*
	 * Copies of direction d that completed since the last call, in
	 * submission order (>= 0), without blocking; -1 on an error (printed).
	 */
	int (*reap)(struct gdr_copier *cp, enum gdr_copy_dir d);
	void (*close)(struct gdr_copier *cp);
	/*
	 * Optional: wait for every copy of direction d (bounded by timeout_ns
	 * or the backend); 0 or -1 (printed). NULL: gdr_copier_drain polls
	 * reap until done or timeout_ns. The copy engine keeps its stream
	 * synchronise here, which the latency path's one-copy wait relies on.
	 */
	int (*drain)(struct gdr_copier *cp, enum gdr_copy_dir d);
	/*
	 * Optional, for a copier that keeps the GPU busy while open (sm: a
	 * resident kernel polling over PCIe): park stops that work with every
	 * copy reaped (0, or -1 printed); resume starts it again (0, or -1 with
	 * one line in why). A parked copier takes no copies; close works either
	 * way. NULL: nothing runs between copies.
	 */
	int (*park)(struct gdr_copier *cp);
	int (*resume)(struct gdr_copier *cp, char *why, size_t n);
	/*
	 * The CPU thread that submits does the copy (gdrcopy): the staged loop
	 * neither polls nor posts meanwhile, so copy and wire take turns rather
	 * than overlap (the row's model says so).
	 */
	bool blocks;
};

struct gdr_copier {
	const struct gdr_copier_ops *ops;
	struct gdr_mem *data; /* the test's memory */
	uint8_t *host;	      /* the pinned host memory copies go to and from */
	size_t host_len;
	unsigned int lanes;   /* per direction, 1..GDR_COPIER_LANES */
	uint64_t timeout_ns;  /* bound on any wait inside the copier (--timeout) */
	uint64_t submitted[2], done[2];
	void *priv; /* the copier's own state */
};

/* The copier called name ("ce", "gdrcopy", "sm", "memcpy"), or NULL if not built in. */
const struct gdr_copier_ops *gdr_copier_find(const char *name);
/* The copier of kind k, or NULL if not built in (AUTO: NULL, the probe chooses). */
const struct gdr_copier_ops *gdr_copier_of(enum gdr_copier_kind k);
/* Whether the copier of kind k blocks the thread that submits (ops->blocks); false if not built. */
bool gdr_copier_blocks(enum gdr_copier_kind k);
/* What stages test memory when nothing is chosen: memcpy for host memory, else ce. */
enum gdr_copier_kind gdr_copier_default(const struct gdr_mem *data);
/*
 * Open a copier of kind k (AUTO: gdr_copier_default) between data and the
 * pinned host memory [host, host + host_len), with lanes per direction
 * (0 or more than GDR_COPIER_LANES: GDR_COPIER_LANES). 0, or -1 with one
 * line in why (nothing printed; also for a copier not built in).
 */
int gdr_copier_open(struct gdr_copier *cp, enum gdr_copier_kind k, struct gdr_mem *data,
		    uint8_t *host, size_t host_len, unsigned int lanes, uint64_t timeout_ns,
		    char *why, size_t n);
/* ops->ready of kind k on data (0 when it has none); -1 with why also for one not built in. */
int gdr_copier_ready(enum gdr_copier_kind k, struct gdr_mem *data, char *why, size_t n);
/* Copies that direction d can take now. */
unsigned int gdr_copier_room(const struct gdr_copier *cp, enum gdr_copy_dir d);
/* Queue a copy (needs room; see ops->submit). 0 or -1 (printed). */
int gdr_copier_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host,
		      size_t len);
/* Queue one copy of a block list (needs room; see ops->submit_list). 0 or -1 (printed). */
int gdr_copier_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			   uint32_t n, size_t blk, void *host);
/* Whether the copier of kind k takes block lists (ops->submit_list); false if not built. */
bool gdr_copier_takes_lists(enum gdr_copier_kind k);
/* Copies of direction d newly complete, in submission order (>= 0), or -1 (printed). */
int gdr_copier_reap(struct gdr_copier *cp, enum gdr_copy_dir d);
/* Wait for every copy of direction d, bounded. 0 or -1 (printed). */
int gdr_copier_drain(struct gdr_copier *cp, enum gdr_copy_dir d);
/*
 * Stop what the copier runs between copies, so that other paths are timed
 * without it (ops->park; nothing for most copiers). 0 or -1 (printed).
 */
int gdr_copier_park(struct gdr_copier *cp);
/* Start it again before copies. 0, or -1 with one line in why (nothing printed). */
int gdr_copier_resume(struct gdr_copier *cp, char *why, size_t n);
/* Release what open set up (safe on a copier that failed to open or was zeroed). */
void gdr_copier_close(struct gdr_copier *cp);

#endif
