/* SPDX-License-Identifier: MIT */
/* The state of one side of a running test: options, verbs resources, peer, buffers. */
#ifndef GDR_CTX_H
#define GDR_CTX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include "mem.h"
#include "oob.h"
#include "opts.h"
#include "results.h"
#include "role.h"
#include "xchg.h"

/*
 * A path is what the NIC works with: its own QPs and registered memory.
 * "direct" (or "host") registers the test's memory; "staged" registers
 * pinned host bounce buffers and copies to/from the test's memory.
 */
struct gdr_path {
	const char *name;
	bool staged;
	struct gdr_mem *mem; /* registered: &ctx->data or &ctx->bounce */
	struct ibv_mr *mr;
	struct ibv_qp *qp[GDR_MAX_QPS];
	uint32_t psn[GDR_MAX_QPS];
	struct rdma_cm_id *cm_id[GDR_MAX_QPS];
	struct ibv_ah *ah[GDR_MAX_QPS]; /* -c UD: the address of the peer's QP i */
	uint32_t inline_max;      /* inline data the QPs were created for */
	struct gdr_qpinfo remote; /* peer's QPs and buffer on this path */
};

#define GDR_MAX_PATHS 3 /* host, direct, staged */

struct gdr_ctx {
	struct gdr_opts *o;
	bool is_server;
	struct gdr_role role; /* what this side does in the test (role.h) */

	/* verbs */
	struct ibv_context *vctx; /* ours (ibv_open_device) or the CM's */
	bool own_vctx;
	struct ibv_pd *pd;     /* memory registrations */
	struct ibv_pd *qpd;    /* QPs: the parent domain when a thread domain exists, else pd */
	struct ibv_td *td;     /* thread domain (tdomain.c), or NULL */
	struct ibv_pd *parent; /* parent domain holding td, or NULL */
	bool cq_single;	       /* CQs created with the single-threaded flag (extended poll API) */
	char td_desc[80];      /* thread domain in use, for the header */
	struct ibv_cq *scq, *rcq;
	struct ibv_comp_channel *cch; /* -e: both CQs' completion channel, else NULL */
	uint32_t nqp;
	int port;
	int gid_index;
	union ibv_gid gid;
	struct ibv_port_attr pattr;
	enum ibv_mtu mtu;
	char dev_name[64];
	uint32_t max_rd_atomic; /* this side's -o within the device: responder resources */
	uint32_t init_depth;	/* reads/atomics it issues: min(own, peer's responder resources) */
	bool inline_explicit; /* -I given (by the client) */

	/* rdma_cm (-R) */
	struct rdma_event_channel *ec;
	struct rdma_cm_id *listen_id;

	/*
	 * Memory: [tx region][rx region], each region_len bytes. data is the
	 * test's memory (host or GPU); bounce holds pinned host buffers of the
	 * same geometry plus a control page (staged path).
	 */
	struct gdr_mem data;
	struct gdr_mem bounce;
	struct gdr_mem hostmem; /* --compare with GPU memory: the host path's memory */
	struct gdr_path path[GDR_MAX_PATHS];
	bool client_gpu;        /* the client's test memory is GPU memory */
	bool any_gpu;           /* --compare: either side's test memory is GPU memory */
	uint32_t npaths;
	struct gdr_path *p; /* the path being measured */
	size_t region_len;
	size_t recv_len; /* receives cover the largest size of the run */
	FILE *samples_fp; /* --samples */

	/* exchange */
	struct gdr_oob oob;
	int lfd;              /* server: listening socket, -1 when closed */
	struct gdr_busy busy; /* server: refuses further clients during the test */
	struct gdr_allow allow; /* server: --allow */
	bool soft_reject;     /* server: a refusal is a warning (it serves the next client) */
	uint64_t *sizes;
	size_t nsizes;
	uint64_t hb_last_ns; /* last heartbeat sent */
	uint64_t peer_check_ns; /* last look whether the peer went away (gdr_peer_check) */
	bool admitted;		/* server: a client's test was accepted */
	bool sizes_started;	/* setup is over: the sizes began */
	/* client: where a SIGINT/SIGTERM stopped the run (gdr_stop_requested), for its last line */
	struct {
		bool in_loop;	      /* a timed loop saw it (done/total are set) */
		bool reported;	      /* the driver said where */
		uint64_t size;	      /* the size under way (0: none yet) */
		size_t sizes_done;    /* sizes whose rows are written */
		uint64_t done, total; /* its messages so far, of total (0: -D) */
	} stopped;

	struct gdr_run_info ri;
	char test_name[32];
	bool placed;            /* threads and memory policy set for placed_dev */
	char placed_dev[64];
	char scatter_desc[96];  /* scatter-to-CQE setting, for the header */
};

/* NIC-side addresses of the current path. */
static inline uint8_t *gdr_tx(struct gdr_ctx *c)
{
	return (uint8_t *)c->p->mem->addr;
}
static inline uint8_t *gdr_rx(struct gdr_ctx *c)
{
	return (uint8_t *)c->p->mem->addr + c->region_len;
}
static inline uint64_t gdr_remote_tx(const struct gdr_ctx *c)
{
	return c->p->remote.addr;
}
static inline uint64_t gdr_remote_rx(const struct gdr_ctx *c)
{
	return c->p->remote.addr + c->p->remote.len / 2;
}


/* verbs.c */
int gdr_dev_open(struct gdr_ctx *c);                  /* -d/-i/-x, port checks, PD */
/*
 * Pin the threads and prefer the memory of dev's NUMA node (--cpu, --no-pin
 * as asked) before anything is allocated; again only when dev changes.
 * Fills ri.cpu_placement. Returns 0 or -1 (error printed).
 */
int gdr_place(struct gdr_ctx *c, const char *dev);
int gdr_dev_setup_port(struct gdr_ctx *c);           /* port state, MTU, GID */
int gdr_qps_create(struct gdr_ctx *c);               /* CQs + QPs (non-CM) */
int gdr_cqs_create(struct gdr_ctx *c);
/* tdomain.c: a thread domain for the QPs (after the PD), CQs with the single-threaded flag */
void gdr_td_open(struct gdr_ctx *c);
struct ibv_cq *gdr_cq_create(struct gdr_ctx *c, int cqe);
const char *gdr_td_describe(const struct gdr_ctx *c);
/* The CQs' locking as it applies to ibv_poll_cq, for the header (single: the flag took). */
const char *gdr_cq_describe(bool single);
void gdr_td_close(struct gdr_ctx *c);
/*
 * QP attributes for the current path. Inline data: -I when given; else
 * latency tests on host memory ask for GDR_LAT_INLINE bytes (as perftest
 * does), and retry without if the device refuses (gdr_qp_no_default_inline).
 */
void gdr_qp_init_attr(struct gdr_ctx *c, struct ibv_qp_init_attr *a);
bool gdr_qp_no_default_inline(struct gdr_ctx *c, struct ibv_qp_init_attr *a);
#define GDR_LAT_INLINE 236
int gdr_qps_connect(struct gdr_ctx *c);              /* INIT/RTR/RTS from c->remote */
/*
 * gid_hint.c: one line for a QP that cannot reach RTR (err: errno), naming the
 * GID index used and those that hold a GID; an empty GID from the peer is the
 * peer's failure (oob.peer_failed). gdr_gid_list: "0, 1", the indexes of this
 * port that hold a GID.
 */
void gdr_rtr_failed(struct gdr_ctx *c, const struct ibv_qp *qp, int err, bool global,
		    const uint8_t peer_gid[16]);
bool gdr_gid_empty(const uint8_t gid[16]);
void gdr_gid_list(const struct gdr_ctx *c, char *buf, size_t n);
/* -c UD: address a send WR on QP q to the peer's QP q (nothing for RC and UC). */
void gdr_wr_ud(const struct gdr_ctx *c, uint32_t q, struct ibv_send_wr *wr);
#define GDR_UD_QKEY 0x11111111u
/* Atomic tests: -A's operation on the 8-byte counter off bytes into the peer's tx region. */
void gdr_wr_atomic(const struct gdr_ctx *c, struct ibv_send_wr *wr, uint64_t off);
int gdr_mr_register(struct gdr_ctx *c);
void gdr_verbs_free(struct gdr_ctx *c); /* QPs, CQs, MRs, memory, PD */
void gdr_dev_close(struct gdr_ctx *c);	/* the device, when we opened it */
const char *gdr_link_layer_name(uint8_t ll);
/* Report a failed work completion (one line, with the likely cause); returns -1. */
int gdr_wc_failed(const struct ibv_wc *wc, const char *what);

/*
 * qp_addr.c (--qp_addr): perftest's address lines of every QP of the
 * current path, this side's ("local") then the peer's ("remote"), to f;
 * gdr_qp_addr_line formats one pair of lines into buf.
 */
void gdr_qp_addr_print(const struct gdr_ctx *c, FILE *f);
void gdr_qp_addr_line(char *buf, size_t n, const char *who, uint16_t lid, uint32_t qpn,
		      uint32_t psn, uint32_t rkey, uint64_t vaddr, const uint8_t gid[16]);

/* cq_events.c (-e): a completion channel for both CQs; 0 or -1 (printed). */
int gdr_cq_channel_open(struct gdr_ctx *c); /* before the CQs; nothing without -e */
int gdr_cq_arm(struct gdr_ctx *c);          /* request the next event of each CQ */
/* Sleep until a completion event or max_ms; re-arms the CQs. 0 (either) or -1. */
int gdr_cq_wait(struct gdr_ctx *c, int max_ms);
void gdr_cq_channel_close(struct gdr_ctx *c); /* after the CQs are destroyed */

/* cm.c (-R) */
int gdr_cm_server(struct gdr_ctx *c);  /* listen, accept nqp connections */
int gdr_cm_listen(struct gdr_ctx *c);
int gdr_cm_client(struct gdr_ctx *c);
/* Client: the RDMA device rdma_cm resolves the server's address to, into c->dev_name. */
int gdr_cm_probe_device(struct gdr_ctx *c);
void gdr_cm_close(struct gdr_ctx *c);

/* teardown.c: everything above, in reverse order of creation (verbs, CM ids, device). */
void gdr_verbs_close(struct gdr_ctx *c);

/* session.c: the exchange on top of the oob channel */
int gdr_session_client_hello(struct gdr_ctx *c);
/*
 * Server: check the client's request m (a HELLO) and adopt its test. 0, or a
 * refusal (REJECT sent, reason printed): GDR_REFUSED, the server may serve
 * the next client; GDR_REFUSED_FATAL, it must stop (its own options conflict).
 */
#define GDR_REFUSED	  (-3)
#define GDR_REFUSED_FATAL (-2)
int gdr_session_server_hello(struct gdr_ctx *c, const struct gdr_msg *m);
int gdr_session_accept(struct gdr_ctx *c);
int gdr_session_qpinfo(struct gdr_ctx *c);
int gdr_sync_send(struct gdr_ctx *c, uint32_t step, uint64_t value);
int gdr_sync_expect(struct gdr_ctx *c, uint32_t step, uint64_t *value);
/* Receive a message of type `type`, skipping heartbeats; every wait bounded. */
int gdr_session_expect(struct gdr_ctx *c, struct gdr_msg *m, uint16_t type);
/*
 * Exchange this side's measurement with the peer's. The server receives
 * first, so each side validates after the peer's data has landed; check
 * (NULL: nothing to check) validates this side's received payload and
 * describes a mismatch in note. A failure on either side fails both.
 */
typedef int (*gdr_check_fn)(struct gdr_ctx *c, void *arg, char *note, size_t n);
int gdr_session_results(struct gdr_ctx *c, struct gdr_result_wire *mine,
			struct gdr_result_wire *peer, gdr_check_fn check, void *arg);
/* This host's name ("unknown" when it has none) for headers and reports. */
void gdr_hostname(char *buf, size_t len);
/* Send a heartbeat if a second has passed since the last one (active loops). */
int gdr_heartbeat(struct gdr_ctx *c, uint64_t now_ns);
/*
 * Loops: at most every GDR_PEER_CHECK_NS, look (without blocking or sending)
 * whether the peer closed the out-of-band connection, so a peer that ended
 * is reported at once, in the words of any other wait. 0, or -1 (printed).
 */
#define GDR_PEER_CHECK_NS 50000000ULL
int gdr_peer_check(struct gdr_ctx *c, uint64_t now_ns);
/*
 * Loops: has a stop been asked (SIGINT/SIGTERM on a client not run with
 * --run_infinitely)? Then note where (done of total messages, total 0 for
 * -D) and return true: the loop ends with -1 and prints nothing, the driver
 * says where the run stopped and writes what completed.
 */
bool gdr_interrupted(struct gdr_ctx *c, uint64_t done, uint64_t total);
void gdr_session_reject(struct gdr_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

enum gdr_sync_step {
	GDR_STEP_READY = 1,     /* server prepared for a size */
	GDR_STEP_GO = 2,        /* client starts */
	GDR_STEP_HEARTBEAT = 3, /* active side alive */
	GDR_STEP_DONE = 4,      /* a side finished its loop */
	GDR_STEP_COPY_RATE = 5, /* --compare: this side's stager copy rate, bytes/s */
	GDR_STEP_MEM_GPU = 6,   /* --compare: 1 when this side's test memory is GPU memory */
	/* -c UD/UC send_bw: loss is counted, not waited out */
	GDR_STEP_SENT = 7,      /* sender, as its loop ends: messages it sent (all QPs) */
	GDR_STEP_RECEIVED = 8,  /* receiver, after its loop: messages that arrived */
	GDR_STEP_RX_MEAS = 9,   /* receiver: messages within its measured time */
	GDR_STEP_RX_NS = 10,    /* receiver: its measured time, ns */
};

/* Per-size measurement of one side (bw.c, lat.c). */
struct gdr_side {
	uint64_t msgs;       /* messages completed by this side as requester/receiver */
	uint64_t bytes;
	double duration_s;
	double peak_Bps;
	int status;          /* 0 ok; else error already printed */
	bool validated;      /* receiver checked payload */
	bool valid_ok;
};

#endif
