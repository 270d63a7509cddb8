// SPDX-License-Identifier: MIT
/*
 * Anchors for KV-cache-shaped staging (issue 46): a batch of scattered blocks of
 * GPU memory gathered into one contiguous pinned host buffer (what a staged sender
 * copies before one RDMA write), and the host buffer scattered back into blocks (what
 * a staged receiver copies after it), by each way a KV engine would write it:
 *
 *   kernel  one launch of a minimal gather/scatter kernel over the batch's block table
 *           (the table lives in GPU memory, written once per shape, as an engine's is)
 *   ce      one cuMemcpyAsync per block on one stream (the copy engine block by block)
 *   batch   the driver's batched copy, cuMemcpyBatchAsync, all blocks in one call
 *   contig  the same bytes as ONE copy: the reference for efficiency (not a gather)
 *
 * Each sample is issue + stream synchronise of one batch, timed on the host's
 * CLOCK_MONOTONIC (the time an engine waits for it); median and p99 over every sample;
 * GB/s = block x batch / median (1 GB = 1e9 bytes); eff = contig's median / this median
 * (same bytes, same direction). Every method's result is checked (first and last 8 bytes of
 * every block) before its figure is printed: a wrong copy prints FAIL, not a number.
 * Usage: kv_gather_probe [samples] [pool MiB]  (defaults 200, 2048). Prints CSV.
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

#define CK(x)                                                                              \
	do {                                                                                \
		cudaError_t e_ = (x);                                                       \
		if (e_ != cudaSuccess) {                                                    \
			fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x,           \
				cudaGetErrorString(e_));                                    \
			exit(1);                                                            \
		}                                                                           \
	} while (0)

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* dir 0: gather pool[off[b]] -> host[b*block]; dir 1: scatter host[b*block] -> pool[off[b]]. */
__global__ void kv_copy(uint8_t *pool, uint8_t *host, const uint64_t *off, uint32_t nblk,
			uint32_t block, int dir)
{
	uint32_t per = block / 16; /* 16-byte words a block */
	uint64_t total = (uint64_t)per * nblk;

	for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < total;
	     w += (uint64_t)gridDim.x * blockDim.x) {
		uint32_t b = (uint32_t)(w / per), i = (uint32_t)(w % per);
		uint4 *g = (uint4 *)(pool + off[b]) + i;
		uint4 *h = (uint4 *)(host + (uint64_t)b * block) + i;

		if (dir == 0)
			*h = *g;
		else
			*g = *h;
	}
}

__global__ void fill(uint64_t *p, uint64_t n, uint64_t salt)
{
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (uint64_t)gridDim.x * blockDim.x)
		p[i] = (i * 8) ^ salt;
}

struct shape {
	uint32_t block, batch;
};

static double pct(std::vector<double> v, double q)
{
	std::sort(v.begin(), v.end());
	size_t k = (size_t)(q * (double)(v.size() - 1) + 0.5);
	return v[k];
}

int main(int argc, char **argv)
{
	int samples = argc > 1 ? atoi(argv[1]) : 200;
	size_t pool_len = (size_t)(argc > 2 ? atoi(argv[2]) : 2048) << 20;
	const uint32_t blocks[] = {16384, 65536, 262144, 655360};
	const uint32_t batches[] = {1, 8, 64, 512};
	const char *mname[] = {"kernel", "ce", "batch", "contig"};
	uint8_t *pool, *host;
	uint64_t *doff;
	cudaStream_t st;
	int dev = 0, sms = 0;
	cudaDeviceProp prop;

	if (samples < 10 || pool_len < (64u << 20)) {
		fprintf(stderr, "usage: kv_gather_probe [samples >= 10] [pool MiB >= 64]\n");
		return 2;
	}
	CK(cudaSetDevice(dev));
	CK(cudaGetDeviceProperties(&prop, dev));
	sms = prop.multiProcessorCount;
	size_t host_len = (size_t)655360 * 512;
	CK(cudaMalloc(&pool, pool_len));
	CK(cudaHostAlloc(&host, host_len, cudaHostAllocMapped));
	CK(cudaMalloc(&doff, 512 * sizeof(uint64_t)));
	CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
	printf("# %s, %d SMs; pool %zu MiB of GPU memory, random block placement (seed 1), "
	       "%d samples per row; CUDA %d\n",
	       prop.name, sms, pool_len >> 20, samples, CUDA_VERSION);
	printf("dir,block_B,batch,method,median_us,p99_us,GBps,eff_vs_contig,check\n");
	srand(1);
	for (uint32_t bi = 0; bi < sizeof(blocks) / sizeof(blocks[0]); bi++)
		for (uint32_t ti = 0; ti < sizeof(batches) / sizeof(batches[0]); ti++) {
			struct shape s = {blocks[bi], batches[ti]};
			uint64_t slots = pool_len / s.block;
			std::vector<uint64_t> slot(slots), off(s.batch);

			if (slots < s.batch)
				continue;
			for (uint64_t i = 0; i < slots; i++)
				slot[i] = i;
			for (uint32_t b = 0; b < s.batch; b++) { /* partial Fisher-Yates: distinct */
				uint64_t j = b + ((uint64_t)rand() * RAND_MAX + rand()) % (slots - b);
				std::swap(slot[b], slot[j]);
				off[b] = slot[b] * s.block;
			}
			CK(cudaMemcpy(doff, off.data(), s.batch * 8, cudaMemcpyHostToDevice));
			for (int dir = 0; dir < 2; dir++) {
				double contig_med = 0;
				/* contig first: the reference of this shape and direction */
				for (int mi = 3, seen = 0; seen < 4; mi = (mi + 1) % 4, seen++) {
					std::vector<CUdeviceptr> dsts(s.batch), srcs(s.batch);
					std::vector<size_t> sizes(s.batch, s.block);
					std::vector<double> t;
					uint64_t salt = ((uint64_t)dir << 60) ^ ((uint64_t)mi << 56) ^
							((uint64_t)s.block << 20) ^ s.batch;
					bool ok = true;
					const char *check = "ok";
					size_t bytes = (size_t)s.block * s.batch;

					for (uint32_t b = 0; b < s.batch; b++) {
						CUdeviceptr g = (CUdeviceptr)(pool + off[b]);
						CUdeviceptr h = (CUdeviceptr)(host + (size_t)b * s.block);

						dsts[b] = dir == 0 ? h : g;
						srcs[b] = dir == 0 ? g : h;
					}
					/* sources hold a known pattern; destinations cleared */
					if (dir == 0) {
						fill<<<sms * 4, 256, 0, st>>>((uint64_t *)pool, pool_len / 8, salt);
						memset(host, 0, bytes);
					} else {
						for (size_t i = 0; i < bytes / 8; i++)
							((uint64_t *)host)[i] = (i * 8) ^ salt;
						CK(cudaMemsetAsync(pool, 0, pool_len, st));
					}
					CK(cudaStreamSynchronize(st));
					for (int k = 0; k < samples + 3 && ok; k++) {
						uint64_t t0 = now_ns();

						if (mi == 0) {
							uint32_t want = (uint32_t)(bytes / 16 / 256) + 1;
							uint32_t grid = want < (uint32_t)sms * 4 ? want : sms * 4;

							kv_copy<<<grid, 256, 0, st>>>(pool, host, doff, s.batch,
										 s.block, dir);
							ok = cudaGetLastError() == cudaSuccess;
						} else if (mi == 1) {
							for (uint32_t b = 0; b < s.batch && ok; b++)
								ok = cuMemcpyAsync(dsts[b], srcs[b], s.block,
										   st) == CUDA_SUCCESS;
						} else if (mi == 2) {
#if CUDA_VERSION >= 12080
							CUmemcpyAttributes a;
							size_t idx = 0;

							memset(&a, 0, sizeof(a));
							a.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
							a.srcLocHint.type = CU_MEM_LOCATION_TYPE_HOST;
							a.dstLocHint.type = CU_MEM_LOCATION_TYPE_HOST;
#if CUDA_VERSION >= 13000
							ok = cuMemcpyBatchAsync(dsts.data(), srcs.data(),
										sizes.data(), s.batch, &a,
										&idx, 1, st) == CUDA_SUCCESS;
#else
							size_t fail = 0;

							ok = cuMemcpyBatchAsync(dsts.data(), srcs.data(),
										sizes.data(), s.batch, &a,
										&idx, 1, &fail,
										st) == CUDA_SUCCESS;
#endif
#else
							ok = false;
							check = "absent (CUDA < 12.8)";
#endif
						} else {
							CUdeviceptr g = (CUdeviceptr)(pool + off[0]);

							/* one copy of the same bytes: contiguous GPU range */
							g = (CUdeviceptr)pool;
							ok = cuMemcpyAsync(dir == 0 ? (CUdeviceptr)host : g,
									   dir == 0 ? g : (CUdeviceptr)host,
									   bytes, st) == CUDA_SUCCESS;
						}
						ok = ok && cudaStreamSynchronize(st) == cudaSuccess;
						if (k >= 3)
							t.push_back((now_ns() - t0) / 1e3);
					}
					if (!ok) {
						if (!strcmp(check, "ok"))
							check = "FAIL: copy call failed";
					} else if (mi != 3) {
						/* every block's first and last word */
						for (uint32_t b = 0; b < s.batch && ok; b++) {
							uint64_t w[2], e[2];
							size_t hb = (size_t)b * s.block;

							for (int z = 0; z < 2; z++) {
								size_t in = z ? s.block - 8 : 0;
								uint8_t *gp = pool + off[b] + in;

								CK(cudaMemcpy(&w[z], dir == 0 ? (void *)(host + hb + in) : (void *)gp, 8, cudaMemcpyDefault));
								e[z] = dir == 0 ? ((off[b] + in) ^ salt) : ((hb + in) ^ salt);
							}
							ok = w[0] == e[0] && w[1] == e[1];
						}
						if (!ok)
							check = "FAIL: wrong bytes";
					}
					if (!ok) {
						printf("%s,%u,%u,%s,,,,,%s\n", dir ? "scatter" : "gather", s.block,
						       s.batch, mname[mi], check);
						continue;
					}
					double med = pct(t, 0.5), p99 = pct(t, 0.99);

					if (mi == 3)
						contig_med = med;
					printf("%s,%u,%u,%s,%.2f,%.2f,%.2f,%.3f,%s\n", dir ? "scatter" : "gather",
					       s.block, s.batch, mname[mi], med, p99, bytes / med / 1e3,
					       contig_med > 0 ? contig_med / med : 0.0, check);
					fflush(stdout);
				}
			}
		}
	return 0;
}
