/* SPDX-License-Identifier: MIT */
/*
 * The loop transport's objects (xport.h): two processes of one host, no NIC.
 *
 * Bytes move in one in-kernel copy, process_vm_writev/readv into or out of
 * the peer's address space (the same user; under Yama ptrace_scope 1 each
 * side names the other with PR_SET_PTRACER at connect). What a NIC would
 * keep on its side lives in memfd shared memory that the peer maps through
 * /proc/PID/fd/N (the address blob carries PID and N; no name is left
 * behind when a process dies):
 * - a domain's region table: the keys a peer checks its reads and writes
 *   against (a bad key or a range outside the region fails, as an rkey does);
 * - an endpoint's mailbox: the receives its owner posted (consumed in order by
 *   the peer's sends and writes with data) and the receive completions the
 *   peer delivers to it.
 * The requester does all the work at post time and in poll: an endpoint's
 * operations run in order from a queue; a send that finds no receive waits
 * there, and fails after GDR_LOOP_RNR_MS, as verbs RC's receiver-not-ready
 * retries do (verbs here retries without end: rnr_retry 7; loop bounds it so
 * that a test never hangs); once an operation fails the endpoint is in error
 * and flushes the rest. A peer that exited (its pidfd) fails operations and
 * flushes posted receives. No progress thread: posts and polls (of either
 * CQ) move the queues, so a domain is used by one thread at a time.
 */
#ifndef GDR_LOOP_H
#define GDR_LOOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include "xport.h"
#include "loop_xp.h"

#define GDR_LOOP_MAGIC	0x474c5031u /* "GLP1": a loop address blob, mailbox or table */
#define GDR_LOOP_REGS	256	    /* registrations per domain */
#define GDR_LOOP_RNR_MS 2000	    /* how long a send waits for a receive before it fails */

/* A completion's status (gdr_xcqe.status): cqe_error's words for each. */
enum gdr_loop_status {
	GDR_LOOP_OK = 0,
	GDR_LOOP_E_REMOTE_ACCESS, /* bad key, no access, or a range outside the peer's region */
	GDR_LOOP_E_LOCAL_PROT,	  /* the local range is outside its region */
	GDR_LOOP_E_RNR,		  /* a send found no posted receive in GDR_LOOP_RNR_MS */
	GDR_LOOP_E_LEN,		  /* a send longer than the receive it consumed */
	GDR_LOOP_E_PEER,	  /* the peer exited or closed its endpoint */
	GDR_LOOP_E_COPY,	  /* the kernel refused the copy (errno in the line) */
	GDR_LOOP_E_FLUSH,	  /* the endpoint was in error: not run */
	GDR_LOOP_E_NCODES
};

/* Shared with the peer (memfd): one registration. key 0: free. */
struct gdr_loop_reg {
	_Atomic uint64_t key;
	uint64_t addr, len;
	uint32_t access; /* GDR_XA_* */
	uint32_t pad;
};
struct gdr_loop_tab {
	uint32_t magic, n;
	struct gdr_loop_reg r[GDR_LOOP_REGS];
};

/* Shared with the peer (memfd): a posted receive and a delivered completion. */
struct gdr_loop_rwr {
	uint64_t addr, ctx;
	uint32_t len, pad;
};
struct gdr_loop_rcqe {
	uint64_t ctx;
	uint32_t len, data;
	uint16_t flags;
	int16_t status;
	uint32_t pad;
};
/* An endpoint's mailbox: rq[] and cq[] of cap entries each follow it. */
struct gdr_loop_box {
	uint32_t magic, cap;
	_Atomic uint32_t closed;  /* its owner closed the endpoint */
	_Atomic uint32_t rq_tail; /* receives posted (owner) */
	_Atomic uint32_t rq_head; /* receives consumed (peer) */
	_Atomic uint32_t cq_tail; /* completions delivered (peer) */
	_Atomic uint32_t cq_head; /* completions polled (owner) */
	uint32_t pad;
};
#define GDR_LOOP_RQ(b) ((struct gdr_loop_rwr *)((b) + 1))
#define GDR_LOOP_CQ(b) ((struct gdr_loop_rcqe *)(GDR_LOOP_RQ(b) + (b)->cap))
size_t gdr_loop_box_size(uint32_t cap);

/* The address blob (gdr_xport_ops.addr). */
struct gdr_loop_addr {
	uint32_t magic;
	int32_t pid;
	int32_t box_fd, tab_fd; /* the peer maps /proc/PID/fd/N */
	uint32_t cap;		/* the mailbox's entries */
};

struct gdr_xmr {
	struct gdr_xdom *d;
	uint32_t slot;
	uint64_t addr, len;
	unsigned int access;
};

/* An operation waiting in an endpoint's queue. */
struct gdr_loop_pend {
	struct gdr_xop op;
	struct gdr_xmr *mr;
	uint64_t ctx;
	bool sig;
	uint8_t *inl; /* the payload copied at post (inline), else NULL */
};

struct gdr_xep {
	struct gdr_xdom *d;
	struct gdr_xep *next; /* the domain's list */
	uint16_t index;
	uint32_t max_inline;
	/* mine */
	int box_fd;
	struct gdr_loop_box *box;
	size_t box_len;
	uint32_t rx_posted; /* receives posted whose completion has not been polled */
	/* the peer's */
	pid_t pid;
	int pidfd; /* -1: none (connect not done, or no pidfd_open) */
	struct gdr_loop_box *pbox;
	size_t pbox_len;
	struct gdr_loop_tab *ptab;
	struct gdr_xremote rem;
	bool peer_gone;
	/* the ring of the current size (prep) */
	struct gdr_xop *ring;
	struct gdr_xmr *ring_mr;
	uint32_t n_ring;
	/* the queue: operations posted, not yet run */
	struct gdr_loop_pend *q;
	uint8_t *inl_buf;
	uint32_t q_cap, q_head, q_len;
	bool blocked;		    /* the head waits for a receive ... */
	struct timespec blocked_at; /* ... since then */
	bool error;		    /* an operation failed: the rest are flushed */
};

struct gdr_xdom {
	int tab_fd;
	struct gdr_loop_tab *tab;
	uint32_t gen;
	struct gdr_xep *eps;
	/* the send CQ and the receive CQ's local errors (flushes) */
	struct gdr_xcqe *scq, *rerr;
	uint32_t cq_cap, scq_head, scq_len, rerr_head, rerr_len;
	bool overrun;
	uint32_t idle;	/* empty receive polls, to space out the peers' liveness checks */
	int last_errno; /* the errno of the last failed copy, for cqe_error */
};

/* loop_ep.c */
int gdr_loop_ep_open(struct gdr_xdom *d, const struct gdr_xep_cfg *cfg, struct gdr_xep **ep);
size_t gdr_loop_addr(struct gdr_xep *ep, void *buf, size_t cap);
int gdr_loop_connect(struct gdr_xep *ep, const void *blob, size_t len,
		     const struct gdr_xremote *rem);
void gdr_loop_ep_close(struct gdr_xep *ep);
bool gdr_loop_peer_alive(struct gdr_xep *ep);

/* loop_data.c */
int gdr_loop_prep(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *ops, uint32_t n);
int gdr_loop_post(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		  unsigned int flags, uint32_t last_data);
int gdr_loop_post_op(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op,
		     uint64_t ctx);
int gdr_loop_post_recv(struct gdr_xep *ep, struct gdr_xmr *mr, uint64_t off, uint32_t len,
		       uint32_t n, uint64_t ctx);
int gdr_loop_poll(struct gdr_xdom *d, enum gdr_xcq cq, struct gdr_xcqe *e, int max);
int gdr_loop_cqe_error(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what);
/* loop_run.c: one queued operation against the peer */
int gdr_loop_run(struct gdr_xep *ep, const struct gdr_loop_pend *p, bool *wait);
bool gdr_loop_cq_push(struct gdr_xdom *d, bool recv, const struct gdr_xcqe *e);

#endif
