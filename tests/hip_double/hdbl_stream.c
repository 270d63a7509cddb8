/* SPDX-License-Identifier: MIT */
/* HIP double: streams, each a thread running its copies in order after a delay. */
#include "hdbl.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct op {
	void *dst;
	const void *src;
	size_t len;
	struct op *next;
};

struct hdbl_stream {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th;
	struct op *head, *tail;
	int pending; /* queued or running */
	int err;     /* sticky: the first failed copy's error */
	int stop;
	struct hdbl_stream *next; /* every live stream, for hipDeviceSynchronize */
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hdbl_stream *streams;

static void *worker(void *arg)
{
	struct hdbl_stream *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		struct op *o;
		int r;

		while (!s->head && !s->stop)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!s->head)
			break;
		o = s->head;
		s->head = o->next;
		if (!s->head)
			s->tail = NULL;
		pthread_mutex_unlock(&s->lock);
		if (hdbl_conf.delay_us)
			usleep(hdbl_conf.delay_us);
		r = hdbl_fault_copy();
		if (!r)
			memcpy(o->dst, o->src, o->len);
		free(o);
		pthread_mutex_lock(&s->lock);
		if (r && !s->err)
			s->err = r;
		s->pending--;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

HDBL_EXPORT int hipStreamCreate(struct hdbl_stream **out)
{
	struct hdbl_stream *s;
	int r;

	r = hdbl_enter();
	if (r)
		return r;
	if (!out)
		return HDBL_INVALID_VALUE;
	s = calloc(1, sizeof(*s));
	if (!s)
		return HDBL_OUT_OF_MEMORY;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (pthread_create(&s->th, NULL, worker, s)) {
		free(s);
		return HDBL_OUT_OF_MEMORY;
	}
	pthread_mutex_lock(&list_lock);
	s->next = streams;
	streams = s;
	pthread_mutex_unlock(&list_lock);
	*out = s;
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipStreamSynchronize(struct hdbl_stream *s)
{
	int r;

	if (!s)
		return HDBL_SUCCESS; /* the null stream runs its work at once */
	pthread_mutex_lock(&s->lock);
	while (s->pending)
		pthread_cond_wait(&s->cond, &s->lock);
	r = s->err;
	pthread_mutex_unlock(&s->lock);
	return r;
}

HDBL_EXPORT int hipStreamQuery(struct hdbl_stream *s)
{
	int r;

	if (!s)
		return HDBL_SUCCESS;
	pthread_mutex_lock(&s->lock);
	r = s->err ? s->err : s->pending ? HDBL_NOT_READY : HDBL_SUCCESS;
	pthread_mutex_unlock(&s->lock);
	return r;
}

HDBL_EXPORT int hipStreamDestroy(struct hdbl_stream *s)
{
	if (!s)
		return HDBL_INVALID_HANDLE;
	hipStreamSynchronize(s);
	pthread_mutex_lock(&list_lock);
	for (struct hdbl_stream **pp = &streams; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&list_lock);
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->th, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipMemcpyAsync(void *dst, const void *src, size_t len, int kind,
			       struct hdbl_stream *s)
{
	int hipMemcpy(void *dst, const void *src, size_t len, int kind);
	struct op *o;
	int r = hdbl_check_copy(dst, src, len, kind);

	if (r)
		return r;
	if (!s)
		return hipMemcpy(dst, src, len, kind);
	o = calloc(1, sizeof(*o));
	if (!o)
		return HDBL_OUT_OF_MEMORY;
	o->dst = dst;
	o->src = src;
	o->len = len;
	pthread_mutex_lock(&s->lock);
	if (s->err) {
		r = s->err;
		pthread_mutex_unlock(&s->lock);
		free(o);
		return r;
	}
	if (s->tail)
		s->tail->next = o;
	else
		s->head = o;
	s->tail = o;
	s->pending++;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return HDBL_SUCCESS;
}

/* Wait for every stream (all devices: the double does not split them); the first error. */
HDBL_EXPORT int hipDeviceSynchronize(void)
{
	int r = HDBL_SUCCESS;

	pthread_mutex_lock(&list_lock);
	for (struct hdbl_stream *s = streams; s; s = s->next) {
		int e = hipStreamSynchronize(s);

		if (e && !r)
			r = e;
	}
	pthread_mutex_unlock(&list_lock);
	return r;
}
