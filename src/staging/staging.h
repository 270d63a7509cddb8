/* SPDX-License-Identifier: MIT */
/*
 * The staged path, the one header the driver and the engine use. The NIC
 * touches only the pinned host bounce ring; a copier (copier.h) moves the
 * test's memory (GPU or host) to and from it in chunks, pipelined against
 * the network (the plan: plan.h).
 *
 * src/staging, one name per idea:
 *   staging.h       this interface: the per-size state, buffer sizing, the loop, the probe, rows
 *   plan.c/h        the per-size plan: wire units, copy runs, the bounce ring (pure arithmetic)
 *   copier.c/h      the copier interface and its registry; copier_<name>.c: one copier each
 *   staging_prep.c  the per-size state, buffer sizing, standing receives, per-size preparation
 *   staging_bw.c    the staged bandwidth loop
 *   probe.c         the copy-rate probe: one copier at one size, alone (no network)
 *   row.c           what a staged row and the header say (chunk, ring, lanes, model)
 *   choice.c/h      --stage_copy's decision per size and its words (pure)
 *   choose.c        --stage_copy: probe the candidates per size once; exchange the choice
 * ("stage" alone names gdr_stage_bw, src/stagebw.)
 */
#ifndef GDR_STAGING_H
#define GDR_STAGING_H

#include <stddef.h>
#include <stdint.h>
#include "copier.h"
#include "conn.h"
#include "results.h"
#include "plan.h"
#include "stop.h"

/* The bounce buffer ends with a control page: [tx ring][rx ring][ctrl]. */
#define GDR_CTRL_LEN 4096

struct gdr_ctrl {
	volatile uint64_t credit; /* written by the peer: runs it has copied out (read: read) */
	uint64_t copied;	  /* ours: the source of our credit writes */
	volatile uint64_t staged; /* read: written by the target: runs staged in its ring */
	uint64_t staged_src;	  /* ours as a read target: the source of those writes */
};

static inline struct gdr_ctrl *gdr_ctrl(struct gdr_conn *c)
{
	return (struct gdr_ctrl *)((uint8_t *)c->bounce.addr + 2 * c->region_len);
}

/* The memory holding the test's data on path p (staged: behind the ring). */
static inline struct gdr_mem *gdr_test_mem(struct gdr_conn *c, const struct gdr_path *p)
{
	return p->staged ? &c->data : p->mem;
}

/*
 * A KV cell on the staged path (docs/kv.md, engine/bw_kv_size.c): the size
 * is a batch's bytes, a run is one batch (the plan's chunk is the batch, so
 * the staged path never merges beyond a batch), and run r moves the blocks
 * of ring entries [(r % nb_ring) x batch, +batch) of the placement: from or
 * to test memory at base + e x block (slot NULL: this side's blocks lie one
 * after another), or at base + slot[e] x block as one block list (the pool's
 * side: copier.h submit_list).
 */
struct gdr_stage_kv {
	uint64_t block, base; /* bytes a block; the blocks' region in test memory */
	uint32_t batch, nb_ring;
	const uint64_t *slot; /* the ring's pool slots (batch x nb_ring), or NULL */
	uint64_t *off;	      /* room for one batch's offsets */
};

/*
 * One size of the staged path, built once before the size's paths run
 * (gdr_staging_begin) and passed down to the probe, the staged loops and
 * the rows; gdr_staging_end releases it.
 */
struct gdr_staging {
	uint64_t size;
	struct gdr_stage_plan plan;
	uint64_t chunk;	      /* bytes per copy of a full run (per message: latency) */
	struct gdr_copier cp; /* the copier staging this size, open on c->data and the ring */
	enum gdr_copier_kind kind; /* cp's kind */
	char copy_cell[24];   /* the rows' stage_copy: "sm", or "sm/ce" (client/server) */
	struct gdr_copier *home; /* the run's copier cp was taken from (run_copier.c), or NULL */
	bool blocks;	      /* either side's copier blocks its thread (ops->blocks) */
	struct gdr_stage_kv *kv; /* a KV cell's blocks while its staged run runs, else NULL */
};

/* --stage_copy: this side's copier of each of the run's sizes, chosen once before them. */
struct gdr_stage_copy {
	enum gdr_copier_kind kind[GDR_MAX_SIZES];
	char desc[400]; /* for the header: the choice, the crossover, what could not open */
};

/* Bytes a region of the buffers needs for the staged path at this size (driver sizing). */
uint64_t gdr_staging_region_need(const struct gdr_conn *c, uint64_t size);
/* Bytes of the bounce buffer for regions of region_len: two rings and the control page. */
static inline uint64_t gdr_staging_bounce_len(uint64_t region_len)
{
	return 2 * region_len + GDR_CTRL_LEN;
}
/*
 * Plan the size and open its copier of kind k (AUTO: gdr_copier_default),
 * after the buffers exist. 0 or -1 (printed).
 */
int gdr_staging_begin(struct gdr_staging *s, struct gdr_conn *c, uint64_t size,
		      enum gdr_copier_kind k);
/* Only the plan of the size (s zeroed, no copier open). */
void gdr_staging_begin_plan(struct gdr_staging *s, const struct gdr_conn *c, uint64_t size);
/*
 * The run's copiers (run_copier.c): take the run's copier of kind k for s
 * (opened on c's buffers at first use, kept for the run; started), 0 or -1
 * with one line in why (nothing printed); gdr_staging_end gives it back
 * parked (a copier s opened itself is closed). Before each path of a size,
 * gdr_staging_path runs the copier for the staged path only, so no other
 * path is timed with a kernel resident (0 or -1, printed).
 * gdr_staging_close_run closes them all: after the run's last size or an
 * error, before its buffers are freed.
 */
/*
 * peer_gpu.c: whether the peer's test memory is on this side's GPU (both
 * sides call it, before choosing, saying whether they will probe: --stage_copy=auto
 * on GPU memory; 0 or -1, printed by the session), and the turns of the two sides'
 * probes when it is and both probe: gdr_staging_turn(c, true) before this side
 * probes, (c, false) after (the server goes first).
 */
int gdr_staging_peer_gpu(struct gdr_conn *c, bool probes, bool *same, bool *peer_probes);
/*
 * This side's GPU: a hash of its PCI function and this boot of this host
 * (boot_id: the same for containers of one host; the host name where it
 * cannot be read), bit 1 clear, bit 0 set; 0 for host test memory. Two sides
 * with equal ids test memory of one GPU.
 */
uint64_t gdr_staging_gpu_id(const struct gdr_conn *c);
int gdr_staging_turn(struct gdr_conn *c, bool before);
int gdr_staging_take(struct gdr_staging *s, struct gdr_conn *c, enum gdr_copier_kind k, char *why,
		     size_t n);
int gdr_staging_path(struct gdr_staging *s, bool staged);
void gdr_staging_end(struct gdr_staging *s);
void gdr_staging_close_run(void);

/* Post the staged path p's standing receives (once, after its QPs are connected). */
int gdr_staged_prepost(struct gdr_conn *c, struct gdr_path *p);
/* Before the barrier of a size: clear the control page's counts, post send receives. */
int gdr_staged_prepare(struct gdr_conn *c, const struct gdr_path *path, struct gdr_staging *s);
/* Copy the test memory's first len bytes into the bounce tx region through cp, waited for. */
int gdr_staged_stage_tx(struct gdr_conn *c, struct gdr_copier *cp, size_t len);
/* send: post the receives of run `run` at its ring positions (on path's QP). */
int gdr_staged_post_run_recvs(struct gdr_conn *c, const struct gdr_path *path,
			      const struct gdr_stage_plan *p, uint64_t run);
/*
 * Run one size of a staged bandwidth test on the staged path p; fills this
 * side's measurement. A stop request ends it with -1, noted in *stop.
 */
int gdr_staged_bw(struct gdr_conn *c, struct gdr_path *p, struct gdr_staging *s,
		  struct gdr_stop_at *stop, struct gdr_result_wire *mine);

/*
 * The copy-rate probe (probe.c): copier cp (open on c->data and the ring)
 * alone at the size of s, no network, for about budget_s seconds: s->chunk
 * bytes per copy in the directions this side times for its roles (a
 * sender's device->host, a receiver's host->device; both at once with -b),
 * within the ring's span, every lane busy. Bytes per second summed over the
 * directions, 0 when this side times no copy (a read target), or -1. cp need
 * not be s->cp: a choice among copiers (--stage_copy=auto) opens each
 * candidate, probes it at the size and keeps the faster in s->cp.
 */
double gdr_staging_probe(const struct gdr_conn *c, const struct gdr_staging *s,
			 struct gdr_copier *cp, double budget_s);
/*
 * --compare: probe this side's copier for its roles at this size (a few ms),
 * exchange the rate with the peer, and return the slower side's in *Bps (0
 * when no copy is timed, e.g. a read target).
 */
int gdr_staging_copy_rate(struct gdr_conn *c, struct gdr_staging *s, double *Bps);

/*
 * choose.c, before the sizes (after the buffers exist): each size's copier
 * on this side. Host test memory: memcpy. An explicit --stage_copy: that
 * copier, opened once to check (one line and -1 when it cannot open here).
 * auto: every candidate that opens is probed at each size (a few ms each)
 * and the fastest kept. 0 or -1 (printed).
 */
int gdr_staging_choose(struct gdr_conn *c, const uint64_t *sizes, size_t nsizes,
		       struct gdr_stage_copy *sc);
/*
 * choose.c, once the test memory exists and before any network step, for a
 * run with a staged path: an explicit --stage_copy whose copier cannot run on it at all (ops->ready: the
 * batch copier on a driver without cuMemcpyBatchAsync) is refused in one line.
 * 0 or -1 (printed).
 */
int gdr_staging_precheck(int stage_copy, struct gdr_mem *data);
/* Each size, both sides: exchange the copier kind and fill s->copy_cell. 0 or -1. */
int gdr_staging_exchange_copier(struct gdr_conn *c, struct gdr_staging *s);

/* row.c: the staged row r's chunk, ring and lanes. */
void gdr_staging_row(const struct gdr_staging *s, struct gdr_result *r);
/*
 * With a copy rate, the staged row r[k]'s model and efficiency (r[0]: the wire
 * reference, its best repeat). efficiency is at most 1: a figure above is not
 * kept (efficiency 0) but said in eff_over.
 */
void gdr_staging_model(struct gdr_result *r, uint32_t k, double copy_Bps);
/* The staged path's choices for the header. */
void gdr_staging_describe(const struct gdr_conn *c, char *buf, size_t n);

#endif
