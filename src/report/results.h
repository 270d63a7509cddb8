/* SPDX-License-Identifier: MIT */
/*
 * Results: one record per (size, path) and the facts of the whole run, in SI
 * units. The engines fill them, the reporters only format them; this header
 * is the one piece both sides (and the transport's context) share.
 */
#ifndef GDR_RESULTS_H
#define GDR_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include "counters.h"
#include "opts.h"
#include "stats.h"

/* --percentile values (options) fit the statistics that hold them (measure). */
_Static_assert(GDR_MAX_PCT <= GDR_STATS_MAX_Q, "GDR_MAX_PCT > GDR_STATS_MAX_Q");

#define GDR_CSV_SCHEMA 9

/* Facts about the whole run, known before the first result. */
struct gdr_run_info {
	const char *tool_version; /* PACKAGE_VERSION */
	char timestamp[40];	  /* ISO 8601 UTC start, "2026-11-22T17:32:11Z" */
	const char *test;	  /* "write_bw" */
	enum gdr_verb verb;
	enum gdr_kind kind;
	const char *role; /* "client" / "server" */
	char local_host[64];
	char remote_host[64];
	char rdma_dev[64];
	int ib_port;
	char link_layer[16]; /* "InfiniBand" / "Ethernet" */
	char transport[320]; /* "" verbs; else "ofi, provider shm: what ran" (text header) */
	char xport[16];	     /* CSV/JSON transport: "verbs", "loop", "ofi" */
	char provider[48];   /* CSV/JSON provider: ofi's as opened, "tcp;ofi_rxm"; "" others */
	int gid_index;
	uint32_t mtu; /* active path MTU in bytes */
	uint32_t num_qps;
	uint32_t tx_depth;
	bool bidir;
	bool rdma_cm;
	const char *mem_kind; /* "host" / "cuda" */
	char gpu_name[96];
	char gpu_pci[32];
	char reg_method[16];	 /* "host" / "dma-buf" / "peermem" */
	char cpu_placement[192]; /* "CPUs 0-7 (NUMA node 0 of mlx5_0); memory preferred on node 0" */
	char buffers_numa[128];  /* text header: "test buffers node 0, bounce buffers node 0" */
	char nic_settings[512];	 /* text header: relaxed ordering, scatter-to-CQE */
	char qp_attrs[192];      /* text header: -T, -S, -u, -o, --source_ip as used */
	char staged[256];        /* the staged path's choices (empty: no staged path) */
	char stage_copy[400];    /* its copier per size and why (--stage_copy; empty: none) */
	/* text header: what each running path stands for, a line each ("NAME WHAT\n..."; "":
	 * none, a host-memory run's one path) */
	char paths[400];
	char verdict[480];       /* -w/-y/--expect-bw: the path judged, limits, auto's arithmetic */
	/* the run's paths (their rows, driver/path_setup.c): the table's columns follow */
	bool staged_path;	 /* a staged path runs: its chunk and copier columns */
	bool ref_path;		 /* a path is compared with another: the copy model */
	bool ratio_col;		 /* ... with the direct path: the ratio column (none on host memory) */
	double clock_res_ns;	 /* clock_getres of the clock used */
	bool report_gbits;
	const struct gdr_opts *opts;
	char topo[8]; /* --matrix: the cell's PCIe relation of GPU and NIC ("PIX", "?"); "" else */
	/* --matrix: the cell's direction, "d2h" (GPU -> host memory) or "h2d"; "" else */
	char direction[8];
	const char *loopback; /* --matrix: where the packets turn ("inside the NIC, ..."); NULL */
	/* a run stopped by a signal: where ("interrupted by SIGINT during the ..."); "" ran out */
	char stopped[320];
};

/* One measured result: a size on a path. Units: bytes, seconds, bytes/s, usec. */
struct gdr_result {
	const char *path;  /* "host" (host memory), "direct" (GPUDirect), "staged" */
	uint64_t bytes;	   /* message size */
	uint64_t iters;	   /* iterations measured (all QPs, both directions with -b) */
	double duration_s; /* measured time */
	/* bandwidth tests (0 for latency tests) */
	double bw_peak_Bps;
	double bw_avg_Bps;
	double msg_rate_pps; /* messages per second */
	/* latency tests */
	bool has_lat;
	struct gdr_lat_stats lat;
	const char *lat_kind; /* "half round trip" / "round trip" */
	/*
	 * --compare, on the staged row: how many times direct beats staged (> 1:
	 * direct faster): direct/staged bandwidth, staged/direct latency; 0 = none.
	 * Reported as direct_over_staged.
	 */
	double speedup;
	/*
	 * --repeat (--compare): the row's figures are the medians of `repeats`
	 * runs of the size, its paths interleaved; the spread of its key figure
	 * (bandwidth: bw_avg_Bps in B/s; latency: lat.median in usec) and of
	 * its ratio (each repeat's own, direct and this path from the same
	 * repeat). repeats 0 or 1: one run, no spread.
	 */
	uint32_t repeats;
	double fig_min, fig_max, fig_cv; /* cv: sample stdev / mean over the repeats */
	double speedup_min, speedup_max;
	const char *ratio_of; /* the path the ratio divides direct by: "staged", "gpu-proxy" */
	/* staged rows: bytes per stager copy; --compare (bandwidth) also the copy leg alone */
	uint64_t stage_chunk;   /* 0 = not staged */
	uint64_t stage_ring;    /* bounce ring bytes per direction */
	uint32_t stage_streams; /* copy streams per direction */
	char stage_copy[24];    /* its copier: "ce", "sm", ...; "client/server" when they differ */
	double copy_Bps;        /* stager copy rate at that chunk, no network; 0 = not measured */
	double model_Bps;	/* min(copy rate, wire rate): the best a staged pipeline does, the
				 * wire rate being the host row's best repeat; with a copier that
				 * blocks the loop (copy_blocks) the two take turns:
				 * 1 / (1/copy + 1/wire) (staging/row.c) */
	bool copy_blocks;	/* a side's copier blocks the staged loop's thread (gdrcopy) */
	double efficiency;      /* staged / model, at most 1; 0 = none (or dropped: eff_over) */
	double eff_over;        /* staged / model came out above 1: not shown, said (0: no) */
	double cpu_pct;         /* this side's CPU use in its loop, % of one core (user+sys / wall) */
	/* -c UD/UC send_bw: what the receiver got (loss is silent there) */
	bool has_delivery;
	uint64_t delivered;   /* messages the receiver counted in its measured time */
	double delivered_Bps; /* the receiver's rate over its measured time */
	uint64_t sent_total;  /* messages sent, all of them (a -D run's drain too) */
	uint64_t lost;        /* sent_total - messages that arrived */
	/*
	 * Staged read latency: the target's device->host copy runs before the clock
	 * (its ring is staged once), so the row leaves out a copy a real transfer
	 * needs; it carries no direct_over_staged.
	 */
	bool target_copy_untimed;
	/*
	 * Bandwidth rows: what the row could reach (driver/ceil_row.c, from
	 * sysinfo/ceiling.h): the least of this side's port rate, PCIe links and,
	 * on staged rows, the copy rate (x2 with -b); 0 = unknown or latency.
	 */
	double ceiling_Bps;
	char ceil_limit[48]; /* what sets it: "NIC port 10 Gb/s", "GPU PCIe Gen5 x16" */
	/* gpu-proxy bandwidth rows, the client's: the kernel's own descriptor rate (msg/s); 0 none */
	double gp_kernel_rate;
	char ceil_note[192]; /* its assumptions and caveats; "" none */
	/* acceptance (driver/accept.c): -w/-y/--expect-bw verdict, -W counter deltas */
	double port_Bps;      /* the port's active rate (x2 with -b) */
	double payload_frac;  /* share of port_Bps left for payload at the MTU; 0 = unknown (1) */
	bool reference;       /* --compare's host or staged row beside the path under test: no verdict */
	double limit_Bps;     /* bandwidth floor of this row; 0 = none */
	double limit_pps;     /* message-rate floor; 0 = none */
	int verdict;          /* enum gdr_verdict */
	char why[240];        /* a failed verdict (cluster_int.h: err[240]): "41.20 MiB/s < 100 MiB/s (-w)" */
	/*
	 * A KV-cache-shaped row (--block, docs/kv.md): bytes is the block, iters the blocks
	 * moved, msg_rate_pps blocks/s. The batch times and the contiguous reference are the
	 * client's (0 on the server's row).
	 */
	uint32_t kv_batch;	/* blocks a batch; 0: not a KV row */
	uint64_t kv_pool;	/* the remote pool, bytes */
	uint32_t kv_regions;	/* --regions: the memory regions the pool is registered as */
	uint64_t kv_region_bytes; /* a region's bytes (the pool's slots' bytes / kv_regions) */
	uint32_t kv_sge;	  /* --sge: blocks a work request (its SGEs), a run of pool slots */
	char kv_place[32];	/* "seq", "stride:4", "random:1" */
	double kv_blocks_ps;	/* blocks per second */
	uint64_t kv_batches;	/* batches timed */
	double kv_batch_med_us; /* a batch's post to its completion: median, usec */
	double kv_batch_p99_us; /* ... 99th percentile (nearest rank), usec */
	double kv_contig_Bps;	/* the same bytes contiguous (a batch in one operation), B/s */
	double kv_eff;		/* bw_avg_Bps / kv_contig_Bps, not clamped; 0: none */
	double kv_floor;	/* --kv-floor: the efficiency this row had to reach; 0: none */
	const struct gdr_cnt_delta *cnt; /* counters that moved; NULL = not read (-W off) */
	int ncnt;
	const char *cnt_dev; /* "rxe0 port 1" */
};

enum gdr_verdict { GDR_VERDICT_NONE = 0, GDR_VERDICT_PASS, GDR_VERDICT_FAIL };

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
