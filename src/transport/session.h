/* SPDX-License-Identifier: MIT */
/* The session protocol between the two sides, on top of the out-of-band channel. */
#ifndef GDR_SESSION_H
#define GDR_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "conn.h"
#include "stop.h"
#include "test_req.h"
#include "xchg.h"

/* session.c: the exchange on top of the oob channel */
int gdr_session_client_hello(struct gdr_conn *c, const struct gdr_test_req *req);
/*
 * Server: check the client's request m (a HELLO) against this side's
 * options (read only) and decode it into req; the driver applies it to the
 * run's options. 0, or a refusal (REJECT sent, reason printed): GDR_REFUSED,
 * the server may serve the next client; GDR_REFUSED_FATAL, it must stop (its
 * own options conflict).
 */
#define GDR_REFUSED	  (-3)
#define GDR_REFUSED_FATAL (-2)
int gdr_session_server_hello(struct gdr_conn *c, const struct gdr_msg *m, struct gdr_test_req *req);
int gdr_session_accept(struct gdr_conn *c);
int gdr_session_qpinfo(struct gdr_conn *c, struct gdr_path *p); /* p's QPs and memory */
int gdr_sync_send(struct gdr_conn *c, uint32_t step, uint64_t value);
int gdr_sync_expect(struct gdr_conn *c, uint32_t step, uint64_t *value);
/* Receive a message of type `type`, skipping heartbeats; every wait bounded. */
int gdr_session_expect(struct gdr_conn *c, struct gdr_msg *m, uint16_t type);
/*
 * Whether c's transport moves the peer's traffic only while this side calls
 * into it (every one but verbs: ofi's software providers need it, loop's
 * polls move its own queues), and the next message, polling the transport
 * meanwhile where it needs that (xp_recv.c).
 */
bool gdr_xp_manual(const struct gdr_conn *c);
int gdr_xp_recv(struct gdr_conn *c, struct gdr_msg *m);
/*
 * Exchange this side's measurement with the peer's. The server receives
 * first, so each side validates after the peer's data has landed; check
 * (NULL: nothing to check) validates this side's received payload and
 * describes a mismatch in note. A failure on either side fails both.
 */
typedef int (*gdr_check_fn)(struct gdr_conn *c, void *arg, char *note, size_t n);
int gdr_session_results(struct gdr_conn *c, struct gdr_result_wire *mine,
			struct gdr_result_wire *peer, gdr_check_fn check, void *arg);
/* This host's name ("unknown" when it has none) for headers and reports. */
void gdr_hostname(char *buf, size_t len);
/* Send a heartbeat if a second has passed since the last one (active loops). */
int gdr_heartbeat(struct gdr_conn *c, uint64_t now_ns);
/*
 * Loops: at most every GDR_PEER_CHECK_NS, look (without blocking or sending)
 * whether the peer closed the out-of-band connection, so a peer that ended
 * is reported at once, in the words of any other wait. 0, or -1 (printed).
 */
#define GDR_PEER_CHECK_NS 50000000ULL
int gdr_peer_check(struct gdr_conn *c, uint64_t now_ns);
/*
 * Loops: has a stop been asked (SIGINT/SIGTERM on a client not run with
 * --run_infinitely)? Then note where in *at (done of total messages, total
 * 0 for -D; the run's record, struct gdr_run) and return true: the loop ends
 * with -1 and prints nothing, the driver says where the run stopped and
 * writes what completed.
 */
bool gdr_interrupted(const struct gdr_conn *c, struct gdr_stop_at *at, uint64_t done,
		     uint64_t total);
/*
 * Refuse: print the reason and send it in a REJECT. An error; with
 * gdr_session_refuse and soft, a warning (a server that serves the next
 * client: the refusal is the client's matter, not the server's failure).
 */
void gdr_session_reject(struct gdr_conn *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void gdr_session_refuse(struct gdr_conn *c, bool soft, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
	GDR_STEP_STAGE_COPY = 11, /* staged path, each size: this side's copier (gdr_copier_kind) */
	GDR_STEP_GPU_ID = 12,     /* staged path: this side's GPU (host boot and PCI function), 0: none */
	GDR_STEP_PROBED = 13,     /* staged path, one GPU for both sides: the server's probes are done */
	GDR_STEP_KV_KEY = 14,     /* --regions: the server's key of each pool region, in order */
};

#endif
