/* SPDX-License-Identifier: MIT */
/*
 * --use_cuda without a usable driver fails with one clear line and -1, on
 * any host: GDR_LIBCUDA points the loader at a library that does not exist.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuda_api.h"
#include "log.h"
#include "mem.h"

#include "../unit/capture.h"

/* Run f with stderr captured into buf. */
static int captured(char *buf, size_t n, int (*f)(void *), void *arg)
{
	struct capture c;
	int rc;

	capture_on(&c, 2);
	rc = f(arg);
	capture_off(&c, buf, n);
	return rc;
}

static int init_idx(void *arg)
{
	struct gdr_mem m = {0};
	struct gdr_mem_cfg o = {0};

	o.gpu = *(int *)arg;
	o.gpu_bus_id = NULL;
	return gdr_mem_cuda_init(&m, &o, NULL);
}

static int init_bus(void *arg)
{
	struct gdr_mem m = {0};
	struct gdr_mem_cfg o = {0};

	o.gpu = GDR_MEM_GPU_NONE;
	o.gpu_bus_id = arg;
	return gdr_mem_cuda_init(&m, &o, NULL);
}

int main(void)
{
	const char *bogus = "/nonexistent/gdrperf-test/libcuda.so.1";
	const struct gdr_cuda_api *api = NULL;
	char why[256] = "", err[1024];
	int idx = 0, fails = 0, rc, lines = 0;
	char *p;

	setenv("GDR_LIBCUDA", bogus, 1);
	gdr_set_prog("t_cuda_nodriver");

	if (gdr_cuda_load(&api, why, sizeof(why)) != -1 || api) {
		fprintf(stderr, "FAIL: gdr_cuda_load succeeded with %s\n", bogus);
		fails++;
	}
	if (!strstr(why, bogus) || !strstr(why, "not found")) {
		fprintf(stderr, "FAIL: reason does not name the library: '%s'\n", why);
		fails++;
	}
	/* the result is cached: a second call says the same */
	{
		char why2[256] = "";

		if (gdr_cuda_load(&api, why2, sizeof(why2)) != -1 || strcmp(why, why2)) {
			fprintf(stderr, "FAIL: second load differs: '%s'\n", why2);
			fails++;
		}
	}

	rc = captured(err, sizeof(err), init_idx, &idx);
	for (p = err; *p; p++)
		lines += *p == '\n';
	if (rc != -1 || lines != 1 || strncmp(err, "t_cuda_nodriver: error: --use_cuda: ", 36) ||
	    !strstr(err, "not found")) {
		fprintf(stderr, "FAIL: --use_cuda=0: rc %d, message '%s'\n", rc, err);
		fails++;
	}
	rc = captured(err, sizeof(err), init_bus, "0000:19:00.0");
	if (rc != -1 || !strstr(err, "error: --use_cuda_bus_id: ")) {
		fprintf(stderr, "FAIL: --use_cuda_bus_id: rc %d, message '%s'\n", rc, err);
		fails++;
	}
	if (fails)
		return 1;
	printf("t_cuda_nodriver: clean failure: %s", err);
	return 0;
}
