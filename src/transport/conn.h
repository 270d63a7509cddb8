/* SPDX-License-Identifier: MIT */
/*
 * One side's connection: options, the transport and its opened device,
 * buffers and their paths, the out-of-band channel and what the session
 * protocol keeps. The verbs transport's own handles (device, PD, CQs, QPs,
 * MRs, rdma_cm ids) are behind c->v (struct gdr_vconn, verbs/vconn.h): no
 * verbs header is included here.
 * The run around it (report header, admission, outputs) is the driver's
 * (struct gdr_run, driver/run_state.h).
 */
#ifndef GDR_CONN_H
#define GDR_CONN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "mem.h"
#include "oob.h"
#include "opts.h"
#include "role.h"
#include "xchg.h"
#include "xport.h"

struct gdr_vconn; /* the verbs transport's handles of a connection (verbs/vconn.h) */

/*
 * A path is what the NIC works with: its own QPs and registered memory.
 * "direct" (or "host") registers the test's memory; "staged" registers
 * pinned host bounce buffers and copies to/from the test's memory.
 */
struct gdr_path {
	const char *name;
	bool staged;
	bool proxy; /* gpu-proxy: a GPU kernel produces the messages, a CPU proxy posts them */
	struct gdr_mem *mem; /* registered: &ctx->data or &ctx->bounce */
	int ref;	     /* the path it is compared with (its index; --compare), or -1 */
	unsigned int row;    /* the driver's row it comes from (driver/path_setup.c) */
	/* verbs: its MR and QPs are the transport's (gdr_vp(c, p), verbs/vconn.h) */
	uint32_t inline_max;      /* inline data the QPs were created for */
	struct gdr_qpinfo remote; /* peer's QPs and buffer on this path */
	/* the same through the transport seam (xport.h) */
	struct gdr_xmr *xmr;
	struct gdr_xep *ep[GDR_MAX_QPS];
};

#define GDR_MAX_PATHS 4 /* host, direct, staged, gpu-proxy */

struct gdr_conn {
	struct gdr_opts *o;
	bool is_server;
	struct gdr_role role; /* what this side does in the test (role.h) */

	/* the transport (xport.h): its table, its opened device, the link's facts */
	const struct gdr_xport_ops *xp;
	struct gdr_xdom *xd;
	struct gdr_xlink link;

	/*
	 * verbs: the transport's handles (device, PD, thread domain, CQs, GID,
	 * port attributes, rdma_cm's channel), allocated by the verbs transport
	 * when it first opens something and freed by gdr_verbs_close; NULL else.
	 */
	struct gdr_vconn *v;
	bool cq_single;	       /* CQs created with the single-threaded flag (extended poll API) */
	char td_desc[80];      /* thread domain in use, for the header */
	uint32_t nqp;
	int port;
	int gid_index;
	char dev_name[64];
	uint32_t max_rd_atomic; /* this side's -o within the device: responder resources */
	uint32_t init_depth;	/* reads/atomics it issues: min(own, peer's responder resources) */
	bool inline_explicit; /* -I given (by the client) */

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
	uint32_t npaths;
	struct gdr_gproxy *gp; /* gpu-proxy: the kernel and proxy, opened before the paths */
	bool gp_mps; /* the ping-pong's two kernels share one GPU under MPS (its row says so) */
	size_t region_len;
	size_t recv_len; /* receives cover the largest size of the run */
	uint32_t size_index; /* the run's size being measured (driver/run.c): a KV run's cell */

	/* exchange */
	struct gdr_oob oob;
	uint64_t hb_last_ns; /* last heartbeat sent */
	uint64_t peer_check_ns; /* last look whether the peer went away (gdr_peer_check) */
	char peer_host[64];	/* the peer's host name, from its HELLO or QPINFO */

	bool placed;            /* threads and memory policy set for placed_dev */
	char placed_dev[64];
	char placement[192];	/* where gdr_place put them, for the header */
};

/* NIC-side addresses of path p: this side's tx and rx regions, the peer's. */
static inline uint8_t *gdr_tx(const struct gdr_path *p)
{
	return (uint8_t *)p->mem->addr;
}
static inline uint8_t *gdr_rx(const struct gdr_conn *c, const struct gdr_path *p)
{
	return (uint8_t *)p->mem->addr + c->region_len;
}
static inline uint64_t gdr_remote_tx(const struct gdr_path *p)
{
	return p->remote.addr;
}
static inline uint64_t gdr_remote_rx(const struct gdr_path *p)
{
	return p->remote.addr + p->remote.len / 2;
}

/* -e: a loop with nothing to reap sleeps in c->xp->wait instead of polling again. */
static inline bool gdr_xp_events(const struct gdr_conn *c)
{
	return c->o->events && c->xp->wait;
}

/* n receives of len bytes at the start of path p's rx region on its endpoint q (ctx q), 0 or -1. */
static inline int gdr_post_rx(const struct gdr_conn *c, struct gdr_path *p, uint32_t q, uint32_t n,
			      uint64_t len)
{
	return c->xp->post_recv(p->ep[q], p->xmr, c->region_len, (uint32_t)len, n, q);
}

#endif
