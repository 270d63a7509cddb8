/* SPDX-License-Identifier: MIT */
/*
 * The sm kernel's block-list descriptor (sm_proto.h) driven by hand, below
 * the copier: a list whose table is written before its doorbell is gathered
 * at its offsets; a second list rung without its table written again (the
 * rule broken: the table must be written before seq is published, for each
 * list) does not deliver its blocks: the CUDA double's kernel faults (it
 * spoils a table it has read), a GPU copies the stale table's blocks. Either
 * way the check below says which; a list that lands as asked fails the test.
 * Skips (77) where no driver loads.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "cuda_api.h"
#include "log.h"
#include "mem.h"
#include "sm_proto.h"

#include "../unit/check.h"
#include "pattern.h"

#define BLK   4096u
#define SLOTS 8u
#define N     4u
#define PARTS 2u
#define WAIT  5000000000ull

extern const char gdr_sm_copy_ptx[]; /* sm_copy.ptx, embedded by the build */

static const struct gdr_cuda_api *cu;
static struct gdr_sm_bell *bell;
static CUstream st;

/* Ring slot 0 with a list of N blocks d2h into host offset 0 (the table as it stands). */
static void ring_list(uint32_t seq)
{
	struct gdr_sm_slot *sl = &bell->slot[0];

	sl->dev_off = N | 0u << 31;
	sl->host_off = 0;
	sl->len_dir = BLK | (uint32_t)GDR_SM_DIR_LIST << 30;
	__atomic_store_n(&sl->seq, seq, __ATOMIC_RELEASE);
}

/* 1: every part acknowledged seq; 0: the kernel failed (its stream's error); -1: time up. */
static int wait_acks(uint32_t seq)
{
	uint64_t t0 = gdr_now_ns();

	while (gdr_now_ns() - t0 < WAIT) {
		unsigned int p = 0;
		CUresult r;

		while (p < PARTS && __atomic_load_n(&bell->ack[0][p], __ATOMIC_ACQUIRE) == seq)
			p++;
		if (p == PARTS)
			return 1;
		r = cu->cuStreamQuery(st);
		if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY)
			return 0;
		usleep(100);
	}
	return -1;
}

/* How many of host's N blocks hold the patterns of the slots in want (seed = slot). */
static unsigned int landed(const uint8_t *host, const uint32_t *want)
{
	unsigned int ok = 0;

	for (uint32_t k = 0; k < N; k++)
		ok += pattern_first_bad(host + k * BLK, BLK, 0, want[k]) == BLK;
	return ok;
}

int main(void)
{
	static const uint32_t first[N] = {5, 0, 7, 2}, second[N] = {1, 6, 3, 4};
	struct gdr_mem g = {0};
	struct gdr_mem_cfg mc = {.gpu = 0};
	CUdeviceptr bell_d = 0, relay_d = 0, dev_d, host_d = 0;
	CUmodule mod = NULL;
	CUfunction fn = NULL;
	unsigned int bps = PARTS;
	uint8_t *host = NULL;
	void *bp = NULL;
	char why[256];
	int got;

	gdr_set_prog("t_sm_list_proto");
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		printf("skip: %s\n", why);
		return 77;
	}
	CHECK(gdr_mem_cuda_init(&g, &mc, NULL) == 0 && g.ops->alloc(&g, SLOTS * BLK) == 0);
	host = g.ops->host_alloc(&g, N * BLK);
	CHECK(host != NULL);
	if (!host)
		return CHECK_DONE();
	dev_d = (CUdeviceptr)(uintptr_t)g.addr;
	CHECK(cu->cuMemHostGetDevicePointer(&host_d, host, 0) == CUDA_SUCCESS);
	CHECK(cu->cuMemHostAlloc(&bp, sizeof(*bell),
				 CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) ==
	      CUDA_SUCCESS);
	bell = bp;
	CHECK(bell && cu->cuMemHostGetDevicePointer(&bell_d, bell, 0) == CUDA_SUCCESS);
	CHECK(cu->cuMemAlloc(&relay_d, sizeof(struct gdr_sm_slot)) == CUDA_SUCCESS &&
	      cu->cuMemsetD8(relay_d, 0, sizeof(struct gdr_sm_slot)) == CUDA_SUCCESS);
	CHECK(cu->cuModuleLoadData(&mod, gdr_sm_copy_ptx) == CUDA_SUCCESS &&
	      cu->cuModuleGetFunction(&fn, mod, GDR_SM_KERNEL) == CUDA_SUCCESS);
	CHECK(cu->cuStreamCreate(&st, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
	if (failures)
		return CHECK_DONE();
	memset(bell, 0, sizeof(*bell));
	for (uint32_t j = 0; j < SLOTS; j++)
		CHECK(gdr_mem_fill_pattern(&g, j * BLK, BLK, j) == 0);
	{
		void *args[] = {&bell_d, &relay_d, &bps, &dev_d, &host_d};

		CHECK(cu->cuLaunchKernel(fn, PARTS, 1, 1, GDR_SM_THREADS, 1, 1, 0, st, args,
					 NULL) == CUDA_SUCCESS);
	}

	/* the rule kept: the table, then the doorbell */
	for (uint32_t k = 0; k < N; k++)
		bell->list[0][k] = first[k] * BLK;
	memset(host, 0, N * BLK);
	ring_list(1);
	got = wait_acks(1);
	CHECK(got == 1, "a list with its table: acknowledged (got %d)", got);
	CHECK(landed(host, first) == N, "a list with its table: its blocks at their offsets");
	printf("  list with its table written before the doorbell: %u of %u blocks landed\n",
	       landed(host, first), N);

	/* the rule broken: the second list's doorbell with the first list's table left */
	memset(host, 0, N * BLK);
	ring_list(2);
	got = wait_acks(2);
	CHECK(got >= 0, "a stale table: the kernel neither failed nor answered");
	CHECK(got == 0 || landed(host, second) < N,
	      "a list rung without its table written landed as asked");
	printf("  list rung without its table written: %s\n",
	       got == 0 ? "the kernel faulted" : "the stale table's blocks copied");
	if (got == 1) { /* a kernel that still runs: stop it */
		bell->slot[0].len_dir = (uint32_t)GDR_SM_DIR_STOP << 30;
		__atomic_store_n(&bell->slot[0].seq, 3, __ATOMIC_RELEASE);
	}
	cu->cuStreamSynchronize(st);
	/* the memory's own state freed (a faulted context may refuse the frees themselves) */
	g.ops->host_free(&g, host, N * BLK);
	g.ops->free(&g);
	return CHECK_DONE();
}
