/* SPDX-License-Identifier: MIT */
/*
 * A thread barrier whose wait times out (pthread_barrier_wait cannot): the
 * threads of a multi-GPU measurement start together behind it, and a thread
 * stuck in a driver call turns into an error instead of a hang.
 */
#ifndef GDR_TBARRIER_H
#define GDR_TBARRIER_H

#include <pthread.h>

struct gdr_tbarrier {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned int count;   /* threads that meet at the barrier */
	unsigned int waiting; /* arrived in the current round */
	unsigned long round;  /* bumped when a round completes */
	int broken; /* 1 broken on purpose, 2 a wait timed out: every wait fails at once */
};

/* count >= 1 threads. 0, or -1 (errno) when the mutex or condition cannot be made. */
int gdr_tbarrier_init(struct gdr_tbarrier *b, unsigned int count);
void gdr_tbarrier_destroy(struct gdr_tbarrier *b);
/*
 * Wait until count threads have arrived, at most timeout_s seconds. Returns 0,
 * or -1 when the wait timed out or the barrier broke earlier (then every
 * thread waiting now or later gets -1 at once).
 */
int gdr_tbarrier_wait(struct gdr_tbarrier *b, double timeout_s);
/* 0 whole, 1 broken on purpose, 2 a wait timed out. */
int gdr_tbarrier_broken(struct gdr_tbarrier *b);
/* Break the barrier: every wait, now or later, returns -1 at once. */
void gdr_tbarrier_break(struct gdr_tbarrier *b);

#endif
