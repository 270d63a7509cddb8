/* SPDX-License-Identifier: MIT */
/*
 * CUDA double: the gpu-proxy path's kernel, gdr_gp_kernel (src/gproxy/gp_kernel.cu),
 * played on the stream's thread: every queue's producer in turn (the
 * protocol of gp_proto.h: ready, room in the window, a release, the batch's
 * descriptors with seq last, in latency mode the wait for each completion
 * and its sample, the final wait, the times and the status; every wait
 * bounded by the kernel's timeout and ended by stop). "globaltimer" is the
 * host's monotonic clock. This proves the host side of the protocol; only a
 * GPU proves the kernel. GDR_DOUBLE_FAIL=stuck:N: the kernels write N
 * descriptors in all, then none, and ignore stop (a kernel that stops).
 * Ping mode (latency of write and send): the "kernel" polls the receive
 * slot's last byte in the host memory the double uses as device memory,
 * writes its marker into the send slot's and stores the descriptor, as
 * gp_kernel.cu's ping(). A descriptor's two 8-byte words are stored apart,
 * seq's word first and the other right after it or, with GDR_DOUBLE_TEAR_US,
 * after the proxy completed the descriptor or that many us, whichever comes
 * first (the PTX memory model does not make the kernel's 16-byte store arrive
 * whole): a proxy that trusts seq alone takes word 0 of the slot's previous lap.
 */
#include "dbl.h"

#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gp_proto.h"

struct dbl_gp {
	struct gdr_gp_queue *qs;
	uint64_t *samples;
	volatile uint8_t *rx, *tx; /* ping: the slots' last bytes */
	bool first;
	int dev;
	unsigned int queues, mode, n, window, batch, slots, len;
	uint64_t timeout_ns;
};

struct gp_q {
	uint32_t i, last; /* the batch i..last */
	uint32_t w;	  /* the next descriptor to write */
	int phase;	  /* 0: room for the batch; 1: its completion (latency); 2: the end */
	uint64_t ts;
	bool ended;
};

static long written; /* descriptors every gp kernel wrote, for GDR_DOUBLE_FAIL=stuck:N */

/* Descriptor seq into q: its words apart, seq's first (above). */
static void store_desc(struct gdr_gp_queue *q, uint32_t seq, uint32_t idx, uint32_t len)
{
	uint64_t *w = (uint64_t *)(void *)&q->desc[seq % GDR_GP_RING], t0 = dbl_now_ns();

	__atomic_store_n(&w[1], GDR_GP_WORD1(seq), __ATOMIC_RELEASE);
	while (dbl_conf.tear_us && __atomic_load_n(&q->done, __ATOMIC_ACQUIRE) < seq &&
	       dbl_now_ns() - t0 < (uint64_t)dbl_conf.tear_us * 1000 &&
	       !__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE))
		sched_yield();
	__atomic_store_n(&w[0], GDR_GP_WORD0(idx, seq, len), __ATOMIC_RELEASE);
	__atomic_add_fetch(&written, 1, __ATOMIC_RELAXED);
}

static bool stuck(void)
{
	return dbl_conf.fail_stuck >= 0 &&
	       __atomic_load_n(&written, __ATOMIC_RELAXED) >= dbl_conf.fail_stuck;
}

void *dbl_gp_new(void **params, unsigned int gx, int dev)
{
	struct dbl_gp *k;
	CUdeviceptr qs, samples;

	for (int i = 0; i < 9; i++)
		if (!params[i])
			return NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	memcpy(&qs, params[0], sizeof(qs));
	memcpy(&samples, params[1], sizeof(samples));
	memcpy(&k->mode, params[2], sizeof(k->mode));
	memcpy(&k->n, params[3], sizeof(k->n));
	memcpy(&k->window, params[4], sizeof(k->window));
	memcpy(&k->batch, params[5], sizeof(k->batch));
	memcpy(&k->slots, params[6], sizeof(k->slots));
	memcpy(&k->len, params[7], sizeof(k->len));
	memcpy(&k->timeout_ns, params[8], sizeof(k->timeout_ns));
	k->qs = (struct gdr_gp_queue *)(uintptr_t)qs;
	k->samples = (uint64_t *)(uintptr_t)samples;
	k->queues = gx;
	k->dev = dev;
	/* the kernel would fault on memory it cannot address: refuse at launch instead */
	if (!gx || gx > GDR_GP_MAX_Q || !k->slots || !k->batch ||
	    !dbl_host_pinned((uintptr_t)qs, sizeof(struct gdr_gp_queue) * gx) ||
	    (k->mode == GDR_GP_LAT &&
	     !dbl_find((uintptr_t)samples, sizeof(uint64_t) * k->n * (size_t)gx))) {
		free(k);
		return NULL;
	}
	if (k->mode == GDR_GP_PING) {
		/* the queue's ping fields, written by the host before the launch */
		k->rx = (volatile uint8_t *)(uintptr_t)k->qs[0].rx;
		k->tx = (volatile uint8_t *)(uintptr_t)k->qs[0].tx;
		k->first = k->qs[0].first != 0;
		if (gx != 1 || !dbl_find((uintptr_t)samples, sizeof(uint64_t) * k->n) ||
		    !(dbl_find(k->qs[0].rx, 1) || dbl_host_pinned(k->qs[0].rx, 1)) ||
		    !(dbl_find(k->qs[0].tx, 1) || dbl_host_pinned(k->qs[0].tx, 1))) {
			free(k);
			return NULL;
		}
	}
	return k;
}

static void end(struct gdr_gp_queue *q, struct gp_q *s, uint64_t status, uint64_t at)
{
	q->at = at;
	__atomic_store_n(&q->status, status, __ATOMIC_RELEASE);
	s->ended = true;
}

/* One step of queue q's producer: 1 when it did something. */
static int step(struct dbl_gp *k, unsigned int qi, struct gp_q *s)
{
	struct gdr_gp_queue *q = &k->qs[qi];
	uint64_t done = __atomic_load_n(&q->done, __ATOMIC_ACQUIRE), now = dbl_now_ns();

	if (s->phase == 0) {
		uint64_t want = s->last > k->window ? s->last - k->window : 0;

		if (done >= want) {
			if (s->w == s->i && k->mode != GDR_GP_LAT)
				__atomic_thread_fence(__ATOMIC_RELEASE); /* fence.acq_rel.sys */
			for (; s->w <= s->last; s->w++) {
				if (stuck())
					return 0;
				store_desc(q, s->w, (s->w - 1) % k->slots, k->len);
			}
			if (k->mode == GDR_GP_LAT) {
				__atomic_thread_fence(__ATOMIC_SEQ_CST); /* after the descriptor */
				s->phase = 1;
			} else {
				s->i = s->last + 1;
				goto next;
			}
			return 1;
		}
	} else if (s->phase == 1 && done >= s->last) {
		k->samples[(uint64_t)qi * k->n + s->i - 1] = now - s->ts;
		s->i = s->last + 1;
		goto next;
	} else if (s->phase == 2 && done >= k->n) {
		q->t1 = now;
		end(q, s, GDR_GP_DONE, k->n);
		return 1;
	}
	if (__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE))
		end(q, s, GDR_GP_STOPPED, s->phase == 0 ? s->i : s->last);
	else if (now - s->ts > k->timeout_ns)
		end(q, s, GDR_GP_TIMEOUT, s->phase == 0 ? s->i : s->last);
	return 0;
next:
	s->ts = now;
	if (s->i > k->n) {
		s->phase = 2;
	} else {
		s->phase = 0;
		s->last = s->i + k->batch - 1 < k->n ? s->i + k->batch - 1 : k->n;
	}
	return 1;
}

/*
 * One step of the ping-pong (gp_proto.h's GDR_GP_PING, gp_kernel.cu's
 * ping()): phase 0 waits for the peer's marker, 1 for room, then writes the
 * marker and the descriptor, 2 (first) waits for the reply, 3 for the last
 * completion. 1 when it did something.
 */
static int step_ping(struct dbl_gp *k, struct gdr_gp_queue *q, struct gp_q *s)
{
	uint64_t done = __atomic_load_n(&q->done, __ATOMIC_ACQUIRE), now = dbl_now_ns();
	uint8_t mark = GDR_GP_MARK(s->i);
	bool peer = s->phase == 0 || s->phase == 2;

	if (peer && __atomic_load_n(k->rx, __ATOMIC_ACQUIRE) == mark) {
		if (s->phase == 2)
			goto next;
		s->phase = 1;
		return 1;
	}
	if (s->phase == 1 && done >= (s->i > k->window ? s->i - k->window : 0)) {
		if (stuck())
			return 0;
		*k->tx = mark;
		__atomic_thread_fence(__ATOMIC_SEQ_CST); /* fence.acq_rel.sys */
		store_desc(q, s->i, 0, k->len);
		if (k->first) {
			s->phase = 2;
			return 1;
		}
		goto next;
	}
	if (s->phase == 3 && done >= k->n) {
		q->t1 = now;
		end(q, s, GDR_GP_DONE, k->n);
		return 1;
	}
	if (__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE))
		end(q, s, GDR_GP_STOPPED, s->i);
	else if (now - s->ts > k->timeout_ns)
		end(q, s, peer ? GDR_GP_NOPEER : GDR_GP_TIMEOUT, s->phase == 3 ? k->n : s->i);
	return 0;
next:
	k->samples[s->i - 1] = now - s->ts;
	s->ts = now;
	s->i++;
	s->phase = s->i > k->n ? 3 : k->first ? 1 : 0;
	return 1;
}

/* The kernel: until every queue ended (or, stuck, until the double's longest wait). */
CUresult dbl_gp_run(void *arg)
{
	struct dbl_gp *k = arg;
	struct gp_q s[GDR_GP_MAX_Q];
	uint64_t t0;
	unsigned int ended = 0, qi;

	memset(s, 0, sizeof(s));
	dbl_slice_enter(k->dev); /* another process's kernels run: wait for the slice */
	t0 = dbl_now_ns();
	for (qi = 0; qi < k->queues; qi++) {
		__atomic_store_n(&k->qs[qi].ready, 1, __ATOMIC_RELEASE);
		k->qs[qi].t0 = t0;
		s[qi].i = s[qi].w = 1;
		s[qi].last = k->batch < k->n ? k->batch : k->n;
		s[qi].ts = t0;
		if (k->mode == GDR_GP_PING)
			s[qi].phase = k->first ? 1 : 0;
	}
	while (ended < k->queues) {
		int busy = 0;

		dbl_slice_tick(k->dev);

		if (stuck()) {
			if (dbl_now_ns() - t0 > (uint64_t)DBL_WAIT_S * 1000000000ULL)
				break;
			usleep(1000);
			continue;
		}
		for (ended = 0, qi = 0; qi < k->queues; qi++) {
			if (!s[qi].ended)
				busy |= k->mode == GDR_GP_PING ? step_ping(k, &k->qs[qi], &s[qi])
							       : step(k, qi, &s[qi]);
			ended += s[qi].ended;
		}
		if (!busy)
			sched_yield();
	}
	dbl_slice_leave(k->dev);
	free(k);
	return CUDA_SUCCESS;
}
