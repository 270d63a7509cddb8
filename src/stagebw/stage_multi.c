/* SPDX-License-Identifier: MIT */
/*
 * gdr_stage_bw on several GPUs at once: one thread per GPU, pinned to the
 * GPU's NUMA node with its bounce buffers there; the timed copies of every
 * GPU start behind one barrier. The aggregate is all bytes over the wall
 * time from the common start to the last GPU's end.
 */
#include "config.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "affinity.h"
#include "clock.h"
#include "log.h"
#include "stage_multi.h"

#define IDLE_TIMEOUT_S 600.0 /* a GPU thread waiting for the next round */

static double now_s(void)
{
	return (double)gdr_now_ns() * 1e-9;
}

/* In the GPU's thread: CPUs and memory policy of its node, then its buffers. */
static int gpu_setup(struct stage_gpu *g)
{
	static atomic_flag copier_said = ATOMIC_FLAG_INIT;
	char of[32], why[320];
	bool placed;

	snprintf(of, sizeof(of), "GPU %d", g->index);
	gdr_pin_to_node(g->numa, of, g->cpus, sizeof(g->cpus));
	placed = g->numa >= 0 && !gdr_mem_prefer_node(g->numa);
	if (stage_bufs_alloc(&g->b, g->mu->o, g->mu->ns))
		return -1;
	if (placed)
		gdr_mem_prefer_node(-1);
	if (stage_copier_check(&g->b, g->mu->ns, why, sizeof(why))) {
		if (!atomic_flag_test_and_set(&copier_said)) /* the same on every GPU: once */
			gdr_err("GPU %d: %s", g->index, why);
		return -1;
	}
	g->buf_numa = gdr_addr_numa_node(g->b.up ? g->b.up : g->b.down);
	return 0;
}

static void gpu_memcpy(struct stage_gpu *g, uint64_t total)
{
	size_t chunk = g->b.host_len;

	for (uint64_t done = 0; done < total; done += chunk)
		memcpy(g->b.down, g->b.up, chunk);
}

/* One round: warm up, meet the others, copy, note start and end. */
static void gpu_round(struct stage_gpu *g)
{
	struct stage_multi *mu = g->mu;
	uint64_t warm = mu->iters / 10 + 2;

	if (!g->failed && mu->what == ROUND_COPY && mu->warm &&
	    stage_measure(&g->b, mu->dir, mu->size, warm, mu->ns) < 0)
		g->failed = true;
	if (mu->what == ROUND_MEMCPY && mu->warm) /* every page resident before the timing */
		memcpy(g->b.down, g->b.up, g->b.host_len);
	if (gdr_tbarrier_wait(&mu->start, mu->timeout_s)) {
		g->failed = true;
		return;
	}
	g->t0 = now_s();
	if (!g->failed && mu->what == ROUND_MEMCPY) {
		gpu_memcpy(g, mu->memcpy_bytes);
	} else if (!g->failed && stage_measure(&g->b, mu->dir, mu->size, mu->iters, mu->ns) < 0) {
		g->failed = true;
		gdr_err("GPU %d: its %s copies of %llu bytes failed", g->index,
			stage_dir_name(mu->dir), (unsigned long long)mu->size);
	}
	g->t1 = now_s();
}

static void *gpu_thread(void *arg)
{
	struct stage_gpu *g = arg;
	struct stage_multi *mu = g->mu;

	g->failed = gpu_setup(g) != 0;
	if (gdr_tbarrier_wait(&mu->done, mu->timeout_s))
		return NULL;
	while (!gdr_tbarrier_wait(&mu->go, IDLE_TIMEOUT_S) && mu->what != ROUND_QUIT) {
		gpu_round(g);
		if (gdr_tbarrier_wait(&mu->done, mu->timeout_s))
			break;
	}
	return NULL;
}

/* Every thread's part of the round done; 0, or -1 (a GPU failed or hung). */
static int round_wait(struct stage_multi *mu)
{
	if (gdr_tbarrier_wait(&mu->done, mu->timeout_s)) {
		gdr_err("the GPU threads did not finish a round within %.0f s (a driver call "
			"hangs?)",
			mu->timeout_s);
		return -1;
	}
	for (size_t i = 0; i < mu->n; i++)
		if (mu->g[i].failed)
			return -1;
	return 0;
}

static int round_run(struct stage_multi *mu)
{
	if (gdr_tbarrier_wait(&mu->go, IDLE_TIMEOUT_S)) {
		gdr_err("the GPU threads did not take the next round (one waited over %.0f s)",
			IDLE_TIMEOUT_S);
		return -1;
	}
	return round_wait(mu);
}

/* Time bound of a round: a minute plus the bytes of one GPU at 50 MB/s. */
static double round_timeout(uint64_t bytes)
{
	return 60.0 + (double)bytes / 50e6;
}

/* The last round's wall time, from the first GPU's start (*start) to the last one's end. */
static double round_wall(const struct stage_multi *mu, double *start)
{
	double t0 = mu->g[0].t0, t1 = mu->g[0].t1;

	for (size_t i = 1; i < mu->n; i++) {
		if (mu->g[i].t0 < t0)
			t0 = mu->g[i].t0;
		if (mu->g[i].t1 > t1)
			t1 = mu->g[i].t1;
	}
	*start = t0;
	return t1 - t0;
}

/* --time's warm-up: a round of n copies on every GPU at once, its wall time (< 0 failed). */
static double timed_round(void *ctx, uint64_t n)
{
	struct stage_multi *mu = ctx;
	double start;

	mu->iters = n;
	mu->warm = n == 2; /* the first: streams and pages touched before it is timed */
	mu->timeout_s = round_timeout(mu->size * n * (mu->dir == STAGE_BIDIR ? 2 : 1) * 11 / 10);
	if (round_run(mu))
		return -1;
	return round_wall(mu, &start);
}

/* Best of --reps rounds at one size and direction; rows out (GPUs, then aggregate). */
static int measure_all(struct stage_multi *mu, struct stage_out *so, uint64_t size,
		       enum stage_dir dir, double memcpy_gbps)
{
	const struct stage_opts *o = mu->o;
	uint64_t iters = o->iters ? o->iters : stage_auto_iters(size), per_gpu;
	struct stage_row *best = calloc(mu->n + 1, sizeof(*best));
	double best_wall = 0;
	int rc = -1;

	if (!best) {
		gdr_err("out of memory");
		return -1;
	}
	mu->what = ROUND_COPY;
	mu->dir = dir;
	mu->size = size;
	if (o->time > 0) { /* the warm-up times the copies: every GPU at once */
		iters = stage_timed_iters(o->time, timed_round, mu);
		if (!iters)
			goto out;
	}
	per_gpu = size * iters * (dir == STAGE_BIDIR ? 2 : 1);
	mu->iters = iters;
	mu->timeout_s = round_timeout(per_gpu + per_gpu / 10);
	for (unsigned int r = 0; r < o->reps; r++) {
		double start, wall;

		mu->warm = r == 0 && o->time <= 0; /* --time warmed up in its timing */
		if (round_run(mu))
			goto out;
		wall = round_wall(mu, &start);
		if (r && wall >= best_wall)
			continue;
		best_wall = wall;
		for (size_t i = 0; i <= mu->n; i++) {
			struct stage_row *w = &best[i];

			*w = (struct stage_row){.size = size, .iters = iters, .dir = dir};
			if (i < mu->n) {
				w->g = &mu->g[i];
				w->bytes = per_gpu;
				w->start_s = mu->g[i].t0 - start;
				w->end_s = mu->g[i].t1 - start;
			} else {
				w->bytes = per_gpu * mu->n;
				w->end_s = wall;
				w->memcpy_gbps = memcpy_gbps;
			}
			w->gbps = w->end_s > w->start_s
				      ? (double)w->bytes / (w->end_s - w->start_s) / 1e9
				      : 0;
		}
	}
	for (size_t i = 0; i <= mu->n; i++)
		if (stage_out_row(so, &best[i]))
			goto out;
	rc = 0;
out:
	free(best);
	return rc;
}

/*
 * Host memcpy with the same threads at once: its host memory traffic, bytes read
 * plus bytes written per second (GB/s; a DMA copy reads or writes each byte once
 * on the host side), 0 = none.
 */
static double memcpy_probe(struct stage_multi *mu)
{
	double start, wall, copied;
	size_t chunk;

	if (!mu->g[0].b.up || !mu->g[0].b.down)
		return 0;
	chunk = mu->g[0].b.host_len;
	mu->memcpy_bytes = ((256ULL << 20) / chunk + 1) * chunk;
	mu->what = ROUND_MEMCPY;
	mu->warm = true;
	mu->timeout_s = round_timeout(mu->memcpy_bytes + chunk);
	if (round_run(mu))
		return -1;
	wall = round_wall(mu, &start);
	if (wall <= 0)
		return 0;
	copied = (double)mu->memcpy_bytes * (double)mu->n / wall / 1e9;
	gdr_info("host memcpy probe (a host figure, not a GPU one): %zu threads, one per GPU on "
		 "its CPUs, %.0f MiB each: %.2f GB/s copied = %.2f GB/s of host memory traffic "
		 "(read + written)",
		 mu->n, (double)mu->memcpy_bytes / 1048576.0, copied, 2 * copied);
	return 2 * copied;
}

/* The GPUs the options name, each set up for its thread (context, name, NUMA node). */
static int gpus_pick(struct stage_multi *mu)
{
	const struct stage_opts *o = mu->o;
	enum gdr_mem_api api = o->rocm ? GDR_MEM_API_ROCM : GDR_MEM_API_CUDA;
	const char *opt = gdr_mem_api_option(api);
	char why[512];
	int count = gdr_mem_gpu_count(api, why, sizeof(why));

	if (count < 1) {
		gdr_err("%s: %s", opt, why);
		return -1;
	}
	mu->n = o->gpus_all ? (size_t)count : o->ngpus;
	mu->g = calloc(mu->n, sizeof(*mu->g));
	if (!mu->g) {
		gdr_err("out of memory");
		return -1;
	}
	for (size_t i = 0; i < mu->n; i++) {
		struct stage_gpu *g = &mu->g[i];
		struct gdr_mem_cfg mc = {.api = api, .gpu = o->gpus_all ? (int)i : o->gpus[i]};

		g->mu = mu;
		g->index = mc.gpu;
		if (g->index >= count) {
			gdr_err("%s: GPU %d does not exist: this host has %d GPU%s "
				"(valid: 0..%d)",
				opt, g->index, count, count == 1 ? "" : "s", count - 1);
			return -1;
		}
		if (gdr_mem_init(&g->b.m, &mc, NULL))
			return -1;
		g->numa = gdr_mem_gpu_numa(&g->b.m);
	}
	return 0;
}

/* "node 1", or "node unknown". */
static const char *node_str(int node, char *buf, size_t n)
{
	if (node >= 0)
		snprintf(buf, n, "node %d", node);
	else
		snprintf(buf, n, "node unknown");
	return buf;
}

static void header(const struct stage_multi *mu)
{
	const struct stage_opts *o = mu->o;
	char gpu_node[32], buf_node[32];

	gdr_info("%zu GPU%s at once, %s host memory, %d stream%s each, best of %u%s%s; "
		 "the copies of all GPUs start behind one barrier",
		 mu->n, mu->n == 1 ? "" : "s", o->pageable ? "pageable" : "pinned", mu->ns,
		 mu->ns > 1 ? "s" : "", o->reps, o->copier_given ? ", copier " : "",
		 o->copier_given ? stage_copier_words[o->copier] : "");
	for (size_t i = 0; i < mu->n; i++) {
		const struct stage_gpu *g = &mu->g[i];

		gdr_info(" %s: NUMA %s; thread: %s; bounce buffers on %s", g->b.m.desc,
			 node_str(g->numa, gpu_node, sizeof(gpu_node)), g->cpus,
			 node_str(g->buf_numa, buf_node, sizeof(buf_node)));
	}
}

static int run_all(struct stage_multi *mu)
{
	static const enum stage_dir order[] = {STAGE_H2D, STAGE_D2H, STAGE_BIDIR};
	const struct stage_opts *o = mu->o;
	struct stage_out *so;
	double probe;
	int rc = -1;

	header(mu);
	probe = memcpy_probe(mu);
	if (probe < 0)
		return -1;
	so = stage_out_open(mu);
	if (!so)
		return -1;
	for (size_t i = 0; i < o->nsizes; i++)
		for (size_t d = 0; d < 3; d++)
			if ((o->dirs & order[d]) &&
			    measure_all(mu, so, o->sizes[i], order[d], probe))
				goto out;
	rc = 0;
out:
	if (stage_out_close(so))
		rc = -1;
	return rc;
}

/* Let the threads go: a last round that ends them, else broken barriers. */
static bool stop_threads(struct stage_multi *mu, size_t started)
{
	mu->what = ROUND_QUIT;
	if (started == mu->n && !gdr_tbarrier_broken(&mu->go) && !gdr_tbarrier_broken(&mu->done) &&
	    !gdr_tbarrier_wait(&mu->go, 1.0))
		return true;
	gdr_tbarrier_break(&mu->go);
	gdr_tbarrier_break(&mu->start);
	gdr_tbarrier_break(&mu->done);
	/* a wait that timed out: a thread may be stuck in the driver, leave it */
	return gdr_tbarrier_broken(&mu->go) != 2 && gdr_tbarrier_broken(&mu->start) != 2 &&
	       gdr_tbarrier_broken(&mu->done) != 2;
}

/*
 * The run state lives on the heap: when a wait timed out, a GPU thread may be
 * stuck in the driver and still hold it, so it is then left allocated.
 */
int stage_run_multi(const struct stage_opts *o)
{
	struct stage_multi *mu = calloc(1, sizeof(*mu));
	size_t started = 0;
	int rc = 1;
	bool joinable = true, barriers = false;

	if (!mu) {
		gdr_err("out of memory");
		return 1;
	}
	mu->o = o;
	mu->timeout_s = round_timeout(0);
	mu->ns = stage_streams(o);
	if (gpus_pick(mu))
		goto out;
	if (gdr_tbarrier_init(&mu->go, (unsigned int)mu->n + 1) ||
	    gdr_tbarrier_init(&mu->start, (unsigned int)mu->n) ||
	    gdr_tbarrier_init(&mu->done, (unsigned int)mu->n + 1)) {
		gdr_err("cannot set up the thread barriers: %s", strerror(errno));
		goto out;
	}
	barriers = true;
	for (; started < mu->n; started++) {
		int e = pthread_create(&mu->g[started].th, NULL, gpu_thread, &mu->g[started]);

		if (e) {
			gdr_err("cannot start a thread for GPU %d: %s", mu->g[started].index,
				strerror(e));
			break;
		}
	}
	if (started == mu->n && !round_wait(mu) && !run_all(mu))
		rc = 0;
	joinable = stop_threads(mu, started);
	for (size_t i = 0; i < started && joinable; i++)
		pthread_join(mu->g[i].th, NULL);
out:
	if (!joinable)
		return rc;
	for (size_t i = 0; i < mu->n && mu->g; i++)
		stage_bufs_free(&mu->g[i].b);
	free(mu->g);
	if (barriers) {
		gdr_tbarrier_destroy(&mu->go);
		gdr_tbarrier_destroy(&mu->start);
		gdr_tbarrier_destroy(&mu->done);
	}
	free(mu);
	return rc;
}
