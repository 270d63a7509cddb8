/* SPDX-License-Identifier: MIT */
/*
 * CUDA double: cuMemcpyBatchAsync, in both forms a driver offers (CUDA 12.8:
 * failIdx; CUDA 13, _v2: none), only to a driver version that has it
 * (GDR_DOUBLE_VERSION below 12080: the symbol is unknown, as on such a driver).
 * It keeps the rules of docs/kv.md's batched-copy table
 * (tests/conformance/c_batch holds them to the real driver):
 *   - count 0, a NULL array, numAttrs 0 or above count, attrsIdxs not starting
 *     at 0 or not rising below count, a srcAccessOrder not STREAM,
 *     DURING_API_CALL or ANY, an unknown flag, the legacy NULL stream:
 *     CUDA_ERROR_INVALID_VALUE, failIdx SIZE_MAX (no copy at fault);
 *   - a copy whose device side starts in an allocation and runs past its end:
 *     CUDA_ERROR_INVALID_VALUE, failIdx that copy;
 *   - a refused batch queues nothing; an accepted one runs on the stream in
 *     order with the work before and after it, as cuMemcpyAsync does.
 * GDR_DOUBLE_BATCHES=FILE: one line per accepted batch, its form and count
 * (tests tell one batched call from per-block copies).
 */
#include "dbl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#undef cuMemcpyBatchAsync

static int order_ok(CUmemcpySrcAccessOrder o)
{
	return o == CU_MEMCPY_SRC_ACCESS_ORDER_STREAM ||
	       o == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL ||
	       o == CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
}

/* A side of a copy: 0 when it is not device memory or lies in one allocation, else -1. */
static int side_ok(CUdeviceptr p, size_t len)
{
	return !dbl_find((uintptr_t)p, 1) || dbl_find((uintptr_t)p, len) ? 0 : -1;
}

static void log_batch(const char *form, size_t count)
{
	const char *path = getenv("GDR_DOUBLE_BATCHES");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "cuMemcpyBatchAsync form %s count %zu pid %ld\n", form, count, (long)getpid());
	fclose(f);
}

static CUresult batch(const char *form, CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes,
		      size_t count, CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs,
		      size_t *fail, CUstream s)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);

	*fail = SIZE_MAX;
	if (r)
		return r;
	if (!count || !dsts || !srcs || !sizes || !attrs || !idx || !nattrs || nattrs > count ||
	    s == NULL || s == CU_STREAM_LEGACY)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t a = 0; a < nattrs; a++)
		if ((a == 0 ? idx[a] != 0 : idx[a] <= idx[a - 1]) || idx[a] >= count ||
		    !order_ok(attrs[a].srcAccessOrder) ||
		    (attrs[a].flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE))
			return CUDA_ERROR_INVALID_VALUE;
	for (size_t k = 0; k < count; k++)
		if (side_ok(dsts[k], sizes[k]) || side_ok(srcs[k], sizes[k])) {
			*fail = k;
			return CUDA_ERROR_INVALID_VALUE;
		}
	for (size_t k = 0; k < count; k++) {
		struct dbl_op op = {.kind = DBL_OP_COPY,
				    .dst = (void *)(uintptr_t)dsts[k],
				    .src = (const void *)(uintptr_t)srcs[k],
				    .len = sizes[k]};

		op.fail = dbl_fault_copy(); /* an injected fault shows at the stream */
		r = dbl_stream_submit(s, &op);
		if (r)
			return r;
	}
	log_batch(form, count);
	return CUDA_SUCCESS;
}

/* The CUDA 13 form (cuMemcpyBatchAsync_v2): no failIdx. */
static CUresult batch_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
			 CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs, CUstream s)
{
	size_t fail;

	return batch("13.0", dsts, srcs, sizes, count, attrs, idx, nattrs, &fail, s);
}

/* The CUDA 12.8 form: failIdx (which may not be NULL). */
static CUresult batch_v1(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
			 CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs, size_t *fail,
			 CUstream s)
{
	if (!fail)
		return CUDA_ERROR_INVALID_VALUE;
	return batch("12.8", dsts, srcs, sizes, count, attrs, idx, nattrs, fail, s);
}

/* Newest form first: cuGetProcAddress gives the newest not newer than the version asked. */
const struct dbl_fn dbl_batch_fns[] = {
    {"cuMemcpyBatchAsync", (void *)batch_v2, 13000},
    {"cuMemcpyBatchAsync", (void *)batch_v1, 12080},
    {NULL, NULL, 0},
};
