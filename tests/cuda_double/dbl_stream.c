/* SPDX-License-Identifier: MIT */
/*
 * CUDA double: streams and events. Each stream has a worker thread that runs
 * its operations in order, each after GDR_DOUBLE_DELAY_US, so work really is
 * asynchronous; queries and synchronisation report what has run. With
 * GDR_DOUBLE_UNORDERED=1 they lie: work counts as done when queued, and runs
 * later, newest first (a broken ordering guarantee, for tests that must fail).
 */
#include "dbl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DBL_MAX_HANDLES 256

struct dbl_stream {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct dbl_op *head;
	uint64_t queued, done;
	CUresult err; /* sticky: the first failure of its work */
	int stop;
	int dev;
	pthread_t th;
};

struct dbl_event {
	unsigned flags;
	uint64_t rec_gen, done_gen; /* generations recorded (queued) / reached */
	uint64_t t_ns;
};

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct dbl_stream *streams[DBL_MAX_HANDLES];
static struct dbl_stream *default_stream[DBL_MAX_DEV];
static struct dbl_event *events[DBL_MAX_HANDLES];
/* Events: one lock and one condition for all. */
static pthread_mutex_t ev_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cv = PTHREAD_COND_INITIALIZER;

static int reg_add(void **tab, void *p)
{
	int i;

	pthread_mutex_lock(&reg_mu);
	for (i = 0; i < DBL_MAX_HANDLES && tab[i]; i++)
		;
	if (i < DBL_MAX_HANDLES)
		tab[i] = p;
	pthread_mutex_unlock(&reg_mu);
	return i < DBL_MAX_HANDLES ? 0 : -1;
}

/* 1 when p is a live handle of tab (and removes it when del). */
static int reg_has(void **tab, const void *p, int del)
{
	int i, found = 0;

	pthread_mutex_lock(&reg_mu);
	for (i = 0; p && i < DBL_MAX_HANDLES; i++)
		if (tab[i] == p) {
			found = 1;
			if (del)
				tab[i] = NULL;
			break;
		}
	pthread_mutex_unlock(&reg_mu);
	return found;
}

static CUresult wait_event_gen(struct dbl_event *e, uint64_t gen)
{
	struct timespec dl;
	int rc = 0;

	dbl_deadline(&dl, DBL_WAIT_S);
	pthread_mutex_lock(&ev_mu);
	while (e->done_gen < gen && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&ev_cv, &ev_mu, &dl);
	rc = e->done_gen >= gen ? 0 : rc;
	pthread_mutex_unlock(&ev_mu);
	return rc ? CUDA_ERROR_LAUNCH_TIMEOUT : CUDA_SUCCESS;
}

static void event_reached(struct dbl_event *e, uint64_t gen)
{
	pthread_mutex_lock(&ev_mu);
	if (gen > e->done_gen) {
		e->done_gen = gen;
		e->t_ns = dbl_now_ns();
	}
	pthread_cond_broadcast(&ev_cv);
	pthread_mutex_unlock(&ev_mu);
}

static CUresult run_op(struct dbl_op *op)
{
	if (op->fail)
		return op->fail;
	if (dbl_lost && (op->kind == DBL_OP_COPY || op->kind == DBL_OP_SET))
		return DBL_LOST_ERR;
	switch (op->kind) {
	case DBL_OP_COPY:
		memmove(op->dst, op->src, op->len);
		break;
	case DBL_OP_SET:
		memset(op->dst, op->val, op->len);
		break;
	case DBL_OP_RECORD:
		event_reached(op->ev, op->gen);
		break;
	case DBL_OP_WAIT:
		return wait_event_gen(op->ev, op->gen);
	case DBL_OP_KERNEL:
		return op->kernel(op->arg);
	}
	return CUDA_SUCCESS;
}

/* The next operation to run: the oldest, or with GDR_DOUBLE_UNORDERED the newest. */
static struct dbl_op *pop(struct dbl_stream *s)
{
	struct dbl_op **pp = &s->head, *op;

	if (dbl_conf.unordered)
		while ((*pp)->next)
			pp = &(*pp)->next;
	op = *pp;
	*pp = op->next;
	return op;
}

static void *worker(void *arg)
{
	struct dbl_stream *s = arg;
	struct timespec dl;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct dbl_op *op;
		CUresult r;

		while (!s->head && !s->stop) {
			dbl_deadline(&dl, 1);
			pthread_cond_timedwait(&s->cv, &s->mu, &dl);
		}
		if (!s->head)
			break;
		op = pop(s);
		pthread_mutex_unlock(&s->mu);
		if (dbl_conf.delay_us)
			usleep(dbl_conf.unordered ? 4 * dbl_conf.delay_us : dbl_conf.delay_us);
		r = run_op(op);
		free(op);
		pthread_mutex_lock(&s->mu);
		if (r && !s->err)
			s->err = r;
		s->done++;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

static struct dbl_stream *stream_new(int dev)
{
	struct dbl_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->dev = dev;
	if (pthread_create(&s->th, NULL, worker, s)) {
		free(s);
		return NULL;
	}
	return s;
}

static void stream_free(struct dbl_stream *s)
{
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->th, NULL); /* its work ends: every wait in it is bounded */
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s);
}

/* The stream a handle names: NULL and the legacy/per-thread handles mean the default. */
static CUresult resolve(CUstream h, struct dbl_stream **out)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);

	if (r)
		return r;
	if (h == NULL || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD) {
		pthread_mutex_lock(&reg_mu);
		if (!default_stream[c->dev])
			default_stream[c->dev] = stream_new(c->dev);
		*out = default_stream[c->dev];
		pthread_mutex_unlock(&reg_mu);
		return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (!reg_has((void **)streams, h, 0))
		return CUDA_ERROR_INVALID_HANDLE;
	*out = (struct dbl_stream *)h;
	return CUDA_SUCCESS;
}

CUresult dbl_stream_submit(CUstream h, const struct dbl_op *op)
{
	struct dbl_stream *s;
	struct dbl_op *o, **pp;
	CUresult r = resolve(h, &s);

	if (r)
		return r;
	o = malloc(sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*o = *op;
	o->next = NULL;
	pthread_mutex_lock(&s->mu);
	r = s->err;
	if (!r) {
		for (pp = &s->head; *pp; pp = &(*pp)->next)
			;
		*pp = o;
		s->queued++;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	if (r)
		free(o);
	return r;
}

static CUresult stream_create(CUstream *out, unsigned flags)
{
	struct dbl_ctx *c;
	struct dbl_stream *s;
	CUresult r = dbl_enter(&c);

	if (r)
		return r;
	if (!out || flags > CU_STREAM_NON_BLOCKING)
		return CUDA_ERROR_INVALID_VALUE;
	s = stream_new(c->dev);
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (reg_add((void **)streams, s)) {
		stream_free(s);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*out = (CUstream)s;
	return CUDA_SUCCESS;
}

static CUresult stream_destroy(CUstream h)
{
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!reg_has((void **)streams, h, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	stream_free((struct dbl_stream *)h);
	return dbl_lost ? DBL_LOST_ERR : CUDA_SUCCESS;
}

static CUresult stream_synchronize(CUstream h)
{
	struct dbl_stream *s;
	struct timespec dl;
	CUresult r = resolve(h, &s);
	int rc = 0;

	if (r)
		return r;
	dbl_deadline(&dl, DBL_WAIT_S);
	pthread_mutex_lock(&s->mu);
	while (!dbl_conf.unordered && s->done < s->queued && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&s->cv, &s->mu, &dl);
	r = s->err;
	if (!r && !dbl_conf.unordered && s->done < s->queued)
		r = CUDA_ERROR_LAUNCH_TIMEOUT;
	pthread_mutex_unlock(&s->mu);
	return r ? r : dbl_lost ? DBL_LOST_ERR : CUDA_SUCCESS;
}

static CUresult stream_query(CUstream h)
{
	struct dbl_stream *s;
	CUresult r = resolve(h, &s);

	if (r)
		return r;
	pthread_mutex_lock(&s->mu);
	r = s->err;
	if (!r && !dbl_conf.unordered && s->done < s->queued)
		r = CUDA_ERROR_NOT_READY;
	pthread_mutex_unlock(&s->mu);
	return r;
}

static CUresult ctx_synchronize(void)
{
	CUresult r = CUDA_SUCCESS, r2;
	int i;

	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	for (i = 0; i < DBL_MAX_HANDLES && !r; i++) {
		CUstream h;

		pthread_mutex_lock(&reg_mu);
		h = (CUstream)streams[i];
		pthread_mutex_unlock(&reg_mu);
		if (h)
			r = stream_synchronize(h);
	}
	r2 = stream_synchronize(NULL);
	return r ? r : r2;
}

static CUresult event_create(CUevent *out, unsigned flags)
{
	struct dbl_ctx *c;
	struct dbl_event *e;
	CUresult r = dbl_enter(&c);

	if (r)
		return r;
	if (!out || flags & ~(unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING))
		return CUDA_ERROR_INVALID_VALUE;
	e = calloc(1, sizeof(*e));
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->flags = flags;
	if (reg_add((void **)events, e)) {
		free(e);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*out = (CUevent)e;
	return CUDA_SUCCESS;
}

static CUresult event_record(CUevent h, CUstream s)
{
	struct dbl_op op = {.kind = DBL_OP_RECORD, .ev = (struct dbl_event *)h};
	CUresult r;

	if (!reg_has((void **)events, h, 0))
		return dbl_inited ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&ev_mu);
	op.gen = ++op.ev->rec_gen;
	pthread_mutex_unlock(&ev_mu);
	if (dbl_conf.unordered) /* the lie: reached before it runs */
		event_reached(op.ev, op.gen);
	r = dbl_stream_submit(s, &op);
	if (r) /* not queued: nothing will reach it */
		event_reached(op.ev, op.gen);
	return r;
}

static CUresult event_query(CUevent h)
{
	struct dbl_event *e = (struct dbl_event *)h;
	CUresult r;

	if (!reg_has((void **)events, h, 0))
		return dbl_inited ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_NOT_INITIALIZED;
	if (dbl_lost)
		return DBL_LOST_ERR;
	pthread_mutex_lock(&ev_mu);
	r = e->done_gen >= e->rec_gen ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
	pthread_mutex_unlock(&ev_mu);
	return r;
}

static CUresult event_synchronize(CUevent h)
{
	struct dbl_event *e = (struct dbl_event *)h;
	uint64_t gen;

	if (!reg_has((void **)events, h, 0))
		return dbl_inited ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_NOT_INITIALIZED;
	if (dbl_lost)
		return DBL_LOST_ERR;
	pthread_mutex_lock(&ev_mu);
	gen = e->rec_gen;
	pthread_mutex_unlock(&ev_mu);
	return wait_event_gen(e, gen);
}

static CUresult event_elapsed(float *ms, CUevent a, CUevent b)
{
	struct dbl_event *x = (struct dbl_event *)a, *y = (struct dbl_event *)b;
	CUresult r = CUDA_SUCCESS;

	if (!ms)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!reg_has((void **)events, a, 0) || !reg_has((void **)events, b, 0))
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&ev_mu);
	if ((x->flags | y->flags) & CU_EVENT_DISABLE_TIMING || !x->rec_gen || !y->rec_gen)
		r = CUDA_ERROR_INVALID_HANDLE;
	else if (x->done_gen < x->rec_gen || y->done_gen < y->rec_gen)
		r = CUDA_ERROR_NOT_READY;
	else
		*ms = (float)(((double)y->t_ns - (double)x->t_ns) / 1e6);
	pthread_mutex_unlock(&ev_mu);
	return r;
}

static CUresult event_destroy(CUevent h)
{
	struct dbl_event *e = (struct dbl_event *)h;
	uint64_t gen;

	if (!reg_has((void **)events, h, 1))
		return dbl_inited ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_NOT_INITIALIZED;
	/* A record still queued refers to it: let it pass first (bounded). */
	pthread_mutex_lock(&ev_mu);
	gen = e->rec_gen;
	pthread_mutex_unlock(&ev_mu);
	wait_event_gen(e, gen);
	free(e);
	return CUDA_SUCCESS;
}

static CUresult stream_wait_event(CUstream s, CUevent h, unsigned flags)
{
	struct dbl_op op = {.kind = DBL_OP_WAIT, .ev = (struct dbl_event *)h};

	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (!reg_has((void **)events, h, 0))
		return dbl_inited ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&ev_mu);
	op.gen = op.ev->rec_gen;
	pthread_mutex_unlock(&ev_mu);
	return dbl_stream_submit(s, &op);
}

const struct dbl_fn dbl_stream_fns[] = {
    {"cuStreamCreate", (void *)stream_create, 2000},
    {"cuStreamDestroy", (void *)stream_destroy, 4000},
    {"cuStreamSynchronize", (void *)stream_synchronize, 2000},
    {"cuStreamQuery", (void *)stream_query, 2000},
    {"cuStreamWaitEvent", (void *)stream_wait_event, 3020},
    {"cuCtxSynchronize", (void *)ctx_synchronize, 2000},
    {"cuEventCreate", (void *)event_create, 2000},
    {"cuEventRecord", (void *)event_record, 2000},
    {"cuEventQuery", (void *)event_query, 2000},
    {"cuEventSynchronize", (void *)event_synchronize, 2000},
    {"cuEventElapsedTime", (void *)event_elapsed, 2000},
    {"cuEventDestroy", (void *)event_destroy, 4000},
    {NULL, NULL, 0},
};
