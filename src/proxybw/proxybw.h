/* SPDX-License-Identifier: MIT */
/* gdr_proxy_bw: the gpu-proxy path's kernel -> proxy -> kernel leg with a null NIC. */
#ifndef GDR_PROXYBW_H
#define GDR_PROXYBW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PB_MAX_LIST 8

struct pb_opts {
	int use_cuda;
	char *cuda_bus_id;
	uint32_t iters;	  /* descriptors per queue and run */
	uint32_t timeout; /* ms: every wait of the kernel and the proxy */
	char *threads_s, *window_s, *batch_s;
	unsigned int threads[PB_MAX_LIST], window[PB_MAX_LIST], batch[PB_MAX_LIST];
	size_t nthreads, nwindow, nbatch;
	bool no_lat, no_rate, quiet, ping;
	uint64_t set_bits[2];
};

/* 0 run, 1 done (--help, --version), -1 bad input (printed). */
int pb_parse(struct pb_opts *o, int argc, char **argv);
void pb_opts_free(struct pb_opts *o);
/* The rows, on stdout. 0, or -1 (printed). */
int pb_run(const struct pb_opts *o);
struct gdr_mem;
struct gdr_lat_stats;
/* --ping's row (pb_ping.c): two kernels' ping-pong on m's GPU through a null NIC. */
int pb_ping_row(struct gdr_mem *m, const struct pb_opts *o);
/* Median and p99 (us) of n samples (ns) past the first tenth. 0, or -1 (printed). */
int pb_lat_stats(const uint64_t *ns, size_t n, struct gdr_lat_stats *st);

#endif
