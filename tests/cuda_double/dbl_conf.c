/* SPDX-License-Identifier: MIT */
/* CUDA double: configuration from the environment, and the fault plan. */
#include "dbl.h"
#include "dbl_env.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct dbl_conf dbl_conf;
volatile int dbl_lost;
static atomic_long n_alloc, n_copy;

/* Default fixture: distinct buses on alternating NUMA nodes. */
static const unsigned char default_bus[DBL_MAX_DEV] = {0x1a, 0x9b, 0x3c, 0xbd,
						       0x4e, 0xcf, 0x5a, 0xda};

static int env_long(const char *name, long lo, long hi, long dflt, long *out)
{
	return dbl_env_long("CUDA double", name, lo, hi, dflt, out);
}

/* "alloc", "alloc:N", "copy:N", "copies:N", "ctxlost:N", "flush", "flush:N", "launch", "stuck", "stuck:N". */
static int parse_fail(const char *spec)
{
	const struct dbl_fault faults[] = {
	    {"alloc", DBL_EITHER, &dbl_conf.fail_alloc},
	    {"copy", DBL_COUNT, &dbl_conf.fail_copy},
	    {"copies", DBL_COUNT, &dbl_conf.fail_copies},
	    {"ctxlost", DBL_COUNT, &dbl_conf.fail_ctxlost},
	    {"flush", DBL_EITHER, &dbl_conf.fail_flush},
	    {"launch", DBL_BARE, &dbl_conf.fail_launch},
	    {"stuck", DBL_EITHER, &dbl_conf.fail_stuck},
	    {NULL, DBL_BARE, NULL},
	};

	return dbl_parse_faults("CUDA double", "GDR_DOUBLE_FAIL", spec, faults,
				"alloc, alloc:N, copy:N, copies:N, ctxlost:N, flush, flush:N, "
				"launch, stuck or stuck:N");
}

int dbl_conf_load(void)
{
	const char *fix = getenv("GDR_DOUBLE_FIXTURE"), *fail = getenv("GDR_DOUBLE_FAIL"), *mps;
	struct stat st;
	long v;
	int i;

	memset(&dbl_conf, 0, sizeof(dbl_conf));
	dbl_conf.fail_alloc = dbl_conf.fail_copy = dbl_conf.fail_ctxlost = -1;
	dbl_conf.fail_copies = -1;
	dbl_conf.fail_flush = dbl_conf.fail_stuck = -1;
	dbl_conf.fail_launch = 0;
	if (env_long("GDR_DOUBLE_DEVICES", 0, DBL_MAX_DEV, 2, &v))
		return -1;
	dbl_conf.ndev = (int)v;
	if (env_long("GDR_DOUBLE_DELAY_US", 0, 1000000, 200, &v))
		return -1;
	dbl_conf.delay_us = (unsigned)v;
	if (env_long("GDR_DOUBLE_UNORDERED", 0, 1, 0, &v))
		return -1;
	dbl_conf.unordered = (int)v;
	if (env_long("GDR_DOUBLE_VERSION", 11030, 99000, CUDA_VERSION, &v))
		return -1;
	dbl_conf.version = (int)v;
	if (env_long("GDR_DOUBLE_ORDERING", 0, 200, 0, &v))
		return -1;
	dbl_conf.ordering = (int)v;
	if (env_long("GDR_DOUBLE_FLUSH_OPTIONS", 0, 3, CU_FLUSH_GPU_DIRECT_RDMA_WRITES_OPTION_HOST,
		     &v))
		return -1;
	dbl_conf.flush_options = (int)v;
	if (env_long("GDR_DOUBLE_PCIE_MAPPING", 0, 1, 1, &v))
		return -1;
	dbl_conf.pcie_mapping = (int)v;
	if (env_long("GDR_DOUBLE_SLICE_US", 0, 1000000, 2000, &dbl_conf.slice_us))
		return -1;
	if (env_long("GDR_DOUBLE_TEAR_US", 0, 1000000, 0, &dbl_conf.tear_us))
		return -1;
	if (env_long("GDR_DOUBLE_MPS", 0, 1, 0, &v))
		return -1;
	mps = getenv("CUDA_MPS_PIPE_DIRECTORY");
	dbl_conf.mps = v || (mps && *mps && !stat(mps, &st) && S_ISDIR(st.st_mode));
	for (i = 0; i < dbl_conf.ndev; i++) {
		snprintf(dbl_conf.bus[i], sizeof(dbl_conf.bus[i]), "0000:%02x:00.0",
			 default_bus[i]);
		dbl_conf.numa[i] = i % 2;
		dbl_conf.nvlink[i] = -1;
	}
	if (fix && *fix &&
	    dbl_load_fixture("CUDA double", "GDR_DOUBLE_FIXTURE", "GDR_DOUBLE_DEVICES",
			     "NVLINK-GROUP", fix, dbl_conf.ndev, dbl_conf.bus, dbl_conf.numa,
			     dbl_conf.nvlink))
		return -1;
	if (fail && *fail && parse_fail(fail))
		return -1;
	return 0;
}

CUresult dbl_enter(struct dbl_ctx **ctx)
{
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dbl_lost)
		return DBL_LOST_ERR;
	*ctx = dbl_current();
	return *ctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult dbl_fault_copy(void)
{
	long n = atomic_fetch_add(&n_copy, 1);

	/* Quiet: the caller reports the error, whose string names the injection. */
	if (dbl_conf.fail_ctxlost >= 0 && n >= dbl_conf.fail_ctxlost) {
		dbl_lost = 1;
		return DBL_LOST_ERR;
	}
	if ((dbl_conf.fail_copy >= 0 && n == dbl_conf.fail_copy) ||
	    (dbl_conf.fail_copies >= 0 && n >= dbl_conf.fail_copies))
		return DBL_COPY_ERR;
	return CUDA_SUCCESS;
}

CUresult dbl_fault_flush(void)
{
	static atomic_long n_flush;
	long n = atomic_fetch_add(&n_flush, 1);

	if (dbl_conf.fail_flush >= 0 && n >= dbl_conf.fail_flush)
		return DBL_FLUSH_ERR;
	return CUDA_SUCCESS;
}

CUresult dbl_fault_alloc(void)
{
	long n = atomic_fetch_add(&n_alloc, 1);

	if (dbl_conf.fail_alloc >= 0 && n >= dbl_conf.fail_alloc)
		return CUDA_ERROR_OUT_OF_MEMORY;
	return CUDA_SUCCESS;
}

uint64_t dbl_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void dbl_deadline(struct timespec *ts, int s)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += s;
}
