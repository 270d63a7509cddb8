/* SPDX-License-Identifier: MIT */
/*
 * Conformance: persistent kernels of two processes on one GPU take turns
 * (time slices, without MPS); two of one process run at once. gdrperf's
 * gpu-proxy and sm copier keep a kernel resident, so a run with both sides on
 * one GPU in two processes measures the hand-off, not the path.
 *
 * Each kernel is the sm copier's (src/staging/copier_sm.c, through the
 * project's copier interface: the kernel the double plays and the GPU runs).
 * A hand-off is one copier's 8-byte copy, complete, then the other's: a
 * ping-pong of N hand-offs between two copiers, first in two processes
 * (forked before either touches the driver), then both in this one.
 * A hand-off classes as time-sliced from 500 us up, else concurrent (measured
 * on an H200: about 2.2 ms between processes, every hand-off, 5 us within one).
 * The figure is the fast tenth's bound (the 10th percentile of 99 hand-offs):
 * a busy host lengthens some hand-offs (the double's kernels are threads that
 * wait for a CPU), a GPU that time-slices lengthens every one. No process here
 * touches the driver before its fork (c_fork): the parent forks one child per
 * measurement. A round counts when hand-offs within one process, timed just
 * before and just after, were concurrent, and the two processes alone (no GPU
 * work) handed off in under 100 us; after five rounds without one the case
 * skips (77), saying the host was too busy.
 */
#include "config.h"
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "conf.h"
#include "copier.h"
#include "mem.h"

#include "../cuda/gpu_alone.h"

#define HANDOFFS  100
#define ROUNDS	  5
#define SLICED_NS 500000ULL
#define WAIT_NS	  5000000000ULL
#define BOUNCE	  (1UL << 20)
#define ONE_S	  20 /* two copiers of one process: longest run (s) before "stalled" */
#define STALLED	  UINT64_MAX
#define DATA	  (2UL << 20)

struct side {
	struct gdr_mem dev, bounce;
	struct gdr_copier cp;
};

/* Device memory, bounce memory and an open sm copier (its kernel running); exit 1 if not. */
static void side_open(struct side *s)
{
	struct gdr_mem_cfg mc = {.gpu = 0};
	char why[256] = "";

	if (gdr_mem_cuda_init(&s->dev, &mc, NULL) || s->dev.ops->alloc(&s->dev, DATA) ||
	    gdr_mem_bounce_init(&s->bounce, &s->dev, BOUNCE)) {
		printf("error: no GPU memory for the sm copier\n");
		exit(1);
	}
	if (gdr_copier_open(&s->cp, GDR_COPIER_SM, &s->dev, s->bounce.addr, BOUNCE, 1, WAIT_NS, why,
			    sizeof(why))) {
		printf("error: sm copier: %s\n", why);
		exit(1);
	}
}

static void side_close(struct side *s)
{
	gdr_copier_close(&s->cp);
	s->bounce.ops->free(&s->bounce);
	gdr_mem_fini(&s->dev);
}

/* One 8-byte copy to the GPU, complete: the copier's kernel has run. */
static void copy8(struct side *s)
{
	if (gdr_copier_submit(&s->cp, GDR_FROM_HOST, 0, s->bounce.addr, 8) ||
	    gdr_copier_drain(&s->cp, GDR_FROM_HOST)) {
		printf("error: an 8-byte copy through the sm copier failed\n");
		exit(1);
	}
}

/* Shared between the two processes (mapped before the fork). */
struct turn {
	/* hand-offs done (even: process 0's turn, odd: process 1's); ready, done: processes */
	uint32_t turn, ready, done;
	uint64_t cycle[HANDOFFS]; /* the parent's turn to its next: two hand-offs */
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The fast tenth's bound: a tenth of the values are at most this. */
static uint64_t tenth(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 10];
}

/*
 * Sleep until *v reaches want (a futex on the shared page: a waiting process
 * leaves the CPUs to the one whose turn it is, whose kernel may be a thread).
 */
static void wait_for(uint32_t *v, uint32_t want)
{
	uint64_t t0 = gdr_now_ns();
	struct timespec ms = {0, 1000000};
	uint32_t now;

	while ((now = __atomic_load_n(v, __ATOMIC_ACQUIRE)) < want) {
		if (gdr_now_ns() - t0 > 30000000000ULL) { /* 30 s */
			printf("error: the other process did not take its turn\n");
			exit(1);
		}
		syscall(SYS_futex, v, FUTEX_WAIT, now, &ms, NULL, 0);
	}
}

static void bump(uint32_t *v, uint32_t to)
{
	if (to)
		__atomic_store_n(v, to, __ATOMIC_RELEASE);
	else
		__atomic_add_fetch(v, 1, __ATOMIC_ACQ_REL);
	syscall(SYS_futex, v, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* One process's half of the ping-pong: its kernel stays up until both are done. */
static void play(struct turn *t, int me, int gpu)
{
	struct side s;
	uint64_t i, last = 0;

	if (gpu) {
		conf_load("c_timeslice");
		side_open(&s);
		copy8(&s); /* the kernel has started */
	}
	bump(&t->ready, 0);
	wait_for(&t->ready, 2);
	for (i = (uint64_t)me; i < 2 * HANDOFFS; i += 2) {
		wait_for(&t->turn, (uint32_t)i);
		if (!me) {
			uint64_t now = gdr_now_ns();

			if (i)
				t->cycle[i / 2 - 1] = now - last;
			last = now;
		}
		if (gpu)
			copy8(&s);
		bump(&t->turn, (uint32_t)i + 1);
	}
	bump(&t->done, 0);
	wait_for(&t->done, 2);
	if (gpu)
		side_close(&s);
}

/* Where the case is, on stderr: a bounded run that ends early says which step it was in. */
static void stage(const char *what, int r)
{
	fprintf(stderr, "c_timeslice: round %d: %s\n", r + 1, what);
}

static const char *klass(uint64_t ns)
{
	if (ns == STALLED)
		return "stalled";
	return ns >= SLICED_NS ? "time-sliced" : "concurrent";
}

/*
 * Two processes' copiers in turn (gpu), or the two processes alone (the host's
 * own share of a hand-off): the fast tenth's hand-off (ns), or 0 on a failure.
 */
static uint64_t two_processes(struct turn *t, int gpu)
{
	pid_t pid[2];
	int st, i, bad = 0;

	memset(t, 0, sizeof(*t));
	fflush(stdout);
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return 0;
		if (!pid[i]) {
			play(t, i, gpu);
			fflush(stdout);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++)
		if (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	return bad ? 0 : tenth(t->cycle, HANDOFFS - 1) / 2;
}

/* Two copiers of one process (a child) in turn: the fast tenth's hand-off (ns), or 0 on a failure.
 */
static uint64_t one_process(struct turn *t)
{
	struct side a, b;
	pid_t pid;
	int st, i;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 0;
	if (!pid) {
		alarm(ONE_S); /* a stall ends the child: classed "stalled", not waited for */
		conf_load("c_timeslice");
		fprintf(stderr, "c_timeslice: one process: opening copier a\n");
		side_open(&a);
		fprintf(stderr, "c_timeslice: one process: opening copier b\n");
		side_open(&b);
		fprintf(stderr, "c_timeslice: one process: first copies\n");
		copy8(&a);
		copy8(&b);
		fprintf(stderr, "c_timeslice: one process: ping-pong\n");
		for (i = 0; i < HANDOFFS - 1; i++) {
			uint64_t t0 = gdr_now_ns();

			copy8(&a);
			copy8(&b);
			t->cycle[i] = gdr_now_ns() - t0;
		}
		side_close(&b);
		side_close(&a);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 0;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		return STALLED;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return 0;
	return tenth(t->cycle, HANDOFFS - 1) / 2;
}

int main(void)
{
	uint64_t two = 0, one = 0, after = 0, host = 0;
	struct turn *t;
	pid_t pid;
	int st = 0, r;

	/* Skip when there is no driver (asked in a child: this process never loads it). */
	fflush(stdout);
	pid = fork();
	if (!pid) {
		char why[256];
		const struct gdr_cuda_api *cu;

		_exit(gdr_cuda_load(&cu, why, sizeof(why)) ? 77 : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	if (WEXITSTATUS(st) == 77)
		conf_load("c_timeslice"); /* says why, exits 77 */
	gpu_alone();
	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return 1;
	/*
	 * A round counts when hand-offs within one process, just before and just after the
	 * two processes', were concurrent, and the two processes alone handed off in under a
	 * fifth of the bound: otherwise the host was too busy to time anything.
	 */
	for (r = 0; r < ROUNDS; r++) {
		/* between processes first: a stall within one process (measured on an H200) ends it */
		stage("two processes without the GPU", r);
		host = two_processes(t, 0);
		stage("two processes, a copier each", r);
		two = host ? two_processes(t, 1) : 0;
		stage("two copiers in one process", r);
		one = two ? one_process(t) : 0;
		stage("two copiers in one process, again", r);
		after = one && one != STALLED ? one_process(t) : one;
		if (!one || !host || !two || !after)
			return 1;
		if (one == STALLED || after == STALLED) {
			one = after = STALLED;
			break;
		}
		if (one < SLICED_NS && after < SLICED_NS && host < SLICED_NS / 5)
			break;
	}
	if (r == ROUNDS) {
		printf(
		    "skip: host too busy to time hand-offs: in round %d of %d %.1f us within one "
		    "process, %.1f us between two without the GPU\n",
		    r, ROUNDS, (one > after ? one : after) / 1e3, host / 1e3);
		return 77;
	}
	printf("RULE timeslice two_processes=%s\n", klass(two));
	printf("RULE timeslice_one_process two_copiers=%s\n", klass(one > after ? one : after));
	printf(
	    "# info hand-off, fast tenth: %.1f us between two processes, %.1f and %.1f us within "
	    "one (before, after), %.1f us between two without the GPU; time-sliced from %.0f "
	    "us; round %d\n",
	    two / 1e3, one == STALLED ? -1.0 : one / 1e3, after == STALLED ? -1.0 : after / 1e3,
	    host / 1e3, SLICED_NS / 1e3, r + 1);
	if (one == STALLED)
		printf("# info two copiers of one process: no ping-pong within %d s (-1 above)\n",
		       ONE_S);
	return 0;
}
