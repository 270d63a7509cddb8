/* SPDX-License-Identifier: MIT */
/*
 * ts_ping FILE first|second N [GPU]: one side of a ping-pong between the
 * gpu-proxy kernels (GDR_GP_PING, gp_proto.h) of two processes on one GPU,
 * through a null NIC: each side's proxy delivers a message by writing its
 * marker into the peer's receive byte, and the two sides' bytes are in FILE
 * (mapped by both, registered as mapped pinned host memory). Prints the
 * median of half the round trips, one hand-off from one process's kernel to
 * the other's, in microseconds ("handoff_us X" from the first side). Without
 * MPS the real driver runs the two processes' kernels in turns, so a
 * hand-off waits for a time slice; scripts/gpu/timeslice-check.sh runs it on
 * a GPU, tests/cuda/t_timeslice_double.sh against the CUDA double.
 */
#include "config.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cuda_api.h"
#include "gp_null.h"
#include "gproxy.h"
#include "log.h"
#include "mem.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct gdr_mem_cfg mc = {.gpu = argc > 4 ? atoi(argv[4]) : 0};
	struct gdr_mem m = {0};
	struct gdr_gproxy *g = NULL;
	struct gdr_gp_result r;
	struct gdr_gp_params p;
	struct gdr_gp_null s = {0}; /* delivers into the peer's receive byte */
	struct gdr_gp_backend be;
	const struct gdr_cuda_api *cu = NULL;
	CUcontext ctx;
	CUdeviceptr d = 0;
	uint8_t *h;
	char why[256];
	bool first;
	int fd, n = 0;

	if (argc < 4 || (strcmp(argv[2], "first") && strcmp(argv[2], "second")) ||
	    (n = atoi(argv[3])) < 10) {
		fprintf(stderr, "usage: ts_ping FILE first|second N(>=10) [GPU]\n");
		return 2;
	}
	first = !strcmp(argv[2], "first");
	fd = open(argv[1], O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, 4096)) {
		perror(argv[1]);
		return 1;
	}
	h = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (gdr_mem_init(&m, &mc, NULL) || m.ops->alloc(&m, 4096) ||
	    gdr_gproxy_open(&g, &m, 10000000000ULL, why, sizeof(why)) ||
	    gdr_mem_cuda_use(&m, &cu, &ctx, why, sizeof(why))) {
		fprintf(stderr, "ts_ping: %s\n", why);
		return 1;
	}
	{
		CUresult cr = cu->cuCtxSetCurrent(ctx);

		if (!cr)
			cr = cu->cuMemHostRegister(
			    h, 4096, CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_PORTABLE);
		if (!cr)
			cr = cu->cuMemHostGetDevicePointer(&d, h, 0);
		if (cr) { /* a file outside tmpfs cannot be pinned for long (Linux >= 6.x) */
			fprintf(stderr, "ts_ping: cannot map %s for the GPU: CUresult %d\n",
				argv[1], (int)cr);
			return 1;
		}
	}
	/* first: rx byte 0, tx byte 1; second: rx byte 32, tx byte 33 */
	p = (struct gdr_gp_params){.mode = GDR_GP_PING,
				   .queues = 1,
				   .n = (uint32_t)n,
				   .window = 1,
				   .batch = 1,
				   .slots = 1,
				   .rx = first ? d : d + 32,
				   .tx = first ? d + 1 : d + 33,
				   .first = first};
	s.peer_rx = first ? h + 32 : h;
	be = gdr_gp_null_backend(&s);
	if (gdr_gproxy_run(g, &p, &be, &r) || r.nlat < 1) {
		fprintf(stderr, "ts_ping: the ping-pong failed\n");
		return 1;
	}
	/* a sample is a round trip on the first side, two hand-offs */
	if (first) {
		uint64_t *v = malloc(r.nlat * sizeof(*v));

		if (!v)
			return 1;
		memcpy(v, r.gpu, r.nlat * sizeof(*v));
		qsort(v, r.nlat, sizeof(*v), cmp);
		printf("handoff_us %.1f\n", (double)v[r.nlat / 2] / 2 / 1000);
		free(v);
	}
	cu->cuMemHostUnregister(h);
	gdr_gproxy_close(g);
	gdr_mem_fini(&m);
	return 0;
}
