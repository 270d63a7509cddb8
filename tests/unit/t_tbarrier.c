/* SPDX-License-Identifier: MIT */
/*
 * The timed thread barrier: rounds release every thread together and
 * repeatedly, a missing thread turns into a timeout (not a hang) that breaks
 * the barrier for everyone, and a broken barrier fails at once.
 */
#include <pthread.h>
#include <time.h>
#include "tbarrier.h"

#include "check.h"

#define THREADS 4
#define ROUNDS	50

static struct gdr_tbarrier bar;
static int counter[ROUNDS];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Each round: count in, meet, check that all counted in before anyone left. */
static void *worker(void *arg)
{
	int *bad = arg;

	for (int r = 0; r < ROUNDS; r++) {
		pthread_mutex_lock(&mu);
		counter[r]++;
		pthread_mutex_unlock(&mu);
		if (gdr_tbarrier_wait(&bar, 10.0)) {
			(*bad)++;
			return NULL;
		}
		pthread_mutex_lock(&mu);
		if (counter[r] != THREADS)
			(*bad)++;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void)
{
	pthread_t th[THREADS];
	int bad[THREADS] = {0};
	double t0;

	CHECK(gdr_tbarrier_init(&bar, THREADS) == 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_create(&th[i], NULL, worker, &bad[i]) == 0);
	for (int i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK(bad[i] == 0, "thread %d: %d bad rounds", i, bad[i]);
	}
	CHECK(gdr_tbarrier_broken(&bar) == 0);
	gdr_tbarrier_destroy(&bar);

	/* two expected, one comes: a timeout after about 0.2 s, then broken for good */
	CHECK(gdr_tbarrier_init(&bar, 2) == 0);
	t0 = now();
	CHECK(gdr_tbarrier_wait(&bar, 0.2) == -1);
	CHECK(now() - t0 >= 0.19 && now() - t0 < 5.0, "waited %.3f s", now() - t0);
	CHECK(gdr_tbarrier_broken(&bar) == 2);
	t0 = now();
	CHECK(gdr_tbarrier_wait(&bar, 5.0) == -1);
	CHECK(now() - t0 < 1.0, "a broken barrier waited %.3f s", now() - t0);
	gdr_tbarrier_destroy(&bar);

	/* a barrier of one never waits; a broken one on purpose reports 1 */
	CHECK(gdr_tbarrier_init(&bar, 1) == 0);
	CHECK(gdr_tbarrier_wait(&bar, 0.01) == 0);
	gdr_tbarrier_break(&bar);
	CHECK(gdr_tbarrier_broken(&bar) == 1);
	CHECK(gdr_tbarrier_wait(&bar, 0.01) == -1);
	gdr_tbarrier_destroy(&bar);
	return CHECK_DONE();
}
