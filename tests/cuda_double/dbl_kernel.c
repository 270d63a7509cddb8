/* SPDX-License-Identifier: MIT */
/*
 * CUDA double: modules and kernel launch, for two kernels only, recognised
 * by name in the PTX image: the sm copier's gdr_sm_copy
 * (src/staging/sm_copy.cu), whose launch runs the doorbell protocol of
 * sm_proto.h on the stream's thread: ready, poll, copy, fence, acknowledge,
 * stop; and the gpu-proxy path's gdr_gp_kernel (dbl_gp.c). This proves the
 * host side of the protocols; only a GPU proves the kernels.
 */
#include "dbl.h"

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gp_proto.h"
#include "sm_proto.h"

#define DBL_MAX_MODULES 16

struct dbl_module {
	int dev;
	int has_sm;  /* the image holds ".entry gdr_sm_copy(" */
	int has_gp;  /* the image holds ".entry gdr_gp_kernel(" */
	int running; /* kernels of it not yet ended */
};

/* The sm kernel's launch; its handle is the module's address plus one (the gp kernel's: two). */
struct dbl_kernel {
	struct gdr_sm_bell *bell;
	unsigned int slots, parts;
	CUdeviceptr dev_base, host_base; /* the slots' offsets are from these */
	struct dbl_module *mod;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct dbl_module *mods[DBL_MAX_MODULES];
static long acked; /* copies acknowledged by all kernels, for GDR_DOUBLE_FAIL=stuck:N */

static int mod_live(const struct dbl_module *m)
{
	int i, found = 0;

	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_MODULES && !found; i++)
		found = m && mods[i] == m;
	pthread_mutex_unlock(&mu);
	return found;
}

/* GDR_DOUBLE_LOADS=FILE: one line per cuModuleLoadData (tests count a process's loads). */
static void count_load(int dev)
{
	const char *path = getenv("GDR_DOUBLE_LOADS");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "cuModuleLoadData pid %ld GPU %d\n", (long)getpid(), dev);
	fclose(f);
}

/*
 * The last reference to dev's primary context went: the context is
 * destroyed and its modules with it, as the real driver does (a module kept
 * past that is a dead handle: cuModuleGetFunction and cuLaunchKernel refuse it).
 */
void dbl_modules_drop(int dev)
{
	pthread_mutex_lock(&mu);
	for (int i = 0; i < DBL_MAX_MODULES; i++)
		if (mods[i] && mods[i]->dev == dev &&
		    !__atomic_load_n(&mods[i]->running, __ATOMIC_ACQUIRE)) {
			free(mods[i]);
			mods[i] = NULL;
		}
	pthread_mutex_unlock(&mu);
}

static CUresult module_load_data(CUmodule *out, const void *image)
{
	struct dbl_ctx *c;
	struct dbl_module *m;
	CUresult r = dbl_enter(&c);
	int i;

	if (r)
		return r;
	if (!out || !image)
		return CUDA_ERROR_INVALID_VALUE;
	/* PTX is text with a .version line; anything else is not an image this double reads. */
	if (!strstr(image, "\n.version ") || !strstr(image, "\n.target "))
		return CUDA_ERROR_INVALID_IMAGE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	count_load(c->dev);
	m->dev = c->dev;
	m->has_sm = strstr(image, ".entry " GDR_SM_KERNEL "(") != NULL;
	m->has_gp = strstr(image, ".entry " GDR_GP_KERNEL "(") != NULL;
	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_MODULES && mods[i]; i++)
		;
	if (i < DBL_MAX_MODULES)
		mods[i] = m;
	pthread_mutex_unlock(&mu);
	if (i == DBL_MAX_MODULES) {
		free(m);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*out = (CUmodule)m;
	return CUDA_SUCCESS;
}

static CUresult module_get_function(CUfunction *fn, CUmodule h, const char *name)
{
	struct dbl_module *m = (struct dbl_module *)h;

	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!fn || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!mod_live(m))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!strcmp(name, GDR_GP_KERNEL) && m->has_gp) {
		*fn = (CUfunction)((char *)m + 2);
		return CUDA_SUCCESS;
	}
	if (strcmp(name, GDR_SM_KERNEL) || !m->has_sm)
		return CUDA_ERROR_NOT_FOUND;
	*fn = (CUfunction)((char *)m + 1);
	return CUDA_SUCCESS;
}

static CUresult module_unload(CUmodule h)
{
	struct dbl_module *m = (struct dbl_module *)h;
	int i, busy = 0;

	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&mu);
	for (i = 0; i < DBL_MAX_MODULES; i++)
		if (m && mods[i] == m) {
			busy = __atomic_load_n(&m->running, __ATOMIC_ACQUIRE);
			if (!busy)
				mods[i] = NULL;
			break;
		}
	pthread_mutex_unlock(&mu);
	if (i == DBL_MAX_MODULES)
		return CUDA_ERROR_INVALID_HANDLE;
	if (busy) {
		/* Unloading code that runs: a bug of the caller, said aloud. */
		fprintf(stderr, "CUDA double: cuModuleUnload while its kernel still runs\n");
		return CUDA_ERROR_INVALID_VALUE;
	}
	free(m);
	return CUDA_SUCCESS;
}

static int stuck_now(void)
{
	return dbl_conf.fail_stuck >= 0 &&
	       __atomic_load_n(&acked, __ATOMIC_RELAXED) >= dbl_conf.fail_stuck;
}

/*
 * One copy of slot k, as the kernel's parts do it: each part copies its
 * share (here: consecutive pieces) and acknowledges it; part 0 first and the
 * rest after the double's delay, so a host that reads after one part's
 * acknowledgement reads a copy not yet complete. A copy shorter than
 * GDR_SM_SPLIT is part 0's alone, as in the kernel.
 */
/*
 * Slot k's block table as the kernel reads it, after the acquire that saw
 * seq; then, consumed, the double spoils it (an offset past any memory):
 * a list rung without its table written again before its seq (stale, or
 * written after the doorbell) copies from an address no memory holds and
 * faults, where a GPU would copy the wrong blocks or fault.
 */
#define DBL_LIST_SPOILT 0xffffff00u

static CUresult one_list(struct dbl_kernel *k, unsigned int slot, uint32_t seq)
{
	struct gdr_sm_slot *s = &k->bell->slot[slot];
	uint32_t n = s->dev_off & ~(1U << 31), dir = s->dev_off >> 31, tab[GDR_SM_LIST_MAX];
	uint64_t blk = s->len_dir & GDR_SM_LEN_MAX;
	uint8_t *host = (uint8_t *)(uintptr_t)(k->host_base + s->host_off);
	unsigned int parts = k->parts, p;

	if (!n || n > GDR_SM_LIST_MAX || !blk) /* the kernel would read past its table */
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	for (uint32_t i = 0; i < n; i++) {
		tab[i] = __atomic_load_n(&k->bell->list[slot][i], __ATOMIC_RELAXED);
		__atomic_store_n(&k->bell->list[slot][i], DBL_LIST_SPOILT, __ATOMIC_RELAXED);
	}
	if (!dbl_host_pinned((uintptr_t)host, n * blk))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	for (uint32_t i = 0; i < n; i++)
		if (!dbl_find((uintptr_t)(k->dev_base + tab[i]), blk))
			return CUDA_ERROR_ILLEGAL_ADDRESS;
	/* part p copies blocks p, p + parts, ... and acknowledges; the rest after the delay */
	for (p = 0; p < parts; p++) {
		if (p == 1 && dbl_conf.delay_us)
			usleep(dbl_conf.delay_us);
		for (uint32_t i = p; i < n; i += parts) {
			uint8_t *dev = (uint8_t *)(uintptr_t)(k->dev_base + tab[i]);

			if (dir == 1)
				memcpy(dev, host + i * blk, blk);
			else
				memcpy(host + i * blk, dev, blk);
		}
		__atomic_thread_fence(__ATOMIC_RELEASE);
		__atomic_store_n(&k->bell->ack[slot][p], seq, __ATOMIC_RELEASE);
	}
	__atomic_add_fetch(&acked, 1, __ATOMIC_RELAXED);
	return CUDA_SUCCESS;
}

static CUresult one_copy(struct dbl_kernel *k, unsigned int slot, uint32_t seq)
{
	struct gdr_sm_slot *s = &k->bell->slot[slot];
	uint64_t len = s->len_dir & GDR_SM_LEN_MAX;
	uint32_t dir = s->len_dir >> 30;
	unsigned int parts = len < GDR_SM_SPLIT ? 1 : k->parts; /* short: part 0's alone */
	uint64_t piece = (len + parts - 1) / parts;
	uint8_t *dev = (uint8_t *)(uintptr_t)(k->dev_base + s->dev_off),
		*host = (uint8_t *)(uintptr_t)(k->host_base + s->host_off);
	unsigned int p;

	/* Out of bounds on either side: the GPU would fault (a sticky error). */
	if (dir > 1 ||
	    (len && (!dbl_find((uintptr_t)dev, len) || !dbl_host_pinned((uintptr_t)host, len))))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	for (p = 0; p < parts; p++) {
		uint64_t off = p * piece < len ? p * piece : len;
		uint64_t n = len - off < piece ? len - off : piece;

		if (p == 1 && dbl_conf.delay_us)
			usleep(dbl_conf.delay_us);
		if (n && dir == 1)
			memcpy(dev + off, host + off, n);
		else if (n)
			memcpy(host + off, dev + off, n);
		/* the kernel's fence.acq_rel (a release of the copy), then the acknowledgement */
		__atomic_thread_fence(__ATOMIC_RELEASE);
		__atomic_store_n(&k->bell->ack[slot][p], seq, __ATOMIC_RELEASE);
	}
	__atomic_add_fetch(&acked, 1, __ATOMIC_RELAXED);
	return CUDA_SUCCESS;
}

/*
 * The kernel, on the stream's thread: until every slot says GDR_SM_DIR_STOP (or,
 * stuck, until the double's longest wait).
 */
static CUresult run_kernel(void *arg)
{
	struct dbl_kernel *k = arg;
	uint32_t last[GDR_SM_MAX_SLOTS] = {0};
	uint64_t t0 = dbl_now_ns();
	bool stopped[GDR_SM_MAX_SLOTS] = {0};
	CUresult r = CUDA_SUCCESS;
	unsigned int b, i, ended = 0, naps = 0;

	dbl_slice_enter(k->mod->dev); /* another process's kernels run: wait for the slice */
	for (b = 0; b < k->slots * k->parts; b++)
		__atomic_store_n(&k->bell->ready[b], 1, __ATOMIC_RELEASE);
	while (!r && ended < k->slots) {
		int idle = 1;

		dbl_slice_tick(k->mod->dev);

		if (stuck_now()) {
			if (dbl_now_ns() - t0 > (uint64_t)DBL_WAIT_S * 1000000000ULL)
				break;
			usleep(1000);
			continue;
		}
		for (i = 0; i < k->slots && !r; i++) {
			uint32_t seq = __atomic_load_n(&k->bell->slot[i].seq, __ATOMIC_ACQUIRE);

			if (seq == last[i] || stopped[i] || stuck_now())
				continue;
			last[i] = seq;
			idle = 0;
			if (k->bell->slot[i].len_dir >> 30 == GDR_SM_DIR_STOP) {
				stopped[i] = true;
				ended++;
			} else if (k->bell->slot[i].len_dir >> 30 == GDR_SM_DIR_LIST) {
				r = one_list(k, i, seq);
			} else {
				r = one_copy(k, i, seq);
			}
		}
		/*
		 * Idle: a few yields, then 20 us sleeps, leaving the CPU to the threads
		 * that spin meanwhile (the host's reap, the peer's poll) on a host of
		 * few CPUs (the 2-CPU VM); a GPU's kernel has its own SMs.
		 */
		if (idle && ++naps > 64)
			usleep(20);
		else if (idle)
			sched_yield();
		else
			naps = 0;
	}
	dbl_slice_leave(k->mod->dev);
	__atomic_sub_fetch(&k->mod->running, 1, __ATOMIC_RELEASE);
	free(k);
	return r;
}

/* The gp kernel on the stream's thread, then its module is free to unload. */
struct gp_run {
	void *k;
	struct dbl_module *mod;
};

static CUresult run_gp(void *arg)
{
	struct gp_run *g = arg;
	CUresult r = dbl_gp_run(g->k);

	__atomic_sub_fetch(&g->mod->running, 1, __ATOMIC_RELEASE);
	free(g);
	return r;
}

static CUresult launch_gp(struct dbl_module *m, unsigned int gx, unsigned int gy, unsigned int gz,
			  unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
			  CUstream s, void **params, void **extra)
{
	struct dbl_op op = {.kind = DBL_OP_KERNEL, .kernel = run_gp};
	struct gp_run *g;
	CUresult r;

	if (!params || extra || gy != 1 || gz != 1 || bx != 1 || by != 1 || bz != 1 || shared)
		return CUDA_ERROR_INVALID_VALUE;
	g = calloc(1, sizeof(*g));
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	g->mod = m;
	g->k = dbl_gp_new(params, gx, m->dev);
	if (!g->k) {
		free(g);
		return CUDA_ERROR_INVALID_VALUE;
	}
	op.arg = g;
	__atomic_add_fetch(&m->running, 1, __ATOMIC_ACQUIRE);
	r = dbl_stream_submit(s, &op);
	if (r) {
		__atomic_sub_fetch(&m->running, 1, __ATOMIC_RELEASE);
		free(g->k);
		free(g);
	}
	return r;
}

static CUresult launch_kernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
			      unsigned int bx, unsigned int by, unsigned int bz,
			      unsigned int shared, CUstream s, void **params, void **extra)
{
	struct dbl_module *m = (struct dbl_module *)((char *)f - 1);
	struct dbl_module *gm = (struct dbl_module *)((char *)f - 2);
	struct dbl_op op = {.kind = DBL_OP_KERNEL, .kernel = run_kernel};
	struct dbl_kernel *k;
	struct dbl_ctx *c;
	CUdeviceptr bell, relay;
	CUresult r = dbl_enter(&c);

	if (r)
		return r;
	if (f && mod_live(gm) && gm->has_gp)
		return dbl_conf.fail_launch
			   ? CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
			   : launch_gp(gm, gx, gy, gz, bx, by, bz, shared, s, params, extra);
	if (!f || !mod_live(m) || !m->has_sm)
		return CUDA_ERROR_INVALID_HANDLE;
	if (dbl_conf.fail_launch)
		return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	if (!params || extra || !params[0] || !params[1] || !params[2] || !params[3] ||
	    !params[4] || gy != 1 || gz != 1 || bx != GDR_SM_THREADS || by != 1 || bz != 1 ||
	    shared)
		return CUDA_ERROR_INVALID_VALUE;
	k = calloc(1, sizeof(*k));
	if (!k)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(&bell, params[0], sizeof(bell));
	memcpy(&relay, params[1], sizeof(relay));
	memcpy(&k->parts, params[2], sizeof(k->parts));
	memcpy(&k->dev_base, params[3], sizeof(k->dev_base));
	memcpy(&k->host_base, params[4], sizeof(k->host_base));
	k->bell = (struct gdr_sm_bell *)(uintptr_t)bell;
	k->mod = m;
	if (!k->parts || k->parts > GDR_SM_MAX_PARTS || gx % k->parts ||
	    gx / k->parts > GDR_SM_MAX_SLOTS ||
	    !dbl_host_pinned((uintptr_t)bell, sizeof(struct gdr_sm_bell)) ||
	    !dbl_find((uintptr_t)relay, sizeof(struct gdr_sm_slot) * (gx / k->parts))) {
		free(k);
		return CUDA_ERROR_INVALID_VALUE;
	}
	k->slots = gx / k->parts;
	op.arg = k;
	__atomic_add_fetch(&m->running, 1, __ATOMIC_ACQUIRE);
	r = dbl_stream_submit(s, &op);
	if (r) {
		__atomic_sub_fetch(&m->running, 1, __ATOMIC_RELEASE);
		free(k);
	}
	return r;
}

const struct dbl_fn dbl_kernel_fns[] = {
    {"cuModuleLoadData", (void *)module_load_data, 2000},
    {"cuModuleGetFunction", (void *)module_get_function, 2000},
    {"cuModuleUnload", (void *)module_unload, 2000},
    {"cuLaunchKernel", (void *)launch_kernel, 4000},
    {NULL, NULL, 0},
};
