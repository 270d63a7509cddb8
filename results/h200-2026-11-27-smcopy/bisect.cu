// Bisect the sm copier's per-copy gap against the minimal kernel: the anchor's loop with one
// product trait at a time. flags: 1 SLOT (poll a 64-byte slot: relaxed+acquire 16-byte halves,
// host writes fields, tag, seq), 2 ACKAFTER (thread 0 fences after the barrier, acq_rel, instead
// of every thread before it), 4 RELAY (6 more blocks spin on device memory), 8 POLLER (one more
// block polls another host line). Usage: bisect N flags...  Prints bytes,flags,dir,median,p99.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#include <emmintrin.h>
static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
struct slot { unsigned long long dev; unsigned len, tag; unsigned long long host; unsigned dir, seq; unsigned long long pad[4]; };
__global__ void loop(volatile unsigned *db, volatile slot *sl, volatile unsigned *ack, const int4 *hsrc, int4 *dbuf, int4 *hdst,
                     unsigned nvec, unsigned iters, int mode, int flags, volatile unsigned *stop, volatile unsigned *dstop) {
  __shared__ unsigned go;
  if (blockIdx.x > 0) {
    if (threadIdx.x == 0) {
      if ((flags & 8) && blockIdx.x == 1) { while (stop[16] == 0) { } }
      else { while (dstop[0] == 0) { } }
    }
    return;
  }
  for (unsigned it = 1; it <= iters; it++) {
    if (threadIdx.x == 0) {
      if (flags & 256) { /* one 16-byte relaxed load of half B */
        unsigned long long w2, w3;
        do asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%2+16];" : "=l"(w2), "=l"(w3) : "l"(sl) : "memory");
        while ((unsigned)(w3 >> 32) != it);
      } else if (flags & 512) { /* one 8-byte poll of dir|seq, then the slot (a second round trip) */
        unsigned long long w0, w1, w2, w3;
        do asm volatile("ld.relaxed.sys.u64 %0, [%1+24];" : "=l"(w3) : "l"(sl) : "memory");
        while ((unsigned)(w3 >> 32) != it);
        asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%4];\n\tld.acquire.sys.v2.u64 {%2, %3}, [%4+16];"
                     : "=l"(w0), "=l"(w1), "=l"(w2), "=l"(w3) : "l"(sl) : "memory");
        if ((unsigned)(w1 >> 32) != it) go = 0;
      } else if (flags & 1024) { /* four 8-byte relaxed loads */
        unsigned long long w0, w1, w2, w3;
        do asm volatile("ld.relaxed.sys.u64 %0, [%4];\n\tld.relaxed.sys.u64 %1, [%4+8];\n\tld.relaxed.sys.u64 %2, [%4+16];\n\tld.relaxed.sys.u64 %3, [%4+24];"
                        : "=l"(w0), "=l"(w1), "=l"(w2), "=l"(w3) : "l"(sl) : "memory");
        while (!((unsigned)(w1 >> 32) == it && (unsigned)(w3 >> 32) == it));
      } else if (flags & 2048) { /* one 16-byte acquire load of half B, then half A */
        unsigned long long w0, w1, w2, w3;
        do asm volatile("ld.acquire.sys.v2.u64 {%0, %1}, [%2+16];" : "=l"(w2), "=l"(w3) : "l"(sl) : "memory");
        while ((unsigned)(w3 >> 32) != it);
        asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%2];" : "=l"(w0), "=l"(w1) : "l"(sl) : "memory");
        if ((unsigned)(w1 >> 32) != it) go = 0;
      } else if (flags & 1) {
        unsigned long long w0, w1, w2, w3;
        do {
          if (flags & 32)
            asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%4];\n\tld.relaxed.sys.v2.u64 {%2, %3}, [%4+16];"
                         : "=l"(w0), "=l"(w1), "=l"(w2), "=l"(w3) : "l"(sl) : "memory");
          else
            asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%4];\n\tld.acquire.sys.v2.u64 {%2, %3}, [%4+16];"
                         : "=l"(w0), "=l"(w1), "=l"(w2), "=l"(w3) : "l"(sl) : "memory");
        } while (!((unsigned)(w1 >> 32) == it && (unsigned)(w3 >> 32) == it));
      } else {
        while (*db != it) { }
      }
      go = it;
    }
    __syncthreads();
    if (mode == 0) for (unsigned i = threadIdx.x; i < nvec; i += blockDim.x) dbuf[i] = __ldcv(hsrc + i);
    else for (unsigned i = threadIdx.x; i < nvec; i += blockDim.x) hdst[i] = dbuf[i];
    if (!(flags & 2)) { if (mode == 0) __threadfence(); else __threadfence_system(); }
    __syncthreads();
    if (threadIdx.x == 0) {
      if (flags & 2) { if (mode == 0) asm volatile("fence.acq_rel.gpu;" ::: "memory"); else asm volatile("fence.acq_rel.sys;" ::: "memory"); }
      *ack = go;
    }
  }
}
int main(int argc, char **argv) {
  const int N = argc > 1 ? atoi(argv[1]) : 10000, W = 500;
  size_t sizes[] = {8, 4096};
  const char *mname[] = {"h2d", "d2h"};
  unsigned *db, *ack, *stop, *dstop_d; int4 *hsrc, *hdst, *dbuf; slot *sl;
  CK(cudaSetDevice(0));
  CK(cudaHostAlloc(&db, 4096, cudaHostAllocMapped)); CK(cudaHostAlloc(&ack, 64, cudaHostAllocMapped));
  CK(cudaHostAlloc(&sl, 4096, cudaHostAllocMapped)); CK(cudaHostAlloc(&stop, 4096, cudaHostAllocMapped));
  CK(cudaHostAlloc(&hsrc, 1 << 20, cudaHostAllocMapped)); CK(cudaHostAlloc(&hdst, 1 << 20, cudaHostAllocMapped));
  CK(cudaMalloc(&dbuf, 1 << 20)); CK(cudaMalloc(&dstop_d, 64));
  unsigned *ddb, *dack, *dstop; int4 *dhsrc, *dhdst; slot *dsl;
  CK(cudaHostGetDevicePointer(&ddb, db, 0)); CK(cudaHostGetDevicePointer(&dack, ack, 0)); CK(cudaHostGetDevicePointer(&dsl, sl, 0));
  CK(cudaHostGetDevicePointer(&dstop, stop, 0));
  CK(cudaHostGetDevicePointer(&dhsrc, hsrc, 0)); CK(cudaHostGetDevicePointer(&dhdst, hdst, 0));
  cudaStream_t ks; CK(cudaStreamCreateWithFlags(&ks, cudaStreamNonBlocking));
  std::vector<double> t(N);
  printf("bytes,flags,dir,median_us,p99_us\n");
  for (int a = 2; a < argc; a++) {
    int flags = atoi(argv[a]);
    for (size_t sz : sizes)
      for (int mode = 0; mode < 2; mode++) {
        unsigned nvec = (unsigned)((sz + 15) / 16);
        int extra = ((flags & 8) ? 1 : 0) + ((flags & 4) ? 6 : 0);
        memset(db, 0, 64); memset(sl, 0, 64); *(volatile unsigned *)ack = 0; memset(stop, 0, 4096);
        CK(cudaMemset(dstop_d, 0, 64)); CK(cudaDeviceSynchronize());
        loop<<<1 + extra, 256, 0, ks>>>(ddb, dsl, dack, dhsrc, dbuf, dhdst, nvec, N + W, mode, flags, dstop, dstop_d);
        CK(cudaGetLastError());
        for (int i = -W; i < N; i++) {
          unsigned it = (unsigned)(i + W + 1);
          ((volatile unsigned char *)hsrc)[0] = (unsigned char)it;
          double t0 = now_us();
          if ((flags & 1) && (flags & 64)) {
            unsigned long long *w = (unsigned long long *)sl;
            __atomic_store_n(&w[0], 1ULL, __ATOMIC_RELAXED); __atomic_store_n(&w[1], sz | (unsigned long long)it << 32, __ATOMIC_RELEASE);
            __atomic_store_n(&w[2], 2ULL, __ATOMIC_RELAXED); __atomic_store_n(&w[3], (unsigned long long)mode | (unsigned long long)it << 32, __ATOMIC_RELEASE);
          } else if ((flags & 1) && (flags & 128)) {
            __m128i a = _mm_set_epi64x((long long)(sz | (unsigned long long)it << 32), 1), b = _mm_set_epi64x((long long)((unsigned long long)mode | (unsigned long long)it << 32), 2);
            _mm_store_si128((__m128i *)sl, a); _mm_store_si128((__m128i *)sl + 1, b);
          } else if (flags & 1) {
            volatile slot *v = sl;
            if (!(flags & 16)) { v->dev = 1; v->host = 2; v->len = (unsigned)sz; v->dir = mode; }
            __atomic_store_n(&sl->tag, it, __ATOMIC_RELEASE); __atomic_store_n(&sl->seq, it, __ATOMIC_RELEASE);
          } else { __sync_synchronize(); *(volatile unsigned *)db = it; }
          while (*(volatile unsigned *)ack != it) { }
          if (i >= 0) t[i] = now_us() - t0;
        }
        ((volatile unsigned *)stop)[16] = 1;
        unsigned one = 1; CK(cudaMemcpyAsync(dstop_d, &one, 4, cudaMemcpyHostToDevice, 0));
        CK(cudaStreamSynchronize(ks));
        std::sort(t.begin(), t.end()); printf("%zu,%d,%s,%.2f,%.2f\n", sz, flags, mname[mode], t[N / 2], t[N * 99 / 100]);
        fflush(stdout);
      }
  }
  return 0;
}
