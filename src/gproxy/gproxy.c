/* SPDX-License-Identifier: MIT */
/* The gpu-proxy path's kernel launch and proxy threads (gproxy.h; the protocol: gp_proto.h). */
#include "config.h"
#include "gproxy.h"

#include <stdio.h>

#ifdef HAVE_CUDA

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "clock.h"
#include "cuda_api.h"
#include "gpukern.h"
#include "log.h"

#define TAKE_MAX 64 /* descriptors a proxy takes before it polls its completions */

extern const char gdr_gp_kernel_ptx[]; /* gp_kernel.ptx, embedded by the build */

/* The kernel, for its host side (gpukern.h). */
static const struct gdr_gpukern_image gp_image = {
    .who = "gpu-proxy",
    .entry = GDR_GP_KERNEL,
    .ptx = gdr_gp_kernel_ptx,
    .env = "GDR_GP_PTX", /* kernel development: a variant measured without a rebuild */
    .isa = GDR_GP_PTX_ISA,
    .target = GDR_GP_PTX_TARGET,
    .driver = GDR_GP_PTX_DRIVER,
    .mute = "writes none",
    .keeps = "stream, queues and module",
};

_Static_assert(sizeof(struct gdr_gp_desc) == 16, "a descriptor is one 16-byte store");
_Static_assert((GDR_GP_RING & (GDR_GP_RING - 1)) == 0, "the ring is a power of two");
_Static_assert(GDR_GP_NIC_ORDER_OWNER == CU_GPU_DIRECT_RDMA_WRITES_ORDERING_OWNER,
	       "gproxy.h's copy of the CUDA value");

/* One proxy thread; lives in struct gdr_gproxy, since a stuck one outlives its run. */
struct thr {
	struct gdr_gproxy *g;
	const struct gdr_gp_backend *be;
	pthread_t tid;
	unsigned int q, n;
	/*
	 * Latency mode, queue 0: the host clock as each completion is written;
	 * ping mode: as each descriptor is taken
	 */
	uint64_t *arrivals;
	bool ping;
	uint64_t t_first, t_last;
	int err; /* -1: failed (printed); -2: ended with the kernel, which says why */
	/* for the run's thread: backend call (0: none, 1: post, 2: poll), about seq, count */
	int call;
	uint64_t call_seq, calls;
	uint64_t seen_calls, seen_ns; /* the run's thread: calls as last changed, and when */
	int finished;		      /* serve returned */
	bool ended;		      /* by the backend (gdr_gp_backend.ended) */
	bool left;		      /* left behind in a backend call (left_behind) */
	uint64_t torn;		      /* reads of a descriptor whose word 0 had not come */
};

struct gdr_gproxy {
	struct gdr_gpukern k; /* context, stream, wait, running (gpukern.h) */
	CUmodule mod;
	CUfunction fn;
	struct gdr_gp_queue *qs; /* host view of the queues */
	CUdeviceptr qs_d, samples_d;
	size_t samples_len;
	int abort; /* a proxy thread failed: the others end */
	uint64_t *gpu, *host;
	size_t lat_cap;
	int nic_order; /* CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING */
	struct thr thr[GDR_GP_MAX_Q];
	pthread_mutex_t lock; /* with cv: a proxy thread finished */
	pthread_cond_t cv;
	bool sync_init;
	unsigned int stuck; /* proxy threads left in a backend call: never joined, never freed */
	unsigned int rate_q, rate_w; /* gdr_gproxy_kernel_rate: the shape last measured */
	double rate;
};

/*
 * A proxy thread's silence: which side stopped. Printed once; the run ends.
 * Posts not completed may wait on a signalled work request the kernel never
 * asked for, so they are said beside the descriptor that did not come.
 */
static void silent(struct thr *t, uint64_t next, uint64_t posted, uint64_t done, uint64_t idle)
{
	struct gdr_gp_queue *q = &t->g->qs[t->q];
	char state[160], pend[64] = "";

	gdr_gpukern_state(&t->g->k, state, sizeof(state));
	if (posted > done)
		snprintf(pend, sizeof(pend), ", %llu posted not completed",
			 (unsigned long long)(posted - done));
	if (!__atomic_load_n(&q->ready, __ATOMIC_ACQUIRE))
		gdr_err("gpu-proxy: queue %u: the kernel did not start within %.3f s (%s)", t->q,
			(double)idle * 1e-9, state);
	else
		gdr_err("gpu-proxy: queue %u: no descriptor %llu of %u after %.3f s%s: the kernel "
			"stopped producing (%s)",
			t->q, (unsigned long long)next, t->n, (double)idle * 1e-9, pend, state);
}

/*
 * Mark the thread in backend call `what` (1: post, 2: poll) about descriptor
 * seq, or (what 0) out of it again. The run's thread reads the mark to tell
 * a proxy stuck inside its backend (gdr_gproxy_run).
 */
static void in_call(struct thr *t, int what, uint64_t seq)
{
	if (what) {
		__atomic_store_n(&t->call_seq, seq, __ATOMIC_RELAXED);
		__atomic_add_fetch(&t->calls, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&t->call, what, __ATOMIC_RELEASE);
}

static int post(struct thr *t, const struct gdr_gp_backend *be, const struct gdr_gp_desc *d)
{
	int rc;

	in_call(t, 1, d->seq);
	rc = be->post(be->ctx, t->q, d);
	in_call(t, 0, 0);
	return rc;
}

/* serve's end: the run's thread waits for this (bounded) rather than in pthread_join. */
static void *finish(struct thr *t)
{
	pthread_mutex_lock(&t->g->lock);
	__atomic_store_n(&t->finished, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&t->g->cv);
	pthread_mutex_unlock(&t->g->lock);
	return NULL;
}

/*
 * One proxy thread: take the queue's descriptors in order, hand each to the
 * backend (or complete it: the null NIC), write the completions back.
 */
static void *serve(void *arg)
{
	struct thr *t = arg;
	struct gdr_gproxy *g = t->g;
	struct gdr_gp_queue *q = &g->qs[t->q];
	const struct gdr_gp_backend *be = t->be;
	uint64_t next = 1, done = 0, t_idle, now;
	unsigned int spins = 0;

	if (g->k.cu->cuCtxSetCurrent(g->k.ctx) != CUDA_SUCCESS) {
		gdr_err("gpu-proxy: queue %u: cuCtxSetCurrent failed in the proxy thread", t->q);
		t->err = -1;
		return finish(t);
	}
	t_idle = gdr_now_ns();
	while (done < t->n && !__atomic_load_n(&g->abort, __ATOMIC_RELAXED)) {
		unsigned int took = 0;
		uint64_t was = done;

		while (next <= t->n && took < TAKE_MAX) {
			struct gdr_gp_desc *s = &q->desc[next % GDR_GP_RING], d;
			uint64_t w0;

			if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != (uint32_t)next)
				break;
			/* word 0 whole, after seq; its chk not next's yet: on its way, read again
			 */
			w0 = __atomic_load_n((const uint64_t *)(const void *)s, __ATOMIC_ACQUIRE);
			memcpy(&d, &w0, sizeof(w0));
			if (d.chk != GDR_GP_CHK(next)) {
				t->torn++;
				break;
			}
			d.op = 0;
			d.seq = (uint32_t)next;
			if (next == 1)
				t->t_first = gdr_now_ns();
			if (t->ping && t->arrivals)
				t->arrivals[next - 1] = gdr_now_ns();
			if (be && post(t, be, &d))
				goto failed;
			next++;
			took++;
		}
		if (be) {
			int k;

			in_call(t, 2, next - 1);
			k = be->poll(be->ctx, t->q);
			in_call(t, 0, 0);
			if (k < 0)
				goto failed;
			done += (uint64_t)k;
			if (be->ended && be->ended(be->ctx, t->q)) {
				if (done != was)
					__atomic_store_n(&q->done, done, __ATOMIC_RELEASE);
				t->ended = true;
				break;
			}
		} else {
			done = next - 1;
		}
		if (done != was) {
			__atomic_store_n(&q->done, done, __ATOMIC_RELEASE);
			/* the clock after the store: never between a descriptor and its completion
			 */
			if (t->arrivals && !t->ping)
				t->arrivals[done - 1] = gdr_now_ns();
			spins = 0;
			continue;
		}
		if (took || ++spins % 256)
			continue;
		if (!(spins % 4096))
			sched_yield(); /* idle a while: a loaded host's other threads (the double's)
					  run */
		now = gdr_now_ns();
		if (spins == 256) {
			t_idle = now;
		} else if (__atomic_load_n(&q->status, __ATOMIC_ACQUIRE) != GDR_GP_RUNNING) {
			t->err = -2; /* the kernel ended first: gdr_gproxy_run says why */
			goto ended;
		} else if (now - t_idle > (next - 1 > done || t->ping ? 2 : 1) * g->k.wait_ns) {
			/*
			 * waiting on the backend, or (ping) the kernel on its peer: the
			 * kernel's own bounded wait ends first
			 */
			silent(t, next, next - 1, done, now - t_idle);
			goto failed;
		}
	}
	t->t_last = gdr_now_ns();
	return finish(t);
failed:
	t->err = -1;
ended:
	__atomic_store_n(&g->abort, 1, __ATOMIC_RELAXED);
	return finish(t);
}

/* The kernel's stop: written to every queue. */
static void ask_stop(void *arg)
{
	struct gdr_gproxy *g = arg;

	for (unsigned int k = 0; k < GDR_GP_MAX_Q; k++)
		__atomic_store_n(&g->qs[k].stop, 1, __ATOMIC_RELEASE);
}

/* Stop (ask: write stop first) and wait (bounded) for the kernel to end. 0, or -1 (printed). */
static int stop_kernel(struct gdr_gproxy *g, bool ask)
{
	CUresult r;

	if (gdr_gpukern_stop(&g->k, ask ? ask_stop : NULL, g, &r))
		return -1;
	if (r != CUDA_SUCCESS) {
		gdr_err("gpu-proxy: the kernel failed: %s", gdr_cuda_strerror(r));
		return -1;
	}
	return 0;
}

static int probe(struct gdr_gproxy *g, char *why, size_t n);
static int rejoin(struct gdr_gproxy *g);

/* The lock and condition (on the monotonic clock) a finishing proxy thread signals. */
static int sync_init(struct gdr_gproxy *g)
{
	pthread_condattr_t a;
	int bad;

	if (pthread_condattr_init(&a))
		return -1;
	bad = pthread_condattr_setclock(&a, CLOCK_MONOTONIC) || pthread_cond_init(&g->cv, &a);
	pthread_condattr_destroy(&a);
	if (bad)
		return -1;
	if (pthread_mutex_init(&g->lock, NULL)) {
		pthread_cond_destroy(&g->cv);
		return -1;
	}
	g->sync_init = true;
	return 0;
}

/* The GPU's ordering of GPUDirect RDMA writes: NONE where the driver cannot say. */
static void nic_order(struct gdr_gproxy *g)
{
	CUdevice dev;

	g->nic_order = CU_GPU_DIRECT_RDMA_WRITES_ORDERING_NONE;
	if (g->k.cu->cuCtxSetCurrent(g->k.ctx) == CUDA_SUCCESS &&
	    g->k.cu->cuCtxGetDevice(&dev) == CUDA_SUCCESS &&
	    g->k.cu->cuDeviceGetAttribute(&g->nic_order,
					  CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING,
					  dev) != CUDA_SUCCESS)
		g->nic_order = CU_GPU_DIRECT_RDMA_WRITES_ORDERING_NONE;
}

int gdr_gproxy_nic_order(const struct gdr_gproxy *g)
{
	return g ? g->nic_order : 0;
}

int gdr_gproxy_open(struct gdr_gproxy **out, struct gdr_mem *m, uint64_t timeout_ns, char *why,
		    size_t n)
{
	struct gdr_gproxy *g = calloc(1, sizeof(*g));
	void *qs = NULL;
	int bad;

	*out = NULL;
	if (!g) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	if (sync_init(g) || gdr_gpukern_use(&g->k, &gp_image, m, timeout_ns, why, n)) {
		if (g->sync_init) {
			pthread_cond_destroy(&g->cv);
			pthread_mutex_destroy(&g->lock);
		} else {
			snprintf(why, n, "cannot set up the proxy threads' condition variable");
		}
		free(g);
		return -1;
	}
	*out = g;
	bad = gdr_gpukern_mapped(&g->k, sizeof(struct gdr_gp_queue) * GDR_GP_MAX_Q, "queues", &qs,
				 &g->qs_d, why, n);
	g->qs = qs; /* freed by close, mapped or not */
	if (bad || gdr_gpukern_load(&g->k, &g->mod, &g->fn, why, n))
		return -1;
	nic_order(g);
	if (gdr_gpukern_stream(&g->k, why, n))
		return -1;
	return probe(g, why, n);
}

static int check_params(const struct gdr_gp_params *p)
{
	if (p->mode == GDR_GP_PING &&
	    (p->queues != 1 || p->batch != 1 || !p->rx || !p->tx || p->rx == p->tx)) {
		gdr_err(
		    "gpu-proxy: ping-pong: %u queues, batch %u (1 and 1), the slots' last bytes "
		    "%#llx and %#llx (two, not 0): not a run the kernel takes",
		    p->queues, p->batch, (unsigned long long)p->rx, (unsigned long long)p->tx);
		return -1;
	}
	if (p->mode > GDR_GP_PING || !p->queues || p->queues > GDR_GP_MAX_Q || !p->n || !p->slots ||
	    p->slots > GDR_GP_MAX_SLOTS || !p->window || p->window > GDR_GP_RING || !p->batch ||
	    p->batch > p->window || (p->mode == GDR_GP_LAT && (p->window != 1 || p->batch != 1))) {
		gdr_err(
		    "gpu-proxy: %u queues (1..%d), %u descriptors, window %u (1..%d), batch %u "
		    "(1..window; latency: 1 and 1), %u slots (1..%d): not a run the kernel takes",
		    p->queues, GDR_GP_MAX_Q, p->n, p->window, GDR_GP_RING, p->batch, p->slots,
		    GDR_GP_MAX_SLOTS);
		return -1;
	}
	return 0;
}

/* Room for the latency arrays and the kernel's samples of n descriptors. */
static int lat_room(struct gdr_gproxy *g, const struct gdr_gp_params *p)
{
	size_t need = (size_t)p->n * p->queues * sizeof(uint64_t);
	CUresult r;

	if (p->mode == GDR_GP_RATE)
		return 0;
	if (need > g->samples_len) {
		if (g->samples_d)
			g->k.cu->cuMemFree(g->samples_d);
		g->samples_len = 0;
		r = g->k.cu->cuMemAlloc(&g->samples_d, need);
		if (r != CUDA_SUCCESS) {
			g->samples_d = 0;
			gdr_err("gpu-proxy: %zu bytes for the kernel's samples (cuMemAlloc): %s",
				need, gdr_cuda_strerror(r));
			return -1;
		}
		g->samples_len = need;
	}
	if (p->n > g->lat_cap) {
		uint64_t *a = realloc(g->gpu, p->n * sizeof(uint64_t)),
			 *b = a ? realloc(g->host, p->n * sizeof(uint64_t)) : NULL;

		if (a)
			g->gpu = a;
		if (!b) {
			gdr_err("gpu-proxy: out of memory for %u samples", p->n);
			return -1;
		}
		g->host = b;
		g->lat_cap = p->n;
	}
	return 0;
}

/*
 * The kernel's end on each queue: every descriptor done, or why not (printed
 * once: a queue that timed out, the cause, before one told to stop after it).
 */
static int statuses(struct gdr_gproxy *g, const struct gdr_gp_params *p, bool stopped_ok)
{
	unsigned int bad = GDR_GP_MAX_Q;

	for (unsigned int k = 0; k < p->queues; k++) {
		uint64_t st = __atomic_load_n(&g->qs[k].status, __ATOMIC_ACQUIRE);

		if (stopped_ok && st == GDR_GP_STOPPED)
			continue;
		if (st != GDR_GP_DONE &&
		    (bad == GDR_GP_MAX_Q || st == GDR_GP_TIMEOUT || st == GDR_GP_NOPEER))
			bad = k;
		if (st == GDR_GP_TIMEOUT || st == GDR_GP_NOPEER)
			break;
	}
	if (bad == GDR_GP_MAX_Q)
		return 0;
	if (g->qs[bad].status == GDR_GP_NOPEER)
		gdr_err(
		    "gpu-proxy: queue %u: the kernel waited %.3f s for the peer's message %llu: "
		    "the peer (its kernel, its proxy or the NIC) stopped",
		    bad, (double)g->k.wait_ns * 1e-9, (unsigned long long)g->qs[bad].at);
	else if (g->qs[bad].status == GDR_GP_TIMEOUT)
		gdr_err("gpu-proxy: queue %u: the kernel waited %.3f s for descriptor %llu's "
			"completion: the proxy (or the NIC behind it) stopped completing",
			bad, (double)g->k.wait_ns * 1e-9, (unsigned long long)g->qs[bad].at);
	else
		gdr_err("gpu-proxy: queue %u: the kernel ended at descriptor %llu without "
			"finishing (status %llu)",
			bad, (unsigned long long)g->qs[bad].at,
			(unsigned long long)g->qs[bad].status);
	return -1;
}

/* Launch the kernel for run p: a block of one thread per queue. 0, or -1 with why. */
static int launch(struct gdr_gproxy *g, const struct gdr_gp_params *p, char *why, size_t n)
{
	unsigned int mode = p->mode, cnt = p->n, window = p->window, batch = p->batch,
		     slots = p->slots, len = p->len;
	uint64_t timeout = g->k.wait_ns;
	void *args[] = {&g->qs_d, &g->samples_d, &mode, &cnt,	 &window,
			&batch,	  &slots,	 &len,	&timeout};

	return gdr_gpukern_launch(&g->k, g->fn, p->queues, 1, args, why, n);
}

/*
 * Open's proof that the kernel runs here: one descriptor, completed inline,
 * and the kernel's end, each wait bounded. 0, or -1 with the reason in why.
 */
static int probe(struct gdr_gproxy *g, char *why, size_t n)
{
	const struct gdr_gp_params p = {
	    .mode = GDR_GP_RATE, .queues = 1, .n = 1, .window = 1, .batch = 1, .slots = 1};
	struct gdr_gp_queue *q = &g->qs[0];
	uint64_t t0 = gdr_now_ns();
	char state[160];
	CUresult r;

	memset(g->qs, 0, sizeof(struct gdr_gp_queue) * GDR_GP_MAX_Q);
	if (launch(g, &p, why, n))
		return -1;
	while (__atomic_load_n(&q->desc[1].seq, __ATOMIC_ACQUIRE) != 1) {
		if (gdr_now_ns() - t0 > g->k.wait_ns) {
			gdr_gpukern_state(&g->k, state, sizeof(state));
			snprintf(why, n, "the kernel wrote no descriptor within %.3f s (%s)",
				 (double)g->k.wait_ns * 1e-9, state);
			__atomic_store_n(&q->stop, 1, __ATOMIC_RELEASE);
			return -1;
		}
		gdr_gpukern_nap();
	}
	__atomic_store_n(&q->done, 1, __ATOMIC_RELEASE);
	while ((r = g->k.cu->cuStreamQuery(g->k.stream)) == CUDA_ERROR_NOT_READY &&
	       gdr_now_ns() - t0 < g->k.wait_ns)
		gdr_gpukern_nap();
	if (r != CUDA_SUCCESS || __atomic_load_n(&q->status, __ATOMIC_ACQUIRE) != GDR_GP_DONE) {
		if (r != CUDA_ERROR_NOT_READY)
			g->k.running = false;
		snprintf(why, n, "the kernel did not end after its one descriptor (%s)",
			 r == CUDA_ERROR_NOT_READY ? "still running" : gdr_cuda_strerror(r));
		return -1;
	}
	g->k.running = false;
	return 0;
}

static void results(struct gdr_gproxy *g, const struct gdr_gp_params *p, struct thr *t,
		    struct gdr_gp_result *r, bool by_backend)
{
	uint64_t g0 = UINT64_MAX, g1 = 0, h0 = UINT64_MAX, h1 = 0;

	for (unsigned int k = 0; k < p->queues; k++)
		r->torn += t[k].torn;
	if (by_backend) /* stopped: the kernel wrote no times, the backend counts */
		return;

	for (unsigned int k = 0; k < p->queues; k++) {
		g0 = g->qs[k].t0 < g0 ? g->qs[k].t0 : g0;
		g1 = g->qs[k].t1 > g1 ? g->qs[k].t1 : g1;
		h0 = t[k].t_first < h0 ? t[k].t_first : h0;
		h1 = t[k].t_last > h1 ? t[k].t_last : h1;
	}
	r->n = (uint64_t)p->n * p->queues;
	r->gpu_ns = g1 - g0;
	r->host_ns = h1 - h0;
	if (p->mode != GDR_GP_RATE) {
		for (unsigned int i = 1; i < p->n; i++)
			g->host[i - 1] = t[0].arrivals[i] - t[0].arrivals[i - 1];
		r->gpu = g->gpu + 1;
		r->host = g->host;
		r->nlat = p->n - 1;
	}
}

/*
 * A proxy thread that stays inside one backend call (a post or a poll that
 * does not return) longer than the timeout has stopped: said once, and the
 * thread is left behind (never joined, its memory never freed). The
 * kernel's own bounded wait has ended, or stop ends it.
 */
static bool left_behind(struct gdr_gproxy *g, struct thr *t, uint64_t now)
{
	uint64_t c = __atomic_load_n(&t->calls, __ATOMIC_RELAXED);
	int what = __atomic_load_n(&t->call, __ATOMIC_ACQUIRE);

	if (!what || c != t->seen_calls) {
		t->seen_calls = c;
		t->seen_ns = now;
		return false;
	}
	if (now - t->seen_ns <= g->k.wait_ns)
		return false;
	if (!g->stuck) /* the first: others may wait on what it holds (a backend's lock) */
		gdr_err("gpu-proxy: queue %u: the proxy thread stopped: its %s (descriptor %llu) "
			"has not returned for %.3f s",
			t->q, what == 1 ? "post" : "completion poll",
			(unsigned long long)__atomic_load_n(&t->call_seq, __ATOMIC_RELAXED),
			(double)(now - t->seen_ns) * 1e-9);
	g->stuck++;
	return true;
}

/*
 * Wait for the first `started` proxy threads, bounded (left_behind), calling
 * be->tick on the way, and join those that ended. 0; -1 (printed) when a
 * tick failed; -2 (printed) when a thread was left behind.
 */
static int wait_threads(struct gdr_gproxy *g, unsigned int started, const struct gdr_gp_backend *be)
{
	unsigned int k, running;
	bool failed = false;
	struct timespec ts;
	int rc = 0;

	for (k = 0; k < started; k++)
		g->thr[k].seen_calls = UINT64_MAX;
	pthread_mutex_lock(&g->lock);
	do {
		uint64_t now = gdr_now_ns();

		for (running = 0, k = 0; k < started; k++) {
			if (g->thr[k].finished || g->thr[k].left)
				continue;
			if (left_behind(g, &g->thr[k], now)) {
				g->thr[k].left = true;
				__atomic_store_n(&g->abort, 1, __ATOMIC_RELAXED);
				rc = -2;
				continue;
			}
			running++;
		}
		if (running && be && be->tick && !failed) {
			pthread_mutex_unlock(&g->lock); /* a tick may wait on the backend's lock */
			if (be->tick(be->ctx)) {
				failed = true;
				__atomic_store_n(&g->abort, 1, __ATOMIC_RELAXED);
				rc = rc ? rc : -1;
			}
			pthread_mutex_lock(&g->lock);
		}
		if (running) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_nsec += 10000000; /* 10 ms */
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&g->cv, &g->lock, &ts);
		}
	} while (running);
	pthread_mutex_unlock(&g->lock);
	for (k = 0; k < started; k++)
		if (!g->thr[k].left)
			pthread_join(g->thr[k].tid, NULL);
	return rc;
}

int gdr_gproxy_run(struct gdr_gproxy *g, const struct gdr_gp_params *p,
		   const struct gdr_gp_backend *be, struct gdr_gp_result *r)
{
	struct thr *t = g->thr;
	unsigned int started = 0, k;
	uint64_t *arrivals = NULL;
	bool by_backend;
	int rc = 0, w;
	char why[256];
	CUresult cr;

	memset(r, 0, sizeof(*r));
	if (g->stuck && rejoin(g)) {
		gdr_err("gpu-proxy: %u proxy threads of an earlier run are stuck: no new run",
			g->stuck);
		return -1;
	}
	memset(t, 0, sizeof(g->thr));
	if (check_params(p) || g->k.cu->cuCtxSetCurrent(g->k.ctx) != CUDA_SUCCESS || lat_room(g, p))
		return -1;
	if (p->mode != GDR_GP_RATE && !(arrivals = calloc(p->n, sizeof(uint64_t)))) {
		gdr_err("gpu-proxy: out of memory for %u samples", p->n);
		return -1;
	}
	memset(g->qs, 0, sizeof(struct gdr_gp_queue) * GDR_GP_MAX_Q);
	if (p->mode == GDR_GP_PING) {
		g->qs[0].rx = p->rx;
		g->qs[0].tx = p->tx;
		g->qs[0].first = p->first;
	}
	g->abort = 0;
	for (k = 0; k < p->queues; k++) {
		t[k] = (struct thr){.g = g, .be = be, .q = k, .n = p->n};
		t[k].ping = p->mode == GDR_GP_PING;
		t[k].arrivals = k == 0 ? arrivals : NULL;
		if (pthread_create(&t[k].tid, NULL, serve, &t[k])) {
			gdr_err("gpu-proxy: cannot start proxy thread %u", k);
			__atomic_store_n(&g->abort, 1, __ATOMIC_RELAXED);
			rc = -1;
			break;
		}
		started++;
	}
	if (!rc && launch(g, p, why, sizeof(why))) {
		gdr_err("gpu-proxy: %s", why);
		__atomic_store_n(&g->abort, 1, __ATOMIC_RELAXED);
		rc = -1;
	}
	w = wait_threads(g, started, rc ? NULL : be);
	if (w == -2)
		arrivals = NULL; /* a stuck thread may still write there */
	if (w)
		rc = -1;
	for (k = 0; k < started; k++)
		if (__atomic_load_n(&t[k].finished, __ATOMIC_ACQUIRE) &&
		    (t[k].err == -1 || (t[k].err && !rc)))
			rc = t[k].err;
	/* every queue ended by the backend (-D): the kernel is stopped, as it was meant to be */
	for (k = 0, by_backend = started > 0; k < started; k++)
		by_backend &= t[k].ended;
	/* a proxy that failed: the kernel is told to stop (it would wait out its timeout) */
	if (stop_kernel(g, rc != 0 || by_backend))
		rc = -1;
	/* how the kernel ended, unless a proxy or the launch said why already */
	if (rc != -1 && statuses(g, p, by_backend))
		rc = -1;
	if (rc)
		rc = -1;
	if (!rc && p->mode != GDR_GP_RATE) {
		cr = g->k.cu->cuMemcpyDtoH(g->gpu, g->samples_d, p->n * sizeof(uint64_t));
		if (cr != CUDA_SUCCESS) {
			gdr_err("gpu-proxy: reading the kernel's samples (cuMemcpyDtoH): %s",
				gdr_cuda_strerror(cr));
			rc = -1;
		}
	}
	if (!rc)
		results(g, p, t, r, by_backend);
	free(arrivals);
	return rc;
}

/* Threads left behind that have since returned are joined: 0 when none is left. */
static int rejoin(struct gdr_gproxy *g)
{
	for (unsigned int k = 0; k < GDR_GP_MAX_Q; k++) {
		struct thr *t = &g->thr[k];

		if (t->left && __atomic_load_n(&t->finished, __ATOMIC_ACQUIRE)) {
			pthread_join(t->tid, NULL);
			t->left = false;
			g->stuck--;
		}
	}
	return g->stuck ? -1 : 0;
}

bool gdr_gproxy_stuck(const struct gdr_gproxy *g)
{
	return g && g->stuck;
}

#define RATE_N 5000 /* descriptors per queue of the kernel's own rate */

double gdr_gproxy_kernel_rate(struct gdr_gproxy *g, unsigned int queues, unsigned int window)
{
	struct gdr_gp_params p = {.mode = GDR_GP_RATE,
				  .queues = queues,
				  .n = RATE_N,
				  .window = window,
				  .batch = 1,
				  .slots = 1};
	struct gdr_gp_result r;

	if (g->rate_q == queues && g->rate_w == window)
		return g->rate;
	g->rate_q = queues;
	g->rate_w = window;
	g->rate =
	    !gdr_gproxy_run(g, &p, NULL, &r) && r.gpu_ns ? (double)r.n * 1e9 / (double)r.gpu_ns : 0;
	return g->rate;
}

void gdr_gproxy_close(struct gdr_gproxy *g)
{
	if (!g)
		return;
	if (g->stuck && rejoin(g))
		return; /* a proxy thread still in its backend uses all of it */
	if (g->sync_init) {
		pthread_cond_destroy(&g->cv);
		pthread_mutex_destroy(&g->lock);
	}
	if (g->k.cu->cuCtxSetCurrent(g->k.ctx) == CUDA_SUCCESS && !stop_kernel(g, true)) {
		if (g->k.stream)
			g->k.cu->cuStreamDestroy(g->k.stream);
		if (g->mod)
			g->k.cu->cuModuleUnload(g->mod);
		if (g->samples_d)
			g->k.cu->cuMemFree(g->samples_d);
		if (g->qs)
			g->k.cu->cuMemFreeHost(g->qs);
	}
	free(g->gpu);
	free(g->host);
	free(g);
}

#else /* !HAVE_CUDA */

int gdr_gproxy_nic_order(const struct gdr_gproxy *g)
{
	(void)g;
	return 0;
}

bool gdr_gproxy_stuck(const struct gdr_gproxy *g)
{
	(void)g;
	return false;
}

double gdr_gproxy_kernel_rate(struct gdr_gproxy *g, unsigned int queues, unsigned int window)
{
	(void)g;
	(void)queues;
	(void)window;
	return 0;
}

int gdr_gproxy_open(struct gdr_gproxy **out, struct gdr_mem *m, uint64_t timeout_ns, char *why,
		    size_t n)
{
	(void)m;
	(void)timeout_ns;
	*out = NULL;
	snprintf(why, n, "gdrperf was built without CUDA");
	return -1;
}

int gdr_gproxy_run(struct gdr_gproxy *g, const struct gdr_gp_params *p,
		   const struct gdr_gp_backend *be, struct gdr_gp_result *r)
{
	(void)g;
	(void)p;
	(void)be;
	(void)r;
	return -1;
}

void gdr_gproxy_close(struct gdr_gproxy *g)
{
	(void)g;
}

#endif /* HAVE_CUDA */
