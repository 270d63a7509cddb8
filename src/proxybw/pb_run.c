/* SPDX-License-Identifier: MIT */
/* gdr_proxy_bw's rows: the gpu-proxy kernel and its proxy threads with the null NIC (gproxy.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include "gproxy.h"
#include "log.h"
#include "mem.h"
#include "proxybw.h"
#include "stats.h"

static int lat_row(struct gdr_gproxy *g, const struct pb_opts *o)
{
	struct gdr_gp_params p = {.mode = GDR_GP_LAT,
				  .queues = 1,
				  .n = o->iters,
				  .window = 1,
				  .batch = 1,
				  .slots = 1,
				  .len = 0};
	struct gdr_lat_stats gs, hs;
	struct gdr_gp_result r;

	if (gdr_gproxy_run(g, &p, NULL, &r) || pb_lat_stats(r.gpu, r.nlat, &gs) ||
	    pb_lat_stats(r.host, r.nlat, &hs))
		return -1;
	printf("latency,1,1,1,%zu,%.2f,%.2f,%.2f,%.2f,-,-\n", (size_t)gs.n, gs.median, gs.pct_v[0],
	       hs.median, hs.pct_v[0]);
	fflush(stdout);
	return 0;
}

static int rate_row(struct gdr_gproxy *g, const struct pb_opts *o, unsigned int threads,
		    unsigned int window, unsigned int batch)
{
	struct gdr_gp_params p = {.mode = GDR_GP_RATE,
				  .queues = threads,
				  .n = o->iters,
				  .window = window,
				  .batch = batch,
				  .slots = 1,
				  .len = 0};
	struct gdr_gp_result r;

	if (gdr_gproxy_run(g, &p, NULL, &r))
		return -1;
	printf("rate,%u,%u,%u,%llu,-,-,-,-,%.0f,%.0f\n", threads, window, batch,
	       (unsigned long long)r.n, r.gpu_ns ? (double)r.n * 1e9 / (double)r.gpu_ns : 0.0,
	       r.host_ns ? (double)r.n * 1e9 / (double)r.host_ns : 0.0);
	fflush(stdout);
	return 0;
}

int pb_run(const struct pb_opts *o)
{
	struct gdr_mem_cfg mc = {.gpu = o->use_cuda, .gpu_bus_id = o->cuda_bus_id};
	struct gdr_mem m = {0};
	struct gdr_gproxy *g = NULL;
	char why[256];
	int rc = -1;

	if (gdr_mem_init(&m, &mc, NULL) || m.ops->alloc(&m, 4096))
		goto out;
	if (!gdr_mem_on_device(&m)) {
		gdr_err("gdr_proxy_bw needs a GPU: %s is not GPU memory", m.desc);
		goto out;
	}
	if (gdr_gproxy_open(&g, &m, (uint64_t)o->timeout * 1000000ULL, why, sizeof(why))) {
		gdr_err("gpu-proxy: %s", why);
		goto out;
	}
	if (!o->quiet)
		printf("# gpu-proxy, null NIC: %s; %u descriptors per proxy thread and row; "
		       "latency: median/p99 past the first tenth\n",
		       m.desc, o->iters);
	printf("mode,threads,window,batch,descriptors,gpu_median_us,gpu_p99_us,host_median_us,"
	       "host_p99_us,gpu_desc_per_s,host_desc_per_s\n");
	if (!o->no_lat && lat_row(g, o))
		goto out;
	if (o->ping && pb_ping_row(&m, o))
		goto out;
	for (size_t t = 0; !o->no_rate && t < o->nthreads; t++)
		for (size_t w = 0; w < o->nwindow; w++)
			for (size_t b = 0; b < o->nbatch; b++)
				if (rate_row(g, o, o->threads[t], o->window[w], o->batch[b]))
					goto out;
	rc = 0;
out:
	gdr_gproxy_close(g);
	gdr_mem_fini(&m);
	return rc;
}
