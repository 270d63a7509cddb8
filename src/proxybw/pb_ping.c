/* SPDX-License-Identifier: MIT */
/*
 * gdr_proxy_bw --ping: the latency tests' kernel-to-kernel ping-pong
 * (GDR_GP_PING, gp_proto.h) between two kernels on one GPU, each with its own
 * proxy thread, through a null NIC that delivers each message by writing its
 * marker into the peer's receive byte. The receive and send bytes live in
 * mapped pinned host memory (the proxy's CPU cannot write GPU memory): each
 * kernel polls its receive byte over PCIe, where over a real NIC it would
 * poll GPU memory the NIC writes. Half of each round trip is one message:
 * kernel -> its proxy -> the peer kernel.
 */
#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "gp_null.h"
#include "gproxy.h"
#include "log.h"
#include "mem.h"
#include "proxybw.h"
#include "stats.h"

#ifdef HAVE_CUDA

#include "cuda_api.h"

struct side {
	struct gdr_gproxy *g;
	struct gdr_gp_null nic; /* delivers into the peer's receive byte */
	struct gdr_gp_params p;
	struct gdr_gp_result r;
	int rc;
};

static void *run_side(void *arg)
{
	struct side *s = arg;
	struct gdr_gp_backend be = gdr_gp_null_backend(&s->nic);

	s->rc = gdr_gproxy_run(s->g, &s->p, &be, &s->r);
	return NULL;
}

int pb_ping_row(struct gdr_mem *m, const struct pb_opts *o)
{
	struct side a = {0}, b = {0};
	struct gdr_lat_stats gs, hs;
	const struct gdr_cuda_api *cu = NULL;
	CUcontext ctx;
	CUdeviceptr d = 0;
	uint8_t *h = NULL;
	pthread_t t;
	char why[256];
	int rc = -1;

	if (gdr_gproxy_open(&a.g, m, (uint64_t)o->timeout * 1000000ULL, why, sizeof(why)) ||
	    gdr_gproxy_open(&b.g, m, (uint64_t)o->timeout * 1000000ULL, why, sizeof(why)) ||
	    gdr_mem_cuda_use(m, &cu, &ctx, why, sizeof(why))) {
		gdr_err("gpu-proxy: %s", why);
		goto out;
	}
	if (cu->cuCtxSetCurrent(ctx) != CUDA_SUCCESS ||
	    cu->cuMemHostAlloc((void **)&h, 64,
			       CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) !=
		CUDA_SUCCESS ||
	    cu->cuMemHostGetDevicePointer(&d, h, 0) != CUDA_SUCCESS) {
		gdr_err("gpu-proxy: the ping-pong's bytes in mapped host memory (cuMemHostAlloc, "
			"cuMemHostGetDevicePointer) failed");
		goto out;
	}
	memset(h, 0, 64);
	/* a: rx h[0], tx h[1]; b: rx h[32], tx h[33] */
	a.p = (struct gdr_gp_params){.mode = GDR_GP_PING,
				     .queues = 1,
				     .n = o->iters,
				     .window = 1,
				     .batch = 1,
				     .slots = 1,
				     .rx = d,
				     .tx = d + 1,
				     .first = true};
	b.p = a.p;
	b.p.rx = d + 32;
	b.p.tx = d + 33;
	b.p.first = false;
	a.nic.peer_rx = h + 32;
	b.nic.peer_rx = h;
	if (pthread_create(&t, NULL, run_side, &b)) {
		gdr_err("cannot start the ping-pong's second side");
		goto out;
	}
	run_side(&a);
	pthread_join(t, NULL);
	if (a.rc || b.rc || pb_lat_stats(a.r.gpu, a.r.nlat, &gs) ||
	    pb_lat_stats(a.r.host, a.r.nlat, &hs))
		goto out;
	/* half of each round trip: one message, as the latency tests' rows */
	printf("ping,2,1,1,%zu,%.2f,%.2f,%.2f,%.2f,-,-\n", (size_t)gs.n, gs.median / 2,
	       gs.pct_v[0] / 2, hs.median / 2, hs.pct_v[0] / 2);
	fflush(stdout);
	rc = 0;
out:
	gdr_gproxy_close(a.g);
	gdr_gproxy_close(b.g);
	if (h)
		cu->cuMemFreeHost(h);
	return rc;
}

#else /* !HAVE_CUDA */

int pb_ping_row(struct gdr_mem *m, const struct pb_opts *o)
{
	(void)m;
	(void)o;
	gdr_err("gdrperf was built without CUDA");
	return -1;
}

#endif
