/* SPDX-License-Identifier: MIT */
/*
 * The sm copier's kernel: persistent, launched once per copier, woken by
 * doorbells in mapped pinned host memory (the protocol is in sm_proto.h).
 * Built to PTX on a machine with nvcc (scripts/gpu/sm-ptx.sh); the build
 * embeds sm_copy.ptx and the driver JIT-compiles it for the GPU at hand.
 *
 * Loads bypass L1: the source changes between copies behind the GPU's back
 * (the host writes the bounce buffer, the NIC writes GPU memory). Host memory
 * is read with ld.cv (fetch again), GPU memory with ld.cg (L2, where PCIe
 * writes land).
 */
#include "sm_proto.h"

/* One part's share of a copy in units of T where source and destination share T's alignment. */
template <typename T>
__device__ static void copy_units(unsigned char *dst, const unsigned char *src, uint64_t len,
				  bool from_host, uint64_t gi, uint64_t gs)
{
	const uint64_t w = sizeof(T);
	uint64_t head = (w - ((uintptr_t)src & (w - 1))) & (w - 1);
	uint64_t n, tail, i;
	const T *s;
	T *d;

	if (head > len)
		head = len;
	n = (len - head) / w;
	tail = head + n * w;
	s = (const T *)(src + head);
	d = (T *)(dst + head);
	for (i = gi; i < head; i += gs)
		dst[i] = from_host ? __ldcv(src + i) : __ldcg(src + i);

	/* Four loads in flight per thread before their stores: PCIe reads take microseconds. */
	for (i = gi; i + 3 * gs < n; i += 4 * gs) {
		T v0 = from_host ? __ldcv(s + i) : __ldcg(s + i);
		T v1 = from_host ? __ldcv(s + i + gs) : __ldcg(s + i + gs);
		T v2 = from_host ? __ldcv(s + i + 2 * gs) : __ldcg(s + i + 2 * gs);
		T v3 = from_host ? __ldcv(s + i + 3 * gs) : __ldcg(s + i + 3 * gs);

		d[i] = v0;
		d[i + gs] = v1;
		d[i + 2 * gs] = v2;
		d[i + 3 * gs] = v3;
	}
	for (; i < n; i += gs)
		d[i] = from_host ? __ldcv(s + i) : __ldcg(s + i);
	for (i = tail + gi; i < len; i += gs)
		dst[i] = from_host ? __ldcv(src + i) : __ldcg(src + i);
}

__device__ static void copy_part(unsigned char *dst, const unsigned char *src, uint64_t len,
				 bool from_host, uint64_t gi, uint64_t gs)
{
	uintptr_t skew = (uintptr_t)src ^ (uintptr_t)dst;

	if (!(skew & 15))
		copy_units<uint4>(dst, src, len, from_host, gi, gs);
	else if (!(skew & 7))
		copy_units<uint2>(dst, src, len, from_host, gi, gs);
	else if (!(skew & 3))
		copy_units<unsigned int>(dst, src, len, from_host, gi, gs);
	else
		copy_units<unsigned char>(dst, src, len, from_host, gi, gs);
}

/* seq with acquire semantics at system (host) or GPU scope: later loads see what came before it */
__device__ static uint64_t ld_acquire_sys(const volatile uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}

__device__ static uint64_t ld_acquire_gpu(const volatile uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}

/* A store that publishes everything this thread has seen before it (cumulative). */
__device__ static void st_release_sys(volatile uint64_t *p, uint64_t v)
{
	asm volatile("st.release.sys.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

__device__ static void st_release_gpu(volatile uint64_t *p, uint64_t v)
{
	asm volatile("st.release.gpu.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/* A slot's four fields in two 16-byte loads issued together (one PCIe round trip). */
__device__ static void ld_fields(const volatile struct gdr_sm_slot *sl, uint64_t *f)
{
	asm volatile("ld.volatile.v2.u64 {%0, %1}, [%4];\n\t"
		     "ld.volatile.v2.u64 {%2, %3}, [%4+16];"
		     : "=l"(f[0]), "=l"(f[1]), "=l"(f[2]), "=l"(f[3])
		     : "l"(sl)
		     : "memory");
}

/*
 * Grid: slots x bps blocks of GDR_SM_THREADS threads; block b serves slot
 * b / bps as part b % bps. relay: one slot per slot in device memory, zero
 * at launch, where part 0 copies each new request for the other parts, so
 * only one block per slot polls over PCIe. Returns when the slot's seq is
 * GDR_SM_STOP.
 */
extern "C" __global__ void gdr_sm_copy(struct gdr_sm_bell *bell, struct gdr_sm_slot *relay,
				       unsigned int bps)
{
	volatile struct gdr_sm_bell *vb = bell;
	const unsigned int slot = blockIdx.x / bps, part = blockIdx.x % bps;
	volatile struct gdr_sm_slot *vr = &relay[slot];
	volatile struct gdr_sm_slot *vs = part == 0 ? &vb->slot[slot] : vr;
	__shared__ uint64_t seq, f[4]; /* dev, host, len, dir */
	uint64_t last = 0, n;

	if (threadIdx.x == 0) {
		vb->ready[blockIdx.x] = 1;
		__threadfence_system();
	}
	for (;;) {
		if (threadIdx.x == 0) {
			uint64_t s, g[4];

			/* The slot's fields were written before seq: the acquire orders their loads after it. */
			if (part == 0)
				while ((s = ld_acquire_sys(&vs->seq)) == last)
					;
			else
				while ((s = ld_acquire_gpu(&vs->seq)) == last)
					;
			if (s != GDR_SM_STOP)
				ld_fields(vs, g);
			/* Short copies are part 0's alone: one block, no relay. */
			if (part == 0 && bps > 1 && (s == GDR_SM_STOP || g[2] >= GDR_SM_SPLIT)) {
				if (s != GDR_SM_STOP) {
					vr->dev = g[0];
					vr->host = g[1];
					vr->len = g[2];
					vr->dir = (uint32_t)g[3];
				}
				st_release_gpu(&vr->seq, s);
			}
			seq = s;
			if (s != GDR_SM_STOP)
				for (int i = 0; i < 4; i++)
					f[i] = g[i];
		}
		__syncthreads();
		if (seq == GDR_SM_STOP)
			return;
		last = seq;
		n = f[2] < GDR_SM_SPLIT ? 1 : bps;
		if ((uint32_t)f[3] == 1)
			copy_part((unsigned char *)f[0], (const unsigned char *)f[1], f[2], true,
				  (uint64_t)part * blockDim.x + threadIdx.x, (uint64_t)n * blockDim.x);
		else
			copy_part((unsigned char *)f[1], (const unsigned char *)f[0], f[2], false,
				  (uint64_t)part * blockDim.x + threadIdx.x, (uint64_t)n * blockDim.x);
		/*
		 * The block's stores, ordered before thread 0's by the barrier, are
		 * published by its release at system scope (cumulative), then acknowledged.
		 */
		__syncthreads();
		if (threadIdx.x == 0)
			st_release_sys(&vb->ack[slot][part], last);
		__syncthreads(); /* the shared fields are rewritten next round */
	}
}
