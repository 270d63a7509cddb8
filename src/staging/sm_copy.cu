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

/* One load and its store of a T, at byte offset off (T-aligned on both sides). */
template <typename T>
__device__ static void copy_one(unsigned char *dst, const unsigned char *src, uint32_t off,
				bool from_host)
{
	const T *s = (const T *)(src + off);

	*(T *)(dst + off) = from_host ? __ldcv(s) : __ldcg(s);
}

/*
 * A short copy from and to 16-byte aligned addresses (the staged path's
 * usual case): thread i copies the i-th 16 bytes, and the four threads after
 * the last whole unit the tail's 8-, 4-, 2- and 1-byte pieces (each aligned,
 * taken in that order). Every load is in flight at once, after the fewest
 * instructions (32-bit offsets, no loop): the copy_units path costs a short
 * copy more than its loads do.
 */
__device__ static void copy_short(unsigned char *dst, const unsigned char *src, uint32_t len,
				  bool from_host, uint32_t i)
{
	const uint32_t units = len >> 4, k = i - units;
	uint32_t off = len & ~15U;

	if (i < units) {
		copy_one<uint4>(dst, src, i << 4, from_host);
		return;
	}
	if (k > 3 || !(len & (8U >> k)))
		return;
	off += (k > 0 ? len & 8 : 0) + (k > 1 ? len & 4 : 0) + (k > 2 ? len & 2 : 0);
	if (k == 0)
		copy_one<uint2>(dst, src, off, from_host);
	else if (k == 1)
		copy_one<unsigned int>(dst, src, off, from_host);
	else if (k == 2)
		copy_one<unsigned short>(dst, src, off, from_host);
	else
		copy_one<unsigned char>(dst, src, off, from_host);
}

__device__ static void copy_part(unsigned char *dst, const unsigned char *src, uint64_t len,
				 bool from_host, uint64_t gi, uint64_t gs)
{
	uintptr_t skew = (uintptr_t)src ^ (uintptr_t)dst;

	/* a thread per whole unit, and four for a tail */
	if (GDR_SM_SHORT_PATH && !(((uintptr_t)src | (uintptr_t)dst) & 15) &&
	    (len >> 4) + (len & 15 ? 4 : 0) <= gs) {
		copy_short(dst, src, (uint32_t)len, from_host, (uint32_t)gi);
		return;
	}

	if (!(skew & 15))
		copy_units<uint4>(dst, src, len, from_host, gi, gs);
	else if (!(skew & 7))
		copy_units<uint2>(dst, src, len, from_host, gi, gs);
	else if (!(skew & 3))
		copy_units<unsigned int>(dst, src, len, from_host, gi, gs);
	else
		copy_units<unsigned char>(dst, src, len, from_host, gi, gs);
}

/*
 * The poll: the slot's first 16 bytes in one load (w[0] dev_off | host_off
 * << 32, w[1] len_dir | seq << 32), acquire: the host's data, read next, was
 * written before seq. One load in flight, not two (sm_proto.h).
 */
__device__ static void ld_slot_sys(const volatile struct gdr_sm_slot *sl, uint64_t *w)
{
#if GDR_SM_POLL_RELAXED /* a variant measured against the acquire (sm-variants.sh) */
	asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%2];"
#else
	asm volatile("ld.acquire.sys.v2.u64 {%0, %1}, [%2];"
#endif
		     : "=l"(w[0]), "=l"(w[1])
		     : "l"(sl)
		     : "memory");
}

__device__ static void ld_slot_gpu(const volatile struct gdr_sm_slot *sl, uint64_t *w)
{
	asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];"
		     : "=l"(w[0]), "=l"(w[1])
		     : "l"(sl)
		     : "memory");
}

/* The relay: the request's 16 bytes in one store. */
__device__ static void st_slot_gpu(volatile struct gdr_sm_slot *sl, const uint64_t *w)
{
	asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};"
		     :
		     : "l"(sl), "l"(w[0]), "l"(w[1])
		     : "memory");
}

__device__ static uint32_t slot_seq(const uint64_t *w)
{
	return (uint32_t)(w[1] >> 32);
}

__device__ static uint32_t slot_dir(const uint64_t *w)
{
	return (uint32_t)w[1] >> 30;
}

/* The GPU's nanosecond clock: a special register, no memory access. */
__device__ static uint64_t now_ns(void)
{
	uint64_t t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/*
 * A slot's poll (sm_proto.h: the idle backoff): part 0's of the doorbell
 * over PCIe (sys), the other parts' of the relay in device memory. Back to
 * back while copies come, spaced out once none came for GDR_SM_IDLE_NS
 * after the slot's last copy (idle_since). The pause spins on the clock:
 * nanosleep would need PTX 6.3, above the floor.
 */
template <bool sys>
__device__ static void poll_slot(const volatile struct gdr_sm_slot *sl, uint32_t last,
				 uint64_t idle_since, uint64_t *w)
{
	uint64_t pause = 0, t;

	for (;;) {
		if (sys)
			ld_slot_sys(sl, w);
		else
			ld_slot_gpu(sl, w);
		if (slot_seq(w) != last)
			return;
		t = now_ns();
		if (t - idle_since < GDR_SM_IDLE_NS || (!sys && !GDR_SM_RELAY_BACKOFF))
			continue;
		pause = !pause
			    ? GDR_SM_PAUSE_MIN_NS
			    : (pause < GDR_SM_PAUSE_MAX_NS / 2 ? 2 * pause : GDR_SM_PAUSE_MAX_NS);
		while (now_ns() - t < pause)
			;
	}
}

__device__ static void fence_gpu(void)
{
	asm volatile("fence.acq_rel.gpu;" : : : "memory");
}

__device__ static void fence_sys(void)
{
	asm volatile("fence.acq_rel.sys;" : : : "memory");
}

__device__ static void st_relaxed_sys(volatile uint64_t *p, uint64_t v)
{
	asm volatile("st.relaxed.sys.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/*
 * A block list (sm_proto.h): n blocks of blk bytes between the test memory
 * at tab[0..n) and the bounce memory from host, one after another. A block
 * shorter than GDR_SM_SPLIT is one part's (block k: part k mod bps, its
 * threads), a longer one every part's, as single copies of those lengths.
 */
__device__ static void copy_list(unsigned char *dev_base, unsigned char *host, const uint32_t *tab,
				 uint32_t n, uint64_t blk, bool to_dev, unsigned int part,
				 unsigned int bps)
{
	const bool whole = blk < GDR_SM_SPLIT;
	const uint64_t gi = whole ? threadIdx.x : (uint64_t)part * blockDim.x + threadIdx.x;
	const uint64_t gs = whole ? blockDim.x : (uint64_t)bps * blockDim.x;

	for (uint32_t k = whole ? part : 0; k < n; k += whole ? bps : 1) {
		unsigned char *d = dev_base + tab[k], *h = host + (uint64_t)k * blk;

		if (to_dev)
			copy_part(d, h, blk, true, gi, gs);
		else
			copy_part(h, d, blk, false, gi, gs);
	}
}

/*
 * Grid: slots x bps blocks of GDR_SM_THREADS threads; block b serves slot
 * b / bps as part b % bps. relay: one slot per slot in device memory, zero
 * at launch, where part 0 copies each new request for the other parts, so
 * only one block per slot polls over PCIe. Returns when the slot's dir is
 * GDR_SM_DIR_STOP.
 */
extern "C" __global__ void gdr_sm_copy(struct gdr_sm_bell *bell, struct gdr_sm_slot *relay,
				       unsigned int bps, unsigned char *dev_base,
				       unsigned char *host_base)
{
	volatile struct gdr_sm_bell *vb = bell;
	const unsigned int slot = blockIdx.x / bps, part = blockIdx.x % bps;
	volatile struct gdr_sm_slot *vr = &relay[slot];
	__shared__ uint64_t f[4]; /* dev (a list: n | d << 31), host, len, dir | seq << 32 */
	__shared__ uint32_t tab[GDR_SM_LIST_MAX]; /* a list's block table, read from the page */
	uint32_t last = 0;
	bool to_dev;
	uint64_t n, idle_since = 0; /* thread 0: when the slot's last copy ended */

	if (threadIdx.x == 0) {
		vb->ready[blockIdx.x] = 1;
		fence_sys();
		idle_since = now_ns();
	}
	for (;;) {
		if (threadIdx.x == 0) {
			uint64_t w[2];

			if (part == 0) {
				poll_slot<true>(&vb->slot[slot], last, idle_since, w);
				/* Short copies are part 0's alone: one block, no relay. */
				if (bps > 1 &&
				    (slot_dir(w) >= GDR_SM_DIR_STOP ||
				     ((uint32_t)w[1] & GDR_SM_LEN_MAX) >= GDR_SM_SPLIT)) {
					fence_gpu(); /* a release: the parts read host data after it
						      */
					st_slot_gpu(vr, w);
				}
			} else {
				poll_slot<false>(vr, last, idle_since, w);
				fence_gpu();
			}
			f[0] = slot_dir(w) == GDR_SM_DIR_LIST
				   ? (uint32_t)w[0]
				   : (uint64_t)(uintptr_t)dev_base + (uint32_t)w[0];
			f[1] = (uint64_t)(uintptr_t)host_base + (uint32_t)(w[0] >> 32);
			f[2] = (uint32_t)w[1] & GDR_SM_LEN_MAX;
			f[3] = slot_dir(w) | (uint64_t)slot_seq(w) << 32;
		}
		__syncthreads();
		if ((uint32_t)f[3] == GDR_SM_DIR_STOP)
			return;
		last = (uint32_t)(f[3] >> 32);
		n = f[2] < GDR_SM_SPLIT ? 1 : bps;
		to_dev =
		    (uint32_t)f[3] == 1 || ((uint32_t)f[3] == GDR_SM_DIR_LIST && (f[0] >> 31) == 1);
		if ((uint32_t)f[3] == GDR_SM_DIR_LIST) {
			/*
			 * The table was written before seq: read after the acquire that saw
			 * it (part 0's, or the relay's for the others), as the data is.
			 */
			n = (uint32_t)f[0] & ~(1U << 31);
			if (n > GDR_SM_LIST_MAX)
				n = GDR_SM_LIST_MAX;
			for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
				tab[i] = __ldcv((const unsigned int *)&bell->list[slot][i]);
			__syncthreads();
			copy_list(dev_base, (unsigned char *)f[1], tab, (uint32_t)n, f[2], to_dev,
				  part, bps);
		} else if ((uint32_t)f[3] == 1)
			copy_part((unsigned char *)f[0], (const unsigned char *)f[1], f[2], true,
				  (uint64_t)part * blockDim.x + threadIdx.x,
				  (uint64_t)n * blockDim.x);
		else
			copy_part((unsigned char *)f[1], (const unsigned char *)f[0], f[2], false,
				  (uint64_t)part * blockDim.x + threadIdx.x,
				  (uint64_t)n * blockDim.x);
		/*
		 * The block's stores, ordered before thread 0's by the barrier, are
		 * published by its fence (cumulative), then acknowledged: GPU scope
		 * when they went to device memory, system scope when to host memory
		 * (acquire-release, as NCCL publishes to the host: a release needs no
		 * sequentially consistent fence).
		 * Thread 0 alone writes the shared fields, after the next doorbell,
		 * while the others wait at the first barrier: no third one.
		 */
		__syncthreads();
		if (threadIdx.x == 0) {
			if (to_dev)
				fence_gpu();
			else
				fence_sys();
			st_relaxed_sys(&vb->ack[slot][part], last);
			idle_since = now_ns();
		}
	}
}
