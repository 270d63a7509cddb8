/* SPDX-License-Identifier: MIT */
/*
 * sm_bench [ITERS [SIZE...]]: the staging copy's round trip (N bytes host to
 * GPU, then back) through the sm copier (doorbell, kernel, acknowledgement)
 * and through the copy engine as gdrperf stages today (cuMemcpyHtoDAsync +
 * cuMemcpyDtoHAsync on one stream + cuStreamSynchronize), median and p99 in
 * microseconds per size, both on the same GPU, buffers and bounce memory;
 * each size's data is checked once. GPU 0 (or the double GDR_LIBCUDA names).
 * Blocks per lane of the sm kernel: GDR_SM_BLOCKS. Run by scripts/gpu/sm-bench.sh.
 *
 * GDR_SM_BENCH=percopy: instead, one copy at a time per direction (doorbell
 * to acknowledgement; copy engine: one cuMemcpyAsync + stream sync), median
 * and p99, as ../shared/probes' minimal kernel measures its anchor, one CSV
 * line per size and direction (scripts/gpu/sm-anchor.sh sets them side by side).
 *
 * GDR_SM_BENCH=resident: the copy engine's per-copy time (as percopy) with no
 * sm copier open, then with one open and its kernel resident (polling), then
 * with it parked (copier.h: what a run does outside the staged path), one
 * CSV line per size, direction and state (issue 33 item 3).
 */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "copier_sm.h"
#include "cuda_api.h"
#include "cuda_skip.h"
#include "log.h"
#include "mem.h"

#define MAX_LEN (1UL << 20)
#define WAIT_NS 2000000000ULL
#define WARM	200

static const struct gdr_cuda_api *cu;
static struct gdr_mem dev, bounce;
static CUstream ce_stream;

static int wait_all(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	while (cp->done[d] < cp->submitted[d]) {
		int n = cp->ops->reap(cp, d);

		if (n < 0)
			return -1;
		cp->done[d] += (uint64_t)n;
	}
	return 0;
}

static int sm_trip(struct gdr_copier *cp, uint8_t *a, uint8_t *b, size_t len)
{
	if (cp->ops->submit(cp, GDR_FROM_HOST, 0, a, len))
		return -1;
	cp->submitted[GDR_FROM_HOST]++;
	if (wait_all(cp, GDR_FROM_HOST) || cp->ops->submit(cp, GDR_TO_HOST, 0, b, len))
		return -1;
	cp->submitted[GDR_TO_HOST]++;
	return wait_all(cp, GDR_TO_HOST);
}

static int ce_trip(uint8_t *a, uint8_t *b, size_t len)
{
	CUdeviceptr d = (CUdeviceptr)(uintptr_t)dev.addr;

	if (cu->cuMemcpyHtoDAsync(d, a, len, ce_stream) ||
	    cu->cuMemcpyDtoHAsync(b, d, len, ce_stream) || cu->cuStreamSynchronize(ce_stream)) {
		gdr_err("copy engine round trip of %zu bytes failed", len);
		return -1;
	}
	return 0;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* Median and p99 of n round trips in microseconds; -1 when one failed or the data is wrong. */
static int measure(struct gdr_copier *cp, size_t len, unsigned int n, double *t, double *med,
		   double *p99)
{
	uint8_t *a = bounce.addr, *b = a + MAX_LEN;
	unsigned int i;

	for (i = 0; i < len; i++)
		a[i] = (uint8_t)(i * 131 + len);
	memset(b, 0, len);
	if ((cp ? sm_trip(cp, a, b, len) : ce_trip(a, b, len)) || memcmp(a, b, len)) {
		gdr_err("%s: the %zu-byte round trip did not bring the data back", cp ? "sm" : "ce",
			len);
		return -1;
	}
	for (i = 0; i < WARM + n; i++) {
		uint64_t t0 = gdr_now_ns();

		if (cp ? sm_trip(cp, a, b, len) : ce_trip(a, b, len))
			return -1;
		if (i >= WARM)
			t[i - WARM] = (double)(gdr_now_ns() - t0) * 1e-3;
	}
	qsort(t, n, sizeof(*t), cmp_dbl);
	*med = t[n / 2];
	*p99 = t[(size_t)n * 99 / 100];
	return 0;
}

static int sm_one(struct gdr_copier *cp, enum gdr_copy_dir d, uint8_t *h, size_t len)
{
	if (cp->ops->submit(cp, d, 0, h, len))
		return -1;
	cp->submitted[d]++;
	return wait_all(cp, d);
}

static int ce_one(enum gdr_copy_dir d, uint8_t *h, size_t len)
{
	CUdeviceptr dp = (CUdeviceptr)(uintptr_t)dev.addr;

	if ((d == GDR_FROM_HOST ? cu->cuMemcpyHtoDAsync(dp, h, len, ce_stream)
				: cu->cuMemcpyDtoHAsync(h, dp, len, ce_stream)) ||
	    cu->cuStreamSynchronize(ce_stream)) {
		gdr_err("copy engine copy of %zu bytes failed", len);
		return -1;
	}
	return 0;
}

/* One direction, one copy at a time: median and p99 in microseconds. */
static int percopy(struct gdr_copier *cp, enum gdr_copy_dir d, size_t len, unsigned int n,
		   double *t, double *med, double *p99)
{
	uint8_t *up = bounce.addr, *h = d == GDR_FROM_HOST ? up : up + MAX_LEN;
	unsigned int i;

	for (i = 0; i < WARM + n; i++) {
		uint64_t t0;

		/* The host writes the host-to-device source's first line, as the anchor does. */
		((volatile uint8_t *)up)[0] = (uint8_t)i;
		t0 = gdr_now_ns();
		if (cp ? sm_one(cp, d, h, len) : ce_one(d, h, len))
			return -1;
		if (i >= WARM)
			t[i - WARM] = (double)(gdr_now_ns() - t0) * 1e-3;
	}
	qsort(t, n, sizeof(*t), cmp_dbl);
	*med = t[n / 2];
	*p99 = t[(size_t)n * 99 / 100];
	return 0;
}

static int percopy_table(struct gdr_copier *cp, int nsz, char **sizes, unsigned int iters,
			 double *t)
{
	static const size_t def[] = {8, 64, 256, 4096, 16384, 65536};
	int i, n = nsz ? nsz : (int)(sizeof(def) / sizeof(def[0]));

	printf("percopy,bytes,dir,sm_med_us,sm_p99_us,ce_med_us,ce_p99_us\n");
	for (i = 0; i < n; i++) {
		size_t len = nsz ? strtoul(sizes[i], NULL, 10) : def[i];

		for (int d = GDR_FROM_HOST; d >= GDR_TO_HOST; d--) {
			enum gdr_copy_dir cd = (enum gdr_copy_dir)d;
			double sm_m, sm_p, ce_m, ce_p;

			if (percopy(cp, cd, len, iters, t, &sm_m, &sm_p) ||
			    percopy(NULL, cd, len, iters, t, &ce_m, &ce_p))
				return 1;
			printf("percopy,%zu,%s,%.2f,%.2f,%.2f,%.2f\n", len,
			       cd == GDR_FROM_HOST ? "h2d" : "d2h", sm_m, sm_p, ce_m, ce_p);
			fflush(stdout);
		}
	}
	return 0;
}

/* The copy engine alone, with the sm kernel resident, with it parked. */
static int resident_table(struct gdr_copier *cp, unsigned int iters, double *t)
{
	static const size_t sz[] = {8, 4096, 65536, 1048576};
	static const char *state[] = {"alone", "sm_resident", "sm_parked"};
	double med[3][8][2], p99[3][8][2];
	char why[160];

	for (int st = 0; st < 3; st++) {
		if (st == 1 && (gdr_copier_sm_ops.open(cp, why, sizeof(why)) ||
				!(cp->ops = &gdr_copier_sm_ops))) {
			gdr_err("sm copier: %s", why);
			return 1;
		}
		if (st == 2 && gdr_copier_park(cp))
			return 1;
		for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++)
			for (int d = 0; d < 2; d++)
				if (percopy(NULL, (enum gdr_copy_dir)d, sz[i], iters, t,
					    &med[st][i][d], &p99[st][i][d]))
					return 1;
	}
	printf("resident,bytes,dir,state,ce_med_us,ce_p99_us\n");
	for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++)
		for (int d = 1; d >= 0; d--)
			for (int st = 0; st < 3; st++)
				printf("resident,%zu,%s,%s,%.2f,%.2f\n", sz[i], d ? "h2d" : "d2h",
				       state[st], med[st][i][d], p99[st][i][d]);
	gdr_copier_sm_ops.close(cp);
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t def[] = {8, 64, 512, 4096, 16384, 65536, 262144, MAX_LEN};
	unsigned int iters = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 20000;
	const char *blocks = getenv("GDR_SM_BLOCKS"), *mode = getenv("GDR_SM_BENCH");
	struct gdr_copier cp = {0};
	struct gdr_mem_cfg mc = {.gpu = 0};
	CUcontext ctx;
	char why[256];
	double *t;
	int i, nsz = argc > 2 ? argc - 2 : (int)(sizeof(def) / sizeof(def[0]));

	gdr_set_prog("sm_bench");
	if (!iters || iters > 10000000) {
		gdr_err("ITERS: expected 1..10000000 round trips per size");
		return 2;
	}
	for (i = 0; i < nsz && argc > 2; i++) {
		unsigned long v = strtoul(argv[2 + i], NULL, 10);

		if (!v || v > MAX_LEN) {
			gdr_err("SIZE %s: expected 1..%lu bytes", argv[2 + i], MAX_LEN);
			return 2;
		}
	}
	cu = cuda_or_skip();
	t = calloc(iters, sizeof(*t));
	if (!t || gdr_mem_cuda_init(&dev, &mc, NULL) || dev.ops->alloc(&dev, MAX_LEN) ||
	    gdr_mem_bounce_init(&bounce, &dev, 2 * MAX_LEN) ||
	    gdr_mem_cuda_use(&dev, &cu, &ctx, why, sizeof(why)) ||
	    cu->cuStreamCreate(&ce_stream, CU_STREAM_NON_BLOCKING)) {
		gdr_err("setup failed");
		return 1;
	}
	cp = (struct gdr_copier){.data = &dev,
				 .host = bounce.addr,
				 .host_len = 2 * MAX_LEN,
				 .lanes = 1,
				 .timeout_ns = WAIT_NS};
	if (mode && !strcmp(mode, "resident")) {
		cp.lanes = GDR_COPIER_LANES; /* a bandwidth run's copier: every lane polled */
		printf("# %s; copy engine, %u copies per size and direction, one at a time\n",
		       dev.desc, iters);
		return resident_table(&cp, iters, t);
	}
	if (gdr_copier_sm_ops.open(&cp, why, sizeof(why))) {
		gdr_err("sm copier: %s", why);
		return 1;
	}
	cp.ops = &gdr_copier_sm_ops;
	if (mode && !strcmp(mode, "percopy")) {
		uint64_t c0 = gdr_now_ns(), c1;

		for (i = 0; i < 100000; i++)
			c1 = gdr_now_ns();
		printf("# %s; %u copies per size and direction (after %d warm-up), one at a time;"
		       " sm blocks per lane: %s; a clock read: %.0f ns\n",
		       dev.desc, iters, WARM, blocks && *blocks ? blocks : "default (4)",
		       (double)(c1 - c0) / 100000);
		if (percopy_table(&cp, argc > 2 ? argc - 2 : 0, argv + 2, iters, t))
			return 1;
		gdr_copier_sm_ops.close(&cp);
		return 0;
	}
	printf("# %s; %u round trips per size (after %d warm-up), H2D then D2H, one lane;"
	       " sm blocks per lane: %s\n",
	       dev.desc, iters, WARM, blocks && *blocks ? blocks : "default (4)");
	printf("%-9s %11s %11s %11s %11s %9s\n", "#bytes", "sm_med_us", "sm_p99_us", "ce_med_us",
	       "ce_p99_us", "ce/sm");
	for (i = 0; i < nsz; i++) {
		size_t len = argc > 2 ? strtoul(argv[2 + i], NULL, 10) : def[i];
		double sm_m, sm_p, ce_m, ce_p;

		if (measure(&cp, len, iters, t, &sm_m, &sm_p) ||
		    measure(NULL, len, iters, t, &ce_m, &ce_p))
			return 1;
		printf("%-9zu %11.2f %11.2f %11.2f %11.2f %9.2f\n", len, sm_m, sm_p, ce_m, ce_p,
		       ce_m / sm_m);
		fflush(stdout);
	}
	gdr_copier_sm_ops.close(&cp);
	cu->cuStreamDestroy(ce_stream);
	bounce.ops->free(&bounce);
	gdr_mem_fini(&dev);
	free(t);
	return 0;
}
