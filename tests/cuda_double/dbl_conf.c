/* SPDX-License-Identifier: MIT */
/* CUDA double: configuration from the environment, and the fault plan. */
#include "dbl.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct dbl_conf dbl_conf;
volatile int dbl_lost;
static atomic_long n_alloc, n_copy;

/* Default fixture: distinct buses on alternating NUMA nodes. */
static const unsigned char default_bus[DBL_MAX_DEV] = {0x1a, 0x9b, 0x3c, 0xbd,
						       0x4e, 0xcf, 0x5a, 0xda};

static int env_long(const char *name, long lo, long hi, long dflt, long *out)
{
	const char *v = getenv(name);
	char *end;
	long x;

	*out = dflt;
	if (!v || !*v)
		return 0;
	errno = 0;
	x = strtol(v, &end, 10);
	if (errno || *end || x < lo || x > hi) {
		fprintf(stderr, "CUDA double: %s=%s: expected a number in %ld..%ld\n", name, v, lo,
			hi);
		return -1;
	}
	*out = x;
	return 0;
}

static int load_fixture(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128];
	int n = 0;

	if (!f) {
		fprintf(stderr, "CUDA double: GDR_DOUBLE_FIXTURE=%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (n < dbl_conf.ndev && fgets(line, sizeof(line), f)) {
		char bus[32];
		int numa, group = -1, got;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		got = sscanf(line, "%31s %d %d", bus, &numa, &group);
		if (got < 2 || strlen(bus) >= 16 || (got == 3 && group < 0)) {
			fprintf(
			    stderr,
			    "CUDA double: %s: bad line '%.40s' (want BUS-ID NUMA [NVLINK-GROUP])\n",
			    path, line);
			fclose(f);
			return -1;
		}
		snprintf(dbl_conf.bus[n], sizeof(dbl_conf.bus[n]), "%s", bus);
		dbl_conf.nvlink[n] = group;
		dbl_conf.numa[n++] = numa;
	}
	fclose(f);
	if (n < dbl_conf.ndev) {
		fprintf(stderr, "CUDA double: %s has %d devices, GDR_DOUBLE_DEVICES wants %d\n",
			path, n, dbl_conf.ndev);
		return -1;
	}
	return 0;
}

/* "alloc", "alloc:N", "copy:N", "copies:N", "ctxlost:N", "flush", "flush:N", "launch", "stuck", "stuck:N". */
static int parse_fail(const char *spec)
{
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end = NULL;
		long n = 0;

		if (colon) {
			*colon = 0;
			n = strtol(colon + 1, &end, 10);
			if (*end || n < 0)
				goto bad;
		}
		if (!strcmp(tok, "alloc"))
			dbl_conf.fail_alloc = n;
		else if (!strcmp(tok, "copy") && colon)
			dbl_conf.fail_copy = n;
		else if (!strcmp(tok, "copies") && colon)
			dbl_conf.fail_copies = n;
		else if (!strcmp(tok, "ctxlost") && colon)
			dbl_conf.fail_ctxlost = n;
		else if (!strcmp(tok, "flush"))
			dbl_conf.fail_flush = n;
		else if (!strcmp(tok, "launch") && !colon)
			dbl_conf.fail_launch = 1;
		else if (!strcmp(tok, "stuck"))
			dbl_conf.fail_stuck = n;
		else
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr,
		"CUDA double: GDR_DOUBLE_FAIL=%s: expected alloc, alloc:N, copy:N, copies:N, "
		"ctxlost:N, flush, flush:N, launch, stuck or stuck:N\n",
		spec);
	return -1;
}

int dbl_conf_load(void)
{
	const char *fix = getenv("GDR_DOUBLE_FIXTURE"), *fail = getenv("GDR_DOUBLE_FAIL");
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
	for (i = 0; i < dbl_conf.ndev; i++) {
		snprintf(dbl_conf.bus[i], sizeof(dbl_conf.bus[i]), "0000:%02x:00.0",
			 default_bus[i]);
		dbl_conf.numa[i] = i % 2;
		dbl_conf.nvlink[i] = -1;
	}
	if (fix && *fix && load_fixture(fix))
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
