/* SPDX-License-Identifier: MIT */
/*
 * The tests' options: the settings struct that the rows of the tests' table
 * (opts_table.c) point into, parsed by the option engine (optengine.h).
 */
#ifndef GDR_OPTS_H
#define GDR_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "optengine.h"
#include "place.h"
#include "preset.h"

enum gdr_verb {
	GDR_VERB_WRITE = 0,
	GDR_VERB_READ = 1,
	GDR_VERB_SEND = 2,
	GDR_VERB_ATOMIC = 3,
	GDR_VERB_WRITE_IMM = 4, /* the write tests with --write_with_imm */
};
/* -A: the atomic operation of the atomic tests. */
enum gdr_atomic_op { GDR_ATOMIC_FAA = 0, GDR_ATOMIC_CAS = 1 };
#define GDR_ATOMIC_BYTES 8 /* every atomic operation moves 8 bytes */

/* Reads and atomics: the requester's NIC fetches from the peer, whose CPU takes no part. */
bool gdr_verb_fetches(enum gdr_verb v); /* the verb's row (verb_def.h) */
enum gdr_kind { GDR_KIND_BW = 0, GDR_KIND_LAT = 1 };
/* -c: transport service of the QPs (perftest's names). */
enum gdr_qp_type { GDR_CONN_RC = 0, GDR_CONN_UC = 1, GDR_CONN_UD = 2 };
#define GDR_UD_GRH 40 /* bytes a UD receive gets before the payload (the GRH, or room for it) */


/* How GPU memory is registered with the NIC. */
enum gdr_cuda_reg { GDR_REG_AUTO = 0, GDR_REG_DMABUF = 1, GDR_REG_PEERMEM = 2 };

/* The test a binary runs by default (a binary is a default test, not a main). */
struct gdr_test {
	const char *name; /* "write_bw" */
	enum gdr_verb verb;
	enum gdr_kind kind;
};

#define GDR_MAX_PCT 8      /* percentiles reported by latency tests */
#define GDR_INFINITE_INTERVAL 5.0 /* --run_infinitely without --interval: seconds per line */
#define GDR_PERFTEST_JSON "perftest_out.json" /* --out_json without --out_json_file */
#define GDR_MAX_QPS 64     /* -q upper bound */
#define GDR_DEFAULT_PORT 18515
/* --matrix_dir: GPU -> host memory (the NIC reads the GPU), host memory -> GPU, or both */
enum gdr_matrix_dir { GDR_MATRIX_BOTH, GDR_MATRIX_D2H, GDR_MATRIX_H2D };
#define GDR_CUDA_NONE (-1) /* no --use_cuda */
#define GDR_CUDA_AUTO (-2) /* --use_cuda=auto */

/* The characters of a --run_token (1 to 31 of them), on the command line and in a HELLO. */
#define GDR_RUN_TOKEN_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-"
/* --transport=NAME: the default, and the characters of a name in a HELLO. */
#define GDR_XPORT_DEFAULT "verbs"
#define GDR_XPORT_NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_"
#define GDR_XPORT_NAME_MAX 16 /* the name's NUL included */
#define GDR_KV_MAX_LIST 8    /* --block and --batch: values each */
#define GDR_KV_MAX_BATCH 4096 /* --batch: blocks per batch at most */
#define GDR_KV_MAX_POOL (64ULL << 30) /* --pool at most */
#define GDR_KV_MAX_REGIONS 1024 /* --regions at most: memory regions of the pool */
#define GDR_KV_MAX_SGE	     32	  /* --sge at most (xport.h GDR_XOP_MAX_SGE) */

/*
 * --block's and --batch's value, "A,B,C" of sizes (sizes: bytes, suffix K, M,
 * G) or whole counts, each in min..max, into vals[0 .. GDR_KV_MAX_LIST): the
 * count, or -1 (one line printed, lab naming the option). opts_kv.c; gdr_stage_bw
 * parses its --block and --batch with it too.
 */
int gdr_kv_list(const char *s, const char *lab, bool sizes, uint64_t min, uint64_t max,
		uint64_t *vals);
/* --place's value into *out (opts_kv.c; gdr_stage_bw too): 0, or -1 with one line naming lab. */
int gdr_kv_place_value(const char *s, const char *lab, struct gdr_kv_place *out);

struct gdr_opts {
	/* ---- the test: decided by the client, sent to the server ---- */
	enum gdr_verb verb;
	enum gdr_kind kind;
	uint64_t size;        /* -s, bytes (default 65536 bw, 2 lat) */
	bool all_sizes;       /* -a: 2 B .. 8 MiB, powers of two */
	bool sizes_set;       /* --sizes=MIN:MAX[:FACTOR] given */
	uint64_t size_min;    /* --sizes */
	uint64_t size_max;
	uint32_t size_factor; /* >= 2, default 2 */
	uint64_t iters;       /* -n (default 5000 write_bw, 1000 others) */
	double duration;      /* -D seconds; 0 = iteration mode */
	bool run_infinitely;  /* --run_infinitely: one size until SIGINT/SIGTERM (client) */
	uint32_t tx_depth;    /* -t (default 128 bw, 1 lat) */
	uint32_t rx_depth;    /* -r receive queue depth (default 512, send tests) */
	uint32_t cq_mod;      /* -Q signal every N sends (default 100, bw) */
	uint32_t post_list;   /* -l at most N work requests per post call (default 32, bw) */
	uint32_t num_qps;     /* -q (default 1) */
	double rate_limit;    /* --rate_limit: pace posts to this rate, 0 = off */
	int rate_units;       /* --rate_units: enum gdr_rate_unit (pace.h), default Gb/s */
	bool bidir;           /* -b */
	uint32_t mtu;         /* -m 256..4096, 0 = port's active MTU */
	uint32_t inline_size; /* -I bytes, 0 = no inline */
	bool validate;        /* --validate */
	bool events;          /* -e: sleep on completion events, not busy polling (this side) */
	uint64_t warmup;      /* --warmup=N iterations excluded from statistics */
	bool staged;          /* --staged: NIC touches only host bounce buffers */
	bool compare;         /* --compare: direct and staged rows per size */
	uint32_t repeat;      /* --repeat: runs of each size's paths, interleaved (--compare) */
	uint64_t stage_chunk; /* --stage_chunk: bytes per stager copy (default 1 MiB) */
	int stage_copy;       /* --stage_copy: enum gdr_copier_kind, auto (0), ce, gdrcopy, sm, batch */
	bool use_imm;         /* --use_imm: write latency via write-with-immediate */
	bool write_with_imm;  /* --write_with_imm: the write tests run the write_imm row */
	int conn;             /* -c RC|UC|UD: enum gdr_qp_type (default RC) */
	int atomic_op;        /* -A: enum gdr_atomic_op (default FETCH_AND_ADD) */
	bool atomic_contention; /* --atomic_contention: every atomic on one 8-byte word */
	int npct;             /* --percentiles=LIST (default 99,99.9) */
	double pct[GDR_MAX_PCT];
	/* KV-cache-shaped transfers (opts_kv.c, docs/kv.md): blocks x batches, one row each */
	uint32_t kv_nblocks;		    /* --block=SIZE[,SIZE...]: 0 = not a KV run */
	uint64_t kv_blocks[GDR_KV_MAX_LIST]; /* bytes per block */
	uint32_t kv_nbatch;		    /* --batch=N[,N...] */
	uint32_t kv_batch[GDR_KV_MAX_LIST];  /* blocks per batch: one signalled completion each */
	uint64_t kv_pool;		    /* --pool=SIZE: the remote pool, bytes (0: the default) */
	struct gdr_kv_place kv_place;	    /* --place: kind, stride, seed */
	uint32_t kv_regions;		    /* --regions=M: the pool as M memory regions (1) */
	uint32_t kv_sge;		    /* --sge=N: blocks a work request, its SGEs (1) */
	bool kv_model_set;		    /* --kv-model given */
	struct gdr_kv_model kv_model;

	/* ---- local: each side decides its own ---- */
	char *server;     /* client: positional <server>; NULL = server role */
	char *dev_name;   /* -d, NULL = first device */
	char *provider;   /* --provider: libfabric's provider (ofi transport), NULL = its first */
	int ib_port;      /* -i (default 1) */
	int gid_index;    /* -x, -1 = automatic */
	uint16_t port;    /* -p TCP port (default 18515) */
	char *bind_addr;  /* --bind=ADDR server listen address (default any) */
	bool rdma_cm;     /* -R */
	bool report_gbits; /* --report_gbits */
	bool report_both; /* --report-both: each side's own figure too, on both sides */
	char *cpu_list;   /* --cpu=LIST */
	bool no_pin;      /* --no-pin */
	bool disable_pcie_relaxed; /* --disable_pcie_relaxed: no IBV_ACCESS_RELAXED_ORDERING */
	int use_cuda;     /* --use_cuda=<idx>|auto; GDR_CUDA_NONE/GDR_CUDA_AUTO */
	char *cuda_bus_id; /* --use_cuda_bus_id=BDF */
	enum gdr_cuda_reg cuda_reg; /* --use_cuda_dmabuf / --use_cuda_peermem */
	bool cuda_pcie_mapping; /* --use_cuda_pcie_mapping: dma-buf mapped through BAR1 */
	bool data_direct; /* --use_data_direct: mlx5dv data-direct dma-buf registration */
	bool rocm;	  /* --use_rocm given: the buffers are in an AMD GPU */
	int use_rocm;	  /* --use_rocm=<idx>|auto (HIP's index); GDR_CUDA_AUTO; or the bus id */
	char rocm_bus_id[16]; /* --use_rocm=BDF: the AMD GPU at this PCI address; "" none */
	bool rocm_dmabuf;     /* --use_rocm_dmabuf: register AMD GPU memory through dma-buf */
	bool use_hugepages; /* --use_hugepages */
	char *csv_file;   /* --csv=FILE */
	char *json_file;  /* --json=FILE ("-" = stdout) */
	char *samples_file; /* --samples=FILE */
	bool out_json;    /* --out_json: perftest's name for --json=perftest_out.json */
	char *out_json_file; /* --out_json_file=FILE: perftest's name for --json=FILE */
	double interval;  /* --interval=S progress lines in duration mode */
	double timeout;   /* --timeout=S every peer wait (default 30) */
	double listen_timeout; /* --listen_timeout=S server waits for a client (default 600) */
	double connect_timeout; /* --connect_timeout=S client retries connecting (default 3) */
	bool quiet;       /* --quiet: no informational lines */
	bool persistent;  /* --persistent: server serves clients one after another */
	uint64_t max_mem; /* --max_mem=SIZE server: memory a client may make it pin, 0 = auto */
	double max_time;  /* --max_time=S server: longest run (-D x sizes x paths) it accepts */
	char *allow;      /* --allow=CIDR[,CIDR] server: networks clients may come from */
	uint32_t tclass;  /* -T/--tos/--tclass: GRH traffic class, rdma_cm's ToS (default 0) */
	bool perftest_header; /* --perftest_header: perftest's column names in the text table */
	bool qp_addr;	      /* --qp_addr: perftest's local/remote address lines per QP */
	uint32_t sl;      /* -S service level (default 0) */
	uint32_t qp_timeout; /* -u QP ack timeout exponent (default 14) */
	uint32_t outs;    /* -o outstanding reads/atomics per QP, 0 = device limit (<= 16) */
	char *source_ip;  /* --source_ip=ADDR client: local address of the connections */
	char *run_token;  /* --run_token=WORD: a server serves, a client talks to, only the same */
	char *transport;  /* --transport=NAME: verbs (NULL), ofi, loop (transport/xport_pick.c) */
	/* ---- cluster mode (src/cluster) ---- */
	bool cluster;     /* --cluster: every rank pair of an MPI job */
	char *pattern;    /* --pattern=pairwise|quick|shift=K */
	bool same_host;   /* --same-host: pair ranks, same host included */
	double expect_bw; /* --expect-bw=GBPS: SLOW below (Gb/s), 0 = relative only */
	double expect_pct; /* --expect-bw=auto[:PCT]: below PCT% of the port's rate; 0 = off */
	double expect_lat; /* --expect-lat=US: SLOW over (median, us), 0 = relative only */
	double slow_pct;  /* --slow-pct=PCT: SLOW under PCT% of the peers' median, 0 = off */
	char *rails;      /* --rails=DEV[:PORT],...: rail of local rank i */
	char *pairs_file; /* --pairs-file=F: the rounds, one a line, "A:B" rank pairs */
	char *retest;     /* --retest=CSV: the pairs flagged in an earlier run's CSV */
	char *topology;   /* --topology=KIND:FILE: the fabric planner's rounds (cluster/fabric*.c) */
	double ecmp_eps;  /* --ecmp[=EPS]: the rounds again until an ECMP path is missed with <= EPS */
	bool switch_counters; /* --switch-counters: perfquery the switch ports a round loads */
	bool perftest_F;  /* -F: perftest's "ignore CPU frequency"; nothing to ignore here */
	/* ---- --matrix (src/launch/matrix.c, docs/matrix.md) ---- */
	char *matrix;	     /* --matrix=DEV[:PORT],...|all: every GPU x these NIC ports */
	double matrix_time;  /* --matrix_time=SEC: each path of a cell runs SEC seconds */
	bool matrix_shared;  /* --matrix_shared: every GPU through each NIC at once, and back */
	int matrix_dir;	     /* --matrix_dir: enum gdr_matrix_dir, the directions a cell runs */
	char *pairing;	     /* --pairing=FILE: --matrix writes it, --use_cuda=auto reads it */
	/* ---- perftest's flags scripts use (opts_compat.c) ---- */
	int output;		 /* --output=WHAT: enum gdr_output, one number a row on stdout */
	bool no_peak;		 /* -N/--noPeak: no BW peak (no windows tracked, reported n/a) */
	bool cpu_util;		 /* --cpu_util: this side's CPU use as a column of the table */
	bool ipv6;		 /* --ipv6: the automatic GID is an IPv6 one, not IPv4-mapped */
	bool dont_xchg_versions; /* --dont_xchg_versions: accepted, no effect (own HELLO) */
	/* ---- acceptance (src/driver/accept.c) ---- */
	double limit_bw;      /* -w: a size whose average is below fails (MiB/s, Gb/s with --report_gbits) */
	double limit_msgrate; /* -y: a size whose message rate is below fails (Mpps) */
	double kv_floor;      /* --kv-floor: a KV row below this kv_efficiency fails (ratio) */
	bool report_counters; /* -W: port, hw and PCIe AER counter deltas around each size */
	char *counters_list;  /* -W LIST / --report-counters=LIST: only these (perftest's form) */
	char *prom_file;      /* --prom=FILE: Prometheus text (node_exporter textfile collector) */
	uint64_t set_bits[2]; /* which table entries were given on the command line */
};

/* --output: perftest's single number per row instead of the table. */
enum gdr_output {
	GDR_OUTPUT_TABLE,	 /* not given */
	GDR_OUTPUT_BANDWIDTH,	 /* average bandwidth (MiB/s, Gb/s with --report_gbits) */
	GDR_OUTPUT_MESSAGE_RATE, /* average message rate (Mpps) */
	GDR_OUTPUT_LATENCY,	 /* average latency (usec) */
};

/* Where received payload starts in a receive buffer: after the GRH with -c UD. */
static inline unsigned gdr_rx_off(const struct gdr_opts *o)
{
	return o->conn == GDR_CONN_UD ? GDR_UD_GRH : 0;
}

/*
 * Whether the option whose settings field is at `field` (e.g. &o->size) was
 * given on the command line (used by the server to spot mismatched options).
 */
bool gdr_opts_is_set(const struct gdr_opts *o, const void *field);

/*
 * Parse argv into *o, starting from the defaults of test t.
 * Returns 0: run; 1: done successfully (--help, --version printed); -1: bad
 * input (one clear line already printed on stderr).
 */
int gdr_opts_parse(struct gdr_opts *o, const struct gdr_test *t, int argc, char **argv);
void gdr_opts_usage(FILE *f, const struct gdr_test *t);
void gdr_opts_free(struct gdr_opts *o);

/*
 * The list of message sizes a run covers (-s, -a or --sizes), ascending.
 * *sizes is malloc'ed. Returns 0 or -1 (error printed).
 */
int gdr_opts_sizes(const struct gdr_opts *o, uint64_t **sizes, size_t *n);
/*
 * A KV run (--block or --kv-model, opts_kv.c): its cells block-major, cell i
 * is block kv_blocks[i / kv_nbatch] x batch kv_batch[i % kv_nbatch]; the
 * run's sizes are the cells' blocks. Checked, defaults applied (the model's
 * shape, the pool, -t): 0, or -1 (one line printed), before any network step.
 */
int gdr_opts_kv_check(struct gdr_opts *o);
/* The batch of the run's size (cell) i; 0 when the run is not a KV run. */
uint32_t gdr_opts_kv_batch(const struct gdr_opts *o, size_t i);
/* The pool a KV run's shapes need by default: twice its largest block x batch. */
uint64_t gdr_opts_kv_pool_default(const struct gdr_opts *o);
/*
 * -c UD: one packet per message, so no size may pass the port's MTU (bytes).
 * A default size (given false) becomes mtu and -a (all) stops at mtu, each
 * said in one line, as perftest does; a size given above mtu is refused in
 * one line. Before any network step. 0 or -1.
 */
int gdr_ud_fit_sizes(uint64_t *sizes, size_t *n, uint32_t mtu, bool all, bool given);

#define GDR_MAX_MSG_SIZE (1ULL << 30) /* 1 GiB per message */
#define GDR_MAX_SIZES 64              /* sizes per run */
#define GDR_MAX_REPEAT 15             /* --repeat: runs of a size's paths at most */

/*
 * Check a value that came from elsewhere (a client's request) against the
 * range of the option named `name` in the table. 0, or -1 with why set
 * ("-t 134217728 is out of range 1..16384").
 */
int gdr_opt_check(const char *name, double v, char *why, size_t len);
/* The test options given on this command line, as typed ("-a -n"); "" when none. */
void gdr_opts_test_given(const struct gdr_opts *o, char *buf, size_t len);

const char *gdr_verb_name(enum gdr_verb v); /* "write" */
const char *gdr_conn_name(int conn);         /* "RC" */
/* NULL when the test of o runs on its -c connection type, else why not (opts_conn.c). */
const char *gdr_conn_refusal(const struct gdr_opts *o);
const char *gdr_kind_name(enum gdr_kind k); /* "bw" */

#endif
