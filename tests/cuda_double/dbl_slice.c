/* SPDX-License-Identifier: MIT */
/*
 * CUDA double: time slicing between processes. Without MPS the real driver
 * never runs two processes' kernels on one GPU at once: their contexts take
 * turns, a time slice each (measured on an H200, driver 580.159.04: about
 * 2.2 ms per hand-off between two processes' persistent kernels, 5 us within
 * one process). The double's persistent kernels (sm copier, gpu-proxy) hold
 * their GPU's slice while they run: an flock on a file named by the GPU's
 * bus id in $TMPDIR (or /tmp), taken by the first kernel thread of a process
 * and shared by all its kernels on that GPU (within one process kernels run
 * at once), given up after GDR_DOUBLE_SLICE_US when another process waits
 * for it (a waiter holds the file's .want beside it shared while it blocks:
 * a lock, so a waiter that dies stops counting), and when the process's last kernel on the GPU
 * ends. Under MPS (GDR_DOUBLE_MPS=1, or CUDA_MPS_PIPE_DIRECTORY naming a folder) or with
 * GDR_DOUBLE_SLICE_US=0 kernels of all processes run at once.
 */
#include "dbl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The lock file's first bytes, shared by the processes that map it. */
struct slice_shared {
	int32_t owner; /* the pid holding it, 0 when none */
};

/* This process's hold on one GPU. */
struct slice {
	pthread_mutex_t mu;
	pid_t pid; /* the process that opened fd (a forked child opens its own) */
	int fd;
	int want; /* the waiters' file: LOCK_SH while blocked for the slice (a dead waiter's goes)
		   */
	struct slice_shared *sh;
	int kernels; /* this process's kernels running on the GPU */
	bool held;
	uint64_t since; /* when this process took the slice */
};

static struct slice slices[DBL_MAX_DEV] = {
    [0 ... DBL_MAX_DEV - 1] = {.mu = PTHREAD_MUTEX_INITIALIZER, .fd = -1, .want = -1}};

bool dbl_slicing(void)
{
	return dbl_conf.slice_us > 0 && !dbl_conf.mps;
}

/* Open (once per process) the GPU's lock file and map its shared words; -1 when it cannot. */
static int slice_open(struct slice *s, int dev)
{
	const char *dir = getenv("TMPDIR");
	char path[512];
	void *p;

	if (s->fd >= 0 && s->pid == getpid())
		return 0;
	s->fd = -1;
	s->held = false;
	snprintf(path, sizeof(path), "%s/gdr-cuda-double-gpu-%s.lock", dir && *dir ? dir : "/tmp",
		 dbl_conf.bus[dev]);
	s->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (s->fd < 0 || ftruncate(s->fd, 4096)) {
		fprintf(stderr, "CUDA double: time slice lock %s: %m\n", path);
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		return -1;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "CUDA double: time slice lock %s: mmap: %m\n", path);
		close(s->fd);
		s->fd = -1;
		return -1;
	}
	snprintf(path + strlen(path), sizeof(path) - strlen(path), ".want");
	s->want = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (s->want < 0) {
		fprintf(stderr, "CUDA double: time slice lock %s: %m\n", path);
		munmap(p, 4096);
		close(s->fd);
		s->fd = -1;
		return -1;
	}
	s->sh = p;
	s->pid = getpid();
	return 0;
}

/* Another process waits for the slice: it holds the waiters' file shared. */
static bool waited_for(struct slice *s)
{
	if (flock(s->want, LOCK_EX | LOCK_NB))
		return errno == EWOULDBLOCK;
	flock(s->want, LOCK_UN);
	return false;
}

/* Block until this process holds the GPU's slice. */
static void take(struct slice *s)
{
	while (flock(s->want, LOCK_SH) && errno == EINTR)
		;
	while (flock(s->fd, LOCK_EX) && errno == EINTR)
		;
	flock(s->want, LOCK_UN);
	__atomic_store_n(&s->sh->owner, (int32_t)s->pid, __ATOMIC_SEQ_CST);
	s->held = true;
	s->since = dbl_now_ns();
}

static void give(struct slice *s)
{
	__atomic_store_n(&s->sh->owner, 0, __ATOMIC_SEQ_CST);
	s->held = false;
	flock(s->fd, LOCK_UN);
}

void dbl_slice_enter(int dev)
{
	struct slice *s = &slices[dev];

	if (!dbl_slicing() || dev < 0 || dev >= DBL_MAX_DEV)
		return;
	pthread_mutex_lock(&s->mu);
	if (!slice_open(s, dev)) {
		s->kernels++;
		if (!s->held)
			take(s);
	}
	pthread_mutex_unlock(&s->mu);
}

void dbl_slice_tick(int dev)
{
	struct slice *s = &slices[dev];
	uint64_t t0;

	if (!dbl_slicing() || dev < 0 || dev >= DBL_MAX_DEV)
		return;
	pthread_mutex_lock(&s->mu);
	if (s->held && s->pid == getpid() &&
	    dbl_now_ns() - s->since >= (uint64_t)dbl_conf.slice_us * 1000 && waited_for(s)) {
		/* the slice is over and another process waits: let it run, then wait our turn */
		give(s);
		t0 = dbl_now_ns();
		while (!__atomic_load_n(&s->sh->owner, __ATOMIC_SEQ_CST) && waited_for(s) &&
		       dbl_now_ns() - t0 < 10000000ULL)
			usleep(20);
		take(s);
	}
	pthread_mutex_unlock(&s->mu);
}

void dbl_slice_leave(int dev)
{
	struct slice *s = &slices[dev];

	if (!dbl_slicing() || dev < 0 || dev >= DBL_MAX_DEV)
		return;
	pthread_mutex_lock(&s->mu);
	if (s->fd >= 0 && s->pid == getpid() && s->kernels > 0 && !--s->kernels && s->held)
		give(s);
	pthread_mutex_unlock(&s->mu);
}
