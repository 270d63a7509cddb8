/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy path's kernel: each block's thread 0 is one producer of
 * descriptors for its queue in mapped pinned host memory (the protocol is in
 * gp_proto.h), waiting for the proxy's completions. Built to PTX on a machine
 * with nvcc (scripts/gpu/sm-ptx.sh gp); the build embeds gp_kernel.ptx and
 * the driver JIT-compiles it for the GPU at hand.
 */
#include "gp_proto.h"

__device__ static uint64_t gtime(void)
{
	uint64_t t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

__device__ static uint64_t ld_acquire_sys(const volatile uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}

__device__ static uint64_t ld_relaxed_sys(const volatile uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}

__device__ static void st_relaxed_sys(volatile uint64_t *p, uint64_t v)
{
	asm volatile("st.relaxed.sys.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

__device__ static uint32_t ld_relaxed_sys_u8(const volatile uint8_t *p)
{
	uint32_t v;

	asm volatile("ld.relaxed.sys.u8 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
}

__device__ static void st_relaxed_sys_u8(volatile uint8_t *p, uint32_t v)
{
	asm volatile("st.relaxed.sys.u8 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

__device__ static void fence_sys(void)
{
	asm volatile("fence.acq_rel.sys;" : : : "memory");
}

/*
 * A descriptor in one 16-byte store: each of its words checked on its own
 * (gp_proto.h: seq in word 1, its low 16 bits in word 0), as the two may
 * arrive apart.
 */
__device__ static void st_desc(volatile struct gdr_gp_desc *d, uint32_t idx, uint32_t len,
			       uint32_t seq)
{
	uint64_t w0 = GDR_GP_WORD0(idx, seq, len), w1 = GDR_GP_WORD1(seq);

	asm volatile("st.relaxed.sys.v2.u64 [%0], {%1, %2};"
		     :
		     : "l"(d), "l"(w0), "l"(w1)
		     : "memory");
}

/*
 * Wait until done >= want: 0, or the status that ends the kernel (timeout,
 * stop). *seen is the last done read: no PCIe read at all while it suffices.
 */
__device__ static uint64_t wait_done(volatile struct gdr_gp_queue *q, uint64_t *seen,
				     uint64_t want, uint64_t ts, uint64_t timeout_ns)
{
	unsigned int polls = 0;

	while (*seen < want && (*seen = ld_acquire_sys(&q->done)) < want) {
		if (++polls % 64)
			continue;
		if (ld_relaxed_sys(&q->stop))
			return GDR_GP_STOPPED;
		if (gtime() - ts > timeout_ns)
			return GDR_GP_TIMEOUT;
	}
	return 0;
}

/*
 * Ping: wait until the receive slot's last byte is the peer's marker: 0, or
 * the status that ends the kernel (no peer within the timeout, stop).
 */
__device__ static uint64_t wait_mark(volatile struct gdr_gp_queue *q, const volatile uint8_t *rx,
				     uint32_t mark, uint64_t ts, uint64_t timeout_ns)
{
	unsigned int polls = 0;

	while (ld_relaxed_sys_u8(rx) != mark) {
		if (++polls % 64)
			continue;
		if (ld_relaxed_sys(&q->stop))
			return GDR_GP_STOPPED;
		if (gtime() - ts > timeout_ns)
			return GDR_GP_NOPEER;
	}
	return 0;
}

__device__ static void end(volatile struct gdr_gp_queue *q, uint64_t status, uint64_t at)
{
	st_relaxed_sys(&q->at, at);
	fence_sys();
	st_relaxed_sys(&q->status, status);
}

/*
 * Ping (gp_proto.h): n messages, each the peer's marker waited for and this
 * side's sent, samples[i - 1] from before this side's step for message i to
 * its end (first: the round trip). 0, or the status that ends the kernel,
 * with *at the message it was at.
 */
__device__ static uint64_t ping(volatile struct gdr_gp_queue *q, uint64_t *samples,
				unsigned int n, unsigned int window, unsigned int len,
				uint64_t timeout_ns, uint64_t *seen, uint32_t *at)
{
	const volatile uint8_t *rx = (const volatile uint8_t *)ld_relaxed_sys(&q->rx);
	volatile uint8_t *tx = (volatile uint8_t *)ld_relaxed_sys(&q->tx);
	bool first = ld_relaxed_sys(&q->first) != 0;
	uint64_t ts, st = 0;
	uint32_t i;

	for (i = 1; i <= n; i++) {
		*at = i;
		ts = gtime();
		st = first ? 0 : wait_mark(q, rx, GDR_GP_MARK(i), ts, timeout_ns);
		if (!st)
			st = wait_done(q, seen, i > window ? i - window : 0, ts, timeout_ns);
		if (st)
			break;
		/* the marker, then (a release: the NIC reads it) the descriptor */
		st_relaxed_sys_u8(tx, GDR_GP_MARK(i));
		fence_sys();
		st_desc(&q->desc[i % GDR_GP_RING], 0, len, i);
		if (first && (st = wait_mark(q, rx, GDR_GP_MARK(i), ts, timeout_ns)))
			break;
		samples[i - 1] = gtime() - ts;
	}
	return st;
}

/*
 * Grid: one block of one thread per queue. mode GDR_GP_LAT: one descriptor
 * at a time, samples[q * n + i - 1] the globaltimer nanoseconds from before
 * descriptor i's store to its completion seen. GDR_GP_RATE: at most window
 * outstanding, batch descriptors after each fence. Message i is slot
 * (i - 1) % slots of len bytes. GDR_GP_PING: ping() (slot 0).
 */
extern "C" __global__ void gdr_gp_kernel(struct gdr_gp_queue *qs, uint64_t *samples,
					 unsigned int mode, unsigned int n, unsigned int window,
					 unsigned int batch, unsigned int slots, unsigned int len,
					 uint64_t timeout_ns)
{
	volatile struct gdr_gp_queue *q = &qs[blockIdx.x];
	uint64_t t0, ts, st, seen = 0;
	uint32_t i, b, last;

	if (threadIdx.x)
		return;
	st_relaxed_sys(&q->ready, 1);
	fence_sys();
	t0 = gtime();
	if (mode == GDR_GP_PING) {
		st = ping(q, samples + (uint64_t)blockIdx.x * n, n, window, len, timeout_ns, &seen,
			  &i);
		if (st) {
			end(q, st, i);
			return;
		}
	}
	for (i = mode == GDR_GP_PING ? n + 1 : 1; i <= n; i = last + 1) {
		last = i + batch - 1 < n ? i + batch - 1 : n;
		ts = gtime();
		/* room for descriptors i..last: at most window outstanding */
		st = wait_done(q, &seen, last > window ? last - window : 0, ts, timeout_ns);
		if (st) {
			end(q, st, i);
			return;
		}
		/*
		 * Rate: a release before the batch (the messages' data before their
		 * descriptors), one fence for batch descriptors. Latency: the fence
		 * after the one descriptor, which sends it on its way at once (the
		 * anchor's order; a fence before it as well cost 0.4 us more on an
		 * H200, 2026-11-27). This kernel writes no payload: the test memory
		 * is filled before the run and the NIC reads or writes it, so
		 * latency needs no release before its descriptor (docs/compare.md).
		 */
		if (mode != GDR_GP_LAT)
			fence_sys();
		for (b = i; b <= last; b++)
			st_desc(&q->desc[b % GDR_GP_RING], (b - 1) % slots, len, b);
		if (mode == GDR_GP_LAT) {
			fence_sys();
			st = wait_done(q, &seen, last, ts, timeout_ns);
			if (st) {
				end(q, st, last);
				return;
			}
			samples[(uint64_t)blockIdx.x * n + i - 1] = gtime() - ts;
		}
	}
	st = wait_done(q, &seen, n, gtime(), timeout_ns);
	if (st) {
		end(q, st, n);
		return;
	}
	st_relaxed_sys(&q->t0, t0);
	st_relaxed_sys(&q->t1, gtime());
	end(q, GDR_GP_DONE, n);
}
