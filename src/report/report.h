/* SPDX-License-Identifier: MIT */
/*
 * Results: one record per (size, path), handed to reporters. One place
 * computes (the tests fill struct gdr_result in SI units), each reporter
 * (text, CSV, JSON) only formats.
 */
#ifndef GDR_REPORT_H
#define GDR_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "opts.h"
#include "stats.h"

#define GDR_CSV_SCHEMA 2

/* Facts about the whole run, known before the first result. */
struct gdr_run_info {
	const char *tool_version; /* PACKAGE_VERSION */
	char timestamp[40];       /* ISO 8601 UTC start, "2026-11-22T17:32:11Z" */
	const char *test;         /* "write_bw" */
	enum gdr_verb verb;
	enum gdr_kind kind;
	const char *role;         /* "client" / "server" */
	char local_host[64];
	char remote_host[64];
	char rdma_dev[64];
	int ib_port;
	char link_layer[16];      /* "InfiniBand" / "Ethernet" */
	int gid_index;
	uint32_t mtu;             /* active path MTU in bytes */
	uint32_t num_qps;
	uint32_t tx_depth;
	bool bidir;
	bool rdma_cm;
	const char *mem_kind;     /* "host" / "cuda" */
	char gpu_name[96];
	char gpu_pci[32];
	char reg_method[16];      /* "host" / "dma-buf" / "peermem" */
	char cpu_placement[128];  /* "CPUs 0-7 (NUMA node 0 of mlx5_0)" */
	char staged[256];         /* the staged path's choices (empty: no staged path) */
	double clock_res_ns;      /* clock_getres of the clock used */
	bool report_gbits;
	const struct gdr_opts *opts;
};

/* One measured result: a size on a path. Units: bytes, seconds, bytes/s, usec. */
struct gdr_result {
	const char *path;  /* "host" (host memory), "direct" (GPUDirect), "staged" */
	uint64_t bytes;    /* message size */
	uint64_t iters;    /* iterations measured (all QPs, both directions with -b) */
	double duration_s; /* measured time */
	/* bandwidth tests (0 for latency tests) */
	double bw_peak_Bps;
	double bw_avg_Bps;
	double msg_rate_pps; /* messages per second */
	/* latency tests */
	bool has_lat;
	struct gdr_lat_stats lat;
	const char *lat_kind; /* "half round trip" / "round trip" */
	/* --compare: direct/staged (bw) or staged/direct (lat) on the staged row; 0 = none */
	double speedup;
	/* staged rows: bytes per stager copy; --compare (bandwidth) also the copy leg alone */
	uint64_t stage_chunk; /* 0 = not staged */
	uint64_t stage_ring;  /* bounce ring bytes per direction */
	uint32_t stage_streams; /* copy streams per direction */
	double copy_Bps;      /* stager copy rate at that chunk, no network; 0 = not measured */
	double model_Bps;     /* min(copy rate, host wire rate): the best a staged pipeline does */
	double efficiency;    /* staged / model; 0 = none */
};

struct gdr_reporter_ops {
	const char *name;
	int (*begin)(void *ctx, const struct gdr_run_info *ri);
	int (*row)(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r);
	int (*end)(void *ctx, const struct gdr_run_info *ri); /* flush/commit; 0 ok */
	void (*destroy)(void *ctx);
};

struct gdr_reporter {
	const struct gdr_reporter_ops *ops;
	void *ctx;
};

/* Reporter constructors. Each returns 0 or -1 (error printed, e.g. unwritable file). */
int gdr_report_text_new(struct gdr_reporter *r, FILE *out);
int gdr_report_csv_new(struct gdr_reporter *r, const char *path);
int gdr_report_json_new(struct gdr_reporter *r, const char *path); /* "-" = stdout */

/* Fan-out to every reporter the options ask for (text always). */
struct gdr_reports {
	int n;
	struct gdr_reporter r[4];
};
int gdr_reports_open(struct gdr_reports *rs, const struct gdr_opts *o);
int gdr_reports_begin(struct gdr_reports *rs, const struct gdr_run_info *ri);
int gdr_reports_row(struct gdr_reports *rs, const struct gdr_run_info *ri,
		    const struct gdr_result *r);
int gdr_reports_end(struct gdr_reports *rs, const struct gdr_run_info *ri);
void gdr_reports_close(struct gdr_reports *rs);

/* Unit helpers: MiB/s = 2^20 B/s; Gb/s = 10^9 bit/s. */
static inline double gdr_to_mibps(double Bps)
{
	return Bps / 1048576.0;
}
static inline double gdr_to_gbps(double Bps)
{
	return Bps * 8.0 / 1e9;
}

#endif
