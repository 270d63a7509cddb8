/* SPDX-License-Identifier: MIT */
/* A thread barrier with a timeout, on a mutex and a CLOCK_MONOTONIC condition variable. */
#include "config.h"
#include <errno.h>
#include <time.h>
#include "tbarrier.h"

int gdr_tbarrier_init(struct gdr_tbarrier *b, unsigned int count)
{
	pthread_condattr_t ca;
	int e;

	*b = (struct gdr_tbarrier){.count = count ? count : 1};
	e = pthread_mutex_init(&b->mu, NULL);
	if (e) {
		errno = e;
		return -1;
	}
	e = pthread_condattr_init(&ca);
	if (!e) {
		e = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		if (!e)
			e = pthread_cond_init(&b->cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	if (e) {
		pthread_mutex_destroy(&b->mu);
		errno = e;
		return -1;
	}
	return 0;
}

void gdr_tbarrier_destroy(struct gdr_tbarrier *b)
{
	pthread_cond_destroy(&b->cv);
	pthread_mutex_destroy(&b->mu);
}

static struct timespec deadline(double timeout_s)
{
	struct timespec t;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &t);
	ns = (long long)t.tv_nsec + (long long)((timeout_s - (double)(long long)timeout_s) * 1e9);
	t.tv_sec += (time_t)timeout_s + (time_t)(ns / 1000000000LL);
	t.tv_nsec = (long)(ns % 1000000000LL);
	return t;
}

int gdr_tbarrier_wait(struct gdr_tbarrier *b, double timeout_s)
{
	struct timespec until = deadline(timeout_s);
	unsigned long round;
	int ret = 0;

	pthread_mutex_lock(&b->mu);
	round = b->round;
	if (b->broken) {
		ret = -1;
	} else if (++b->waiting == b->count) {
		b->waiting = 0;
		b->round++;
		pthread_cond_broadcast(&b->cv);
	} else {
		while (b->round == round && !b->broken) {
			if (pthread_cond_timedwait(&b->cv, &b->mu, &until) == ETIMEDOUT &&
			    b->round == round) {
				b->broken = 2;
				pthread_cond_broadcast(&b->cv);
			}
		}
		if (b->round == round)
			ret = -1;
	}
	pthread_mutex_unlock(&b->mu);
	return ret;
}

void gdr_tbarrier_break(struct gdr_tbarrier *b)
{
	pthread_mutex_lock(&b->mu);
	b->broken = 1;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

int gdr_tbarrier_broken(struct gdr_tbarrier *b)
{
	int v;

	pthread_mutex_lock(&b->mu);
	v = b->broken;
	pthread_mutex_unlock(&b->mu);
	return v;
}
