/* SPDX-License-Identifier: MIT */
/*
 * Conformance: the driver's batched copy, cuMemcpyBatchAsync (docs/kv.md,
 * "Rules this relies on"), which the batch copier (src/staging/copier_batch.c)
 * issues once per block list. Both forms are asked of the driver by version
 * (13.0: _v2, no failIdx; 12.8: failIdx), as gdrperf's loader does.
 *
 *   batch_forms  which forms the driver offers;
 *   batch_args   what it refuses before any copy: count 0, no attributes, the
 *                first attribute index not 0, an invalid source access order,
 *                an unknown flag, the legacy NULL stream;
 *   batch_range  a copy running past its allocation's end: refused, failIdx
 *                that copy (a refusal without a copy at fault: SIZE_MAX), and
 *                the valid copy before it not run;
 *   batch_order  with the source read in stream order the batch sees the work
 *                queued before it, and work queued after it does not reach it.
 */
#include "config.h"
#include <stdint.h>
#include <string.h>
#include "conf.h"

#undef cuMemcpyBatchAsync

#define BLK  (64UL << 10)
#define NBLK 8
#define DEV  (2UL << 20)

typedef CUresult (*v2_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *,
			  size_t *, size_t, CUstream);
typedef CUresult (*v1_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *,
			  size_t *, size_t, size_t *, CUstream);

static v2_fn v2;
static v1_fn v1;

/* One batch through the form there is; *fail from the 12.8 form, SIZE_MAX otherwise. */
static CUresult run(CUdeviceptr *d, CUdeviceptr *s, size_t *len, size_t n, CUmemcpyAttributes *a,
		    size_t *idx, size_t na, size_t *fail, CUstream st)
{
	*fail = SIZE_MAX;
	if (v1)
		return v1(d, s, len, n, a, idx, na, fail, st);
	return v2(d, s, len, n, a, idx, na, st);
}

static const char *fail_name(size_t f)
{
	static char buf[32];

	if (f == SIZE_MAX)
		return "none";
	snprintf(buf, sizeof(buf), "copy%zu", f);
	return buf;
}

int main(void)
{
	const struct gdr_cuda_api *cu = conf_load("c_batch");
	CUmemcpyAttributes a, bad;
	CUdeviceptr dev = 0, dst[NBLK], src[NBLK];
	size_t len[NBLK], idx[2] = {0, 1}, fail, f_arg, f_range;
	CUresult r_count, r_nattrs, r_idx, r_order, r_flags, r_legacy, r_range, r_ok;
	uint8_t *h = NULL, *g = NULL, *z = NULL;
	CUstream st = NULL;
	int queued = 0, order_ok = 1;

	v2 = (v2_fn)conf_sym("cuMemcpyBatchAsync", 13000);
	v1 = (v1_fn)conf_sym("cuMemcpyBatchAsync", 12080);
	printf("RULE batch_forms v13_0=%s v12_8=%s\n", v2 ? "yes" : "no", v1 ? "yes" : "no");
	if (!v1 && !v2)
		return 0;
	conf_context(cu);
	if (cu->cuMemAlloc(&dev, DEV) || cu->cuMemAllocHost((void **)&h, NBLK * BLK) ||
	    cu->cuMemAllocHost((void **)&g, NBLK * BLK) || cu->cuMemAllocHost((void **)&z, BLK) ||
	    cu->cuStreamCreate(&st, CU_STREAM_NON_BLOCKING)) {
		printf("error: cannot set up 2 MiB, pinned host memory and a stream\n");
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
	a.srcLocHint.type = CU_MEM_LOCATION_TYPE_DEVICE;
	a.dstLocHint.type = CU_MEM_LOCATION_TYPE_HOST;
	/* gather: device block k (every other 64 KiB, backwards) to host k x BLK */
	for (size_t k = 0; k < NBLK; k++) {
		src[k] = dev + (NBLK - 1 - k) * 2 * BLK;
		dst[k] = (CUdeviceptr)(uintptr_t)(g + k * BLK);
		len[k] = BLK;
	}
	r_count = run(dst, src, len, 0, &a, idx, 1, &f_arg, st);
	r_nattrs = run(dst, src, len, NBLK, &a, idx, 0, &fail, st);
	idx[0] = 1;
	r_idx = run(dst, src, len, NBLK, &a, idx, 1, &fail, st);
	idx[0] = 0;
	bad = a;
	bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
	r_order = run(dst, src, len, NBLK, &bad, idx, 1, &fail, st);
	bad = a;
	bad.flags = 0x80;
	r_flags = run(dst, src, len, NBLK, &bad, idx, 1, &fail, st);
	r_legacy = run(dst, src, len, NBLK, &a, idx, 1, &fail, NULL);
	printf("RULE batch_args count0=%s nattrs0=%s first_idx1=%s order_invalid=%s "
	       "flag_unknown=%s legacy_stream=%s\n",
	       conf_name(r_count), conf_name(r_nattrs), conf_name(r_idx), conf_name(r_order),
	       conf_name(r_flags), conf_name(r_legacy));

	/* copy 0 valid, copy 1 from 1 KiB before the allocation's end, 64 KiB long */
	for (size_t i = 0; i < NBLK * BLK; i++)
		h[i] = (uint8_t)(i * 13 + i / 251 + 1);
	memset(g, 0, NBLK * BLK);
	if (cu->cuMemcpyHtoD(dev, h, BLK)) {
		printf("error: cannot fill the device block\n");
		return 1;
	}
	src[1] = dev + DEV - 1024;
	r_range = run(dst, src, len, 2, &a, idx, 1, &f_range, st);
	cu->cuStreamSynchronize(st);
	src[1] = dev + (NBLK - 2) * 2 * BLK;
	for (size_t i = 0; i < BLK; i++)
		queued |= g[i] != 0;
	printf("RULE batch_range past_end=%s fail_idx=%s arg_fail_idx=%s nothing_queued=%s\n",
	       conf_name(r_range), v1 ? fail_name(f_range) : "no-form",
	       v1 ? fail_name(f_arg) : "no-form", queued ? "no" : "yes");

	/* stream order: upload h, the batch gathers it, then zeros overwrite the device blocks */
	memset(g, 0, NBLK * BLK);
	memset(z, 0, BLK);
	for (size_t k = 0; k < NBLK; k++)
		if (cu->cuMemcpyHtoDAsync(src[k], h + k * BLK, BLK, st)) {
			printf("error: cannot queue an upload\n");
			return 1;
		}
	r_ok = run(dst, src, len, NBLK, &a, idx, 1, &fail, st);
	for (size_t k = 0; k < NBLK && !r_ok; k++)
		if (cu->cuMemcpyHtoDAsync(src[k], z, BLK, st)) {
			printf("error: cannot queue an upload after the batch\n");
			return 1;
		}
	cu->cuStreamSynchronize(st);
	for (size_t i = 0; i < NBLK * BLK; i++)
		if (g[i] != h[i]) {
			order_ok = 0;
			printf("# info first wrong byte at %zu: %u, want %u\n", i, g[i], h[i]);
			break;
		}
	printf("RULE batch_order result=%s bytes=%s\n", conf_name(r_ok),
	       order_ok ? "in-order" : "wrong");
	cu->cuStreamDestroy(st);
	cu->cuMemFreeHost(h);
	cu->cuMemFreeHost(g);
	cu->cuMemFreeHost(z);
	cu->cuMemFree(dev);
	return 0;
}
