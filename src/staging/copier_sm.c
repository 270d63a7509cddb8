/* SPDX-License-Identifier: MIT */
/* The sm copier: the host side of the doorbell protocol of sm_proto.h (copier_sm.h). */
#include "config.h"
#include "copier_sm.h"

#include <stdio.h>

#ifdef HAVE_CUDA

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "cuda_api.h"
#include "gpukern.h"
#include "log.h"
#include "sm_proto.h"

#define DEFAULT_PARTS	4
#define STREAM_CHECK_NS 1000000ULL /* a late copy: is the kernel still running? */
#define CLOCK_EVERY	256	   /* unanswered polls of a copy per clock read */
#define MAX_CONTEXTS	8

extern const char gdr_sm_copy_ptx[]; /* sm_copy.ptx, embedded by the build */

/* The kernel, for its host side (gpukern.h). */
static const struct gdr_gpukern_image sm_image = {
    .who = "sm copier",
    .entry = GDR_SM_KERNEL,
    .ptx = gdr_sm_copy_ptx,
    .env = "GDR_SM_PTX", /* kernel development: a variant measured without rebuilding */
    .isa = GDR_SM_PTX_ISA,
    .target = GDR_SM_PTX_TARGET,
    .driver = GDR_SM_PTX_DRIVER,
    .mute = "does not answer",
    .keeps = "stream and doorbells",
};

_Static_assert(sizeof(struct gdr_sm_slot) == 64, "a doorbell slot is one 64-byte line");
_Static_assert(2 * GDR_COPIER_LANES <= GDR_SM_MAX_SLOTS, "a slot per lane and direction");
_Static_assert(GDR_SM_LIST_MAX == GDR_COPIER_SM_LIST_MAX, "options/copier_names.h says the same");

/*
 * The kernel's module, once per GPU for the life of the process: loaded at
 * the first sm copier on that GPU's primary context and never unloaded, so
 * a --persistent server loads it once, not per client, run or size. The
 * entry holds its own reference to the primary context: a context whose
 * last reference goes (each run releases its own at the end) is destroyed
 * with its modules, and the next run's context would be another.
 */
static struct sm_module {
	CUcontext ctx;
	CUmodule mod;
	CUfunction fn;
} mods[MAX_CONTEXTS];
static pthread_mutex_t mods_mu = PTHREAD_MUTEX_INITIALIZER;

struct sm {
	struct gdr_gpukern k; /* context, stream, wait, running (gpukern.h) */
	struct sm_module *mod;
	struct gdr_sm_bell *bell;	     /* host view of the doorbell page */
	CUdeviceptr bell_d, host_d, relay_d; /* relay_d: the kernel's relay slots (device) */
	CUdeviceptr dev_d;		     /* the test memory: slots carry offsets from it */
	unsigned int parts, blocks;
	uint64_t wait_ns;
	uint32_t seq[GDR_SM_MAX_SLOTS], len[GDR_SM_MAX_SLOTS];
	bool list[GDR_SM_MAX_SLOTS];	  /* the slot's copy is a block list: every part's */
	uint64_t t_sub[GDR_SM_MAX_SLOTS]; /* the copy's first clock read (0: none yet) */
	uint32_t polls[GDR_SM_MAX_SLOTS]; /* unanswered polls of the copy */
	uint64_t sub[2], done[2], t_check;
};

/* k's module (its context current: the caller's), loaded at its first use; NULL with why. */
static struct sm_module *module_get(const struct gdr_gpukern *k, char *why, size_t n)
{
	const struct gdr_cuda_api *cu = k->cu;
	struct sm_module *m = NULL, *hole = NULL;
	CUcontext held = NULL;
	CUdevice dev;
	CUresult r;
	int i;

	pthread_mutex_lock(&mods_mu);
	for (i = 0; i < MAX_CONTEXTS && !m; i++) {
		if (mods[i].ctx == k->ctx)
			m = &mods[i];
		else if (!mods[i].ctx && !hole)
			hole = &mods[i];
	}
	if (m || !hole) {
		if (!m)
			snprintf(why, n, "more than %d GPUs in one process", MAX_CONTEXTS);
		pthread_mutex_unlock(&mods_mu);
		return m;
	}
	/* The process's own reference to this GPU's primary context (k->ctx itself). */
	if ((r = cu->cuCtxGetDevice(&dev)) || (r = cu->cuDevicePrimaryCtxRetain(&held, dev))) {
		gdr_gpukern_fail(why, n, "cannot hold the GPU's context for the kernel's module",
				 r);
		held = NULL;
	} else if (held != k->ctx) {
		snprintf(why, n, "the test memory's context is not its GPU's primary context");
		cu->cuDevicePrimaryCtxRelease(dev);
		held = NULL;
	}
	if (held && !gdr_gpukern_load(k, &hole->mod, &hole->fn, why, n)) {
		hole->ctx = k->ctx;
		m = hole;
	}
	if (held && !m)
		cu->cuDevicePrimaryCtxRelease(dev);
	pthread_mutex_unlock(&mods_mu);
	return m;
}

static unsigned int parts_wanted(char *why, size_t n)
{
	const char *e = getenv("GDR_SM_BLOCKS");
	char *end = NULL;
	long v;

	if (!e || !*e)
		return DEFAULT_PARTS;
	v = strtol(e, &end, 10);
	if (*end || v < 1 || v > GDR_SM_MAX_PARTS) {
		snprintf(why, n, "GDR_SM_BLOCKS=%s: expected 1..%d blocks per lane", e,
			 GDR_SM_MAX_PARTS);
		return 0;
	}
	return (unsigned int)v;
}

/* The doorbell of slot k (sm_proto.h): its fields, then seq, one greater than before. */
static void ring(struct sm *s, unsigned int k, uint32_t dev_off, uint32_t host_off, uint32_t len,
		 uint32_t dir)
{
	struct gdr_sm_slot *sl = &s->bell->slot[k];

	sl->dev_off = dev_off;
	sl->host_off = host_off;
	sl->len_dir = len | dir << 30;
	__atomic_store_n(&sl->seq, ++s->seq[k], __ATOMIC_RELEASE);
}

/* The kernel's stop: rung on every lane's slot. */
static void ring_stop(void *arg)
{
	struct sm *s = arg;

	for (unsigned int k = 0; k < s->blocks / s->parts; k++)
		ring(s, k, 0, 0, 0, GDR_SM_DIR_STOP);
}

/*
 * Ring stop and wait (bounded) for the kernel to end. 0 when it ended (its
 * memory may go), -1 when it did not (printed once).
 */
static int stop_kernel(struct sm *s)
{
	CUresult how;

	return gdr_gpukern_stop(&s->k, ring_stop, s, &how);
}

static void teardown(struct sm *s)
{
	if (s->k.cu->cuCtxSetCurrent(s->k.ctx) == CUDA_SUCCESS && !stop_kernel(s)) {
		if (s->k.stream)
			s->k.cu->cuStreamDestroy(s->k.stream);
		if (s->bell)
			s->k.cu->cuMemFreeHost(s->bell);
		if (s->relay_d)
			s->k.cu->cuMemFree(s->relay_d);
	}
	free(s);
}

/* Every block polls its slot: launch proven, or the reason it is not. */
static int wait_ready(struct sm *s, char *why, size_t n)
{
	uint64_t t0 = gdr_now_ns();
	unsigned int up = 0, b;
	char state[160];

	for (;;) {
		for (up = 0, b = 0; b < s->blocks; b++)
			up += __atomic_load_n(&s->bell->ready[b], __ATOMIC_ACQUIRE) != 0;
		if (up == s->blocks)
			return 0;
		if (gdr_now_ns() - t0 > s->k.wait_ns)
			break;
		gdr_gpukern_nap();
	}
	gdr_gpukern_state(&s->k, state, sizeof(state));
	snprintf(why, n, "the kernel did not start: %u of %u blocks running after %.3f s (%s)", up,
		 s->blocks, (double)s->k.wait_ns * 1e-9, state);
	return -1;
}

/*
 * Start the kernel on a clean doorbell page (every seq, ack and ready zero,
 * the relay slots zero), as at open: a parked copier restarts this way.
 */
static int start(struct sm *s, char *why, size_t n)
{
	void *args[] = {&s->bell_d, &s->relay_d, &s->parts, &s->dev_d, &s->host_d};
	CUresult r;

	memset(s->bell, 0, sizeof(*s->bell));
	memset(s->seq, 0, sizeof(s->seq));
	r = s->k.cu->cuMemsetD8(s->relay_d, 0, sizeof(struct gdr_sm_slot) * GDR_SM_MAX_SLOTS);
	if (r != CUDA_SUCCESS)
		return gdr_gpukern_fail(why, n, "cuMemsetD8 (the kernel's relay slots)", r);
	if (gdr_gpukern_launch(&s->k, s->mod->fn, s->blocks, GDR_SM_THREADS, args, why, n))
		return -1;
	return wait_ready(s, why, n);
}

static int setup(struct gdr_copier *cp, struct sm *s, char *why, size_t n)
{
	const struct gdr_cuda_api *cu = s->k.cu;
	void *bell = NULL;
	CUresult r;
	int bad;

	s->parts = parts_wanted(why, n);
	if (!s->parts)
		return -1;
	if (!cp->lanes || 2 * cp->lanes > GDR_SM_MAX_SLOTS) {
		snprintf(why, n, "%u lanes per direction: the kernel serves 1..%d", cp->lanes,
			 GDR_SM_MAX_SLOTS / 2);
		return -1;
	}
	s->blocks = 2 * cp->lanes * s->parts;
	if (cp->data->len > (size_t)UINT32_MAX + 1 || cp->host_len > (size_t)UINT32_MAX + 1) {
		snprintf(why, n,
			 "%zu bytes of test memory and %zu of bounce memory: the kernel addresses "
			 "at most 4 GiB of each (32-bit offsets in its doorbell)",
			 cp->data->len, cp->host_len);
		return -1;
	}
	s->dev_d = (CUdeviceptr)(uintptr_t)cp->data->addr;
	r = cu->cuMemHostGetDevicePointer(&s->host_d, cp->host, 0);
	if (r != CUDA_SUCCESS)
		return gdr_gpukern_fail(why, n,
					"the bounce memory is not mapped for the GPU "
					"(cuMemHostGetDevicePointer)",
					r);
	bad = gdr_gpukern_mapped(&s->k, sizeof(*s->bell), "doorbells", &bell, &s->bell_d, why, n);
	s->bell = bell; /* freed by teardown, mapped or not */
	if (bad)
		return -1;
	memset(bell, 0, sizeof(*s->bell));
	r = cu->cuMemAlloc(&s->relay_d, sizeof(struct gdr_sm_slot) * GDR_SM_MAX_SLOTS);
	if (r != CUDA_SUCCESS) {
		s->relay_d = 0;
		return gdr_gpukern_fail(why, n, "cuMemAlloc (the kernel's relay slots)", r);
	}
	s->mod = module_get(&s->k, why, n);
	if (!s->mod || gdr_gpukern_stream(&s->k, why, n))
		return -1;
	return start(s, why, n);
}

static int sm_open(struct gdr_copier *cp, char *why, size_t n)
{
	struct sm *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	if (gdr_gpukern_use(&s->k, &sm_image, cp->data, cp->timeout_ns, why, n)) {
		free(s);
		return -1;
	}
	if (setup(cp, s, why, n)) {
		teardown(s);
		return -1;
	}
	cp->priv = s;
	return 0;
}

/* The slot of direction d's lane for its k-th copy. */
static unsigned int slot_of(const struct gdr_copier *cp, enum gdr_copy_dir d, uint64_t k)
{
	return (unsigned int)d * cp->lanes + (unsigned int)(k % cp->lanes);
}

static int sm_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host, size_t len)
{
	struct sm *s = cp->priv;
	unsigned int k;
	uint8_t *h = host;

	if (s->sub[d] - s->done[d] >= cp->lanes) {
		gdr_err("sm copier: a copy submitted with every lane busy (%u)", cp->lanes);
		return -1;
	}
	if (off > cp->data->len || len > cp->data->len - off || h < cp->host ||
	    (size_t)(h - cp->host) > cp->host_len || len > cp->host_len - (size_t)(h - cp->host) ||
	    len > GDR_SM_LEN_MAX) {
		gdr_err("sm copier: copy of %zu bytes at offset %zu outside the test or bounce "
			"memory",
			len, off);
		return -1;
	}
	k = slot_of(cp, d, s->sub[d]);
	s->len[k] = (uint32_t)len;
	s->list[k] = false;
	s->t_sub[k] = 0;
	s->polls[k] = 0;
	ring(s, k, (uint32_t)off, (uint32_t)(h - cp->host), (uint32_t)len, (uint32_t)d);
	s->sub[d]++;
	return 0;
}

/*
 * A block list (sm_proto.h): the slot's table, then the doorbell with n | d
 * << 31 for dev_off; one lane entry, acknowledged by every part.
 */
static int sm_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			  uint32_t n, size_t blk, void *host)
{
	struct sm *s = cp->priv;
	uint8_t *h = host;
	unsigned int k;

	if (s->sub[d] - s->done[d] >= cp->lanes) {
		gdr_err("sm copier: a list submitted with every lane busy (%u)", cp->lanes);
		return -1;
	}
	if (!n || n > GDR_SM_LIST_MAX) {
		gdr_err("sm copier: a list of %u blocks: the kernel takes 1..%d a list", n,
			GDR_SM_LIST_MAX);
		return -1;
	}
	if (!blk || blk > GDR_SM_LEN_MAX || h < cp->host || (size_t)(h - cp->host) > cp->host_len ||
	    (cp->host_len - (size_t)(h - cp->host)) / blk < n) {
		gdr_err("sm copier: a list of %u blocks of %zu bytes outside the bounce memory", n,
			blk);
		return -1;
	}
	k = slot_of(cp, d, s->sub[d]);
	/* the slot's previous copy is reaped: every part read its table before acknowledging */
	for (uint32_t i = 0; i < n; i++) {
		if (off[i] > cp->data->len || blk > cp->data->len - off[i]) {
			gdr_err("sm copier: block %u of a list at offset %llu (%zu bytes) outside "
				"the test memory",
				i, (unsigned long long)off[i], blk);
			return -1;
		}
		s->bell->list[k][i] = (uint32_t)off[i];
	}
	s->len[k] = (uint32_t)blk;
	s->list[k] = true;
	s->t_sub[k] = 0;
	s->polls[k] = 0;
	/* ring's release store of seq publishes the table with the fields */
	ring(s, k, n | (uint32_t)d << 31, (uint32_t)(h - cp->host), (uint32_t)blk, GDR_SM_DIR_LIST);
	s->sub[d]++;
	return 0;
}

static bool slot_done(const struct sm *s, unsigned int k)
{
	unsigned int parts = s->len[k] < GDR_SM_SPLIT && !s->list[k] ? 1 : s->parts;

	for (unsigned int p = 0; p < parts; p++)
		if (__atomic_load_n(&s->bell->ack[k][p], __ATOMIC_ACQUIRE) != s->seq[k])
			return false;
	return true;
}

/*
 * The oldest copy is not acknowledged yet: fail when the kernel failed or
 * time is up (reported once). The clock is read once per CLOCK_EVERY polls,
 * never on a copy's way in: a copy is timed from its first read, a few
 * microseconds after the doorbell, and a copy that is on time reads it
 * seldom or never (each read in the loop the host waits in delays the
 * acknowledgement's notice).
 */
static int late(struct gdr_copier *cp, struct sm *s, unsigned int k)
{
	uint64_t now;
	char state[160];
	CUresult r;

	if (++s->polls[k] % CLOCK_EVERY)
		return 0;
	now = gdr_now_ns();
	if (!s->t_sub[k]) {
		s->t_sub[k] = now;
		return 0;
	}
	if (now - s->t_sub[k] <= s->k.wait_ns) {
		/* A healthy copy is never slowed by a driver call; a late one is checked each ms.
		 */
		if (now - s->t_sub[k] < STREAM_CHECK_NS || now - s->t_check < STREAM_CHECK_NS)
			return 0;
		s->t_check = now;
		r = s->k.cu->cuStreamQuery(s->k.stream);
		if (r == CUDA_ERROR_NOT_READY || slot_done(s, k))
			return 0;
	}
	if (slot_done(s, k))
		return 0;
	gdr_gpukern_state(&s->k, state, sizeof(state));
	gdr_err("sm copier: a %s copy on lane %u not acknowledged after %.3f s: %s",
		k < cp->lanes ? "device-to-host" : "host-to-device", k % cp->lanes,
		(double)(now - s->t_sub[k]) * 1e-9, state);
	return -1;
}

static int sm_reap(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	struct sm *s = cp->priv;
	int n = 0;

	while (s->done[d] < s->sub[d]) {
		unsigned int k = slot_of(cp, d, s->done[d]);

		if (!slot_done(s, k)) {
			if (!n && late(cp, s, k))
				return -1;
			break;
		}
		s->done[d]++;
		n++;
	}
	return n;
}

int gdr_copier_sm_stop(struct gdr_copier *cp)
{
	struct sm *s = cp->priv;

	return s ? stop_kernel(s) : 0;
}

/* Park: the kernel ends (no PCIe polling while other paths are timed); resume starts it again. */
static int sm_park(struct gdr_copier *cp)
{
	struct sm *s = cp->priv;

	if (s->k.cu->cuCtxSetCurrent(s->k.ctx) != CUDA_SUCCESS) {
		gdr_err("sm copier: cannot park the kernel: cuCtxSetCurrent failed");
		return -1;
	}
	return stop_kernel(s);
}

static int sm_resume(struct gdr_copier *cp, char *why, size_t n)
{
	struct sm *s = cp->priv;
	CUresult r;

	if (s->k.running)
		return 0;
	r = s->k.cu->cuCtxSetCurrent(s->k.ctx);
	if (r != CUDA_SUCCESS)
		return gdr_gpukern_fail(why, n, "cuCtxSetCurrent", r);
	return start(s, why, n);
}

static void sm_close(struct gdr_copier *cp)
{
	if (cp->priv)
		teardown(cp->priv);
	cp->priv = NULL;
}

#else /* !HAVE_CUDA */

static int sm_open(struct gdr_copier *cp, char *why, size_t n)
{
	(void)cp;
	snprintf(why, n, "gdrperf was built without CUDA");
	return -1;
}

int gdr_copier_sm_stop(struct gdr_copier *cp)
{
	(void)cp;
	return 0;
}

#define sm_submit      NULL
#define sm_submit_list NULL
#define sm_reap	       NULL
#define sm_close       NULL
#define sm_park	       NULL
#define sm_resume      NULL

#endif /* HAVE_CUDA */

const struct gdr_copier_ops gdr_copier_sm_ops = {
    .name = "sm",
    .kind = GDR_COPIER_SM,
    .open = sm_open,
    .submit = sm_submit,
    .submit_list = sm_submit_list,
    .reap = sm_reap,
    .close = sm_close,
    .park = sm_park,
    .resume = sm_resume,
};
