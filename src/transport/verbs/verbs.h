/* SPDX-License-Identifier: MIT */
/* Verbs resources of a connection: device, port, PD, thread domain, CQs, QPs, MRs, teardown. */
#ifndef GDR_VERBS_H
#define GDR_VERBS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <infiniband/verbs.h>
#include "conn.h"

/* verbs.c */
int gdr_dev_open(struct gdr_conn *c);                  /* -d/-i/-x, port checks, PD */
/*
 * Pin the threads and prefer the memory of dev's NUMA node (--cpu, --no-pin
 * as asked) before anything is allocated; again only when dev changes.
 * Fills c->placement. Returns 0 or -1 (error printed).
 */
int gdr_place(struct gdr_conn *c, const char *dev);
int gdr_dev_setup_port(struct gdr_conn *c);           /* port state, MTU, GID */
/*
 * The test of c->o with c->nqp QPs (o's -q before it is set) on paths paths
 * and a buffer of mr_len bytes (0: unchecked) within the open device's limits
 * (max_cqe, max_qp_wr, max_qp, max_sge, max_mr_size): 0, else -1 with why
 * ("rxe0: -q 64 with -r 512 needs ..."; nothing printed).
 */
int gdr_dev_fits(struct gdr_conn *c, uint32_t paths, uint64_t mr_len, char *why, size_t len);
int gdr_qps_create(struct gdr_conn *c, struct gdr_path *p); /* p's QPs (non-CM) */
int gdr_cqs_create(struct gdr_conn *c);
/* tdomain.c: a thread domain for the QPs (after the PD), CQs with the single-threaded flag */
void gdr_td_open(struct gdr_conn *c);
struct ibv_cq *gdr_cq_create(struct gdr_conn *c, int cqe);
const char *gdr_td_describe(const struct gdr_conn *c);
/* The CQs' locking as it applies to ibv_poll_cq, for the header (single: the flag took). */
const char *gdr_cq_describe(bool single);
void gdr_td_close(struct gdr_conn *c);
/*
 * QP attributes for path p (p->inline_max is set). Inline data: -I when given; else
 * latency tests on host memory ask for GDR_LAT_INLINE bytes (as perftest
 * does), and retry without if the device refuses (gdr_qp_no_default_inline).
 */
void gdr_qp_init_attr(const struct gdr_conn *c, struct gdr_path *p, struct ibv_qp_init_attr *a);
bool gdr_qp_no_default_inline(const struct gdr_conn *c, struct gdr_path *p,
			      struct ibv_qp_init_attr *a);
#define GDR_LAT_INLINE 236
int gdr_qps_connect(struct gdr_conn *c, struct gdr_path *p); /* INIT/RTR/RTS from p->remote */
/*
 * gid_hint.c: one line for a QP that cannot reach RTR (err: errno), naming the
 * GID index used and those that hold a GID; an empty GID from the peer is the
 * peer's failure (oob.peer_failed). gdr_gid_list: "0, 1", the indexes of this
 * port that hold a GID.
 */
void gdr_rtr_failed(struct gdr_conn *c, const struct ibv_qp *qp, int err, bool global,
		    const uint8_t peer_gid[16]);
bool gdr_gid_empty(const uint8_t gid[16]);
void gdr_gid_list(const struct gdr_conn *c, char *buf, size_t n);
/* -c UD: address a send WR on path p's QP q to the peer's QP q (nothing for RC and UC). */
void gdr_wr_ud(const struct gdr_conn *c, const struct gdr_path *p, uint32_t q,
	       struct ibv_send_wr *wr);
#define GDR_UD_QKEY 0x11111111u
int gdr_mr_register(struct gdr_conn *c, struct gdr_path *p); /* p->mem, p->mr */
void gdr_verbs_free(struct gdr_conn *c); /* QPs, CQs, MRs, memory, PD */
void gdr_dev_close(struct gdr_conn *c);	/* the device, when we opened it */
const char *gdr_link_layer_name(uint8_t ll);
/* Report a failed work completion (one line, with the likely cause); returns -1. */
int gdr_wc_failed(const struct ibv_wc *wc, const char *what);

/*
 * qp_addr.c (--qp_addr): perftest's address lines of every QP of path
 * p, this side's ("local") then the peer's ("remote"), to f;
 * gdr_qp_addr_line formats one pair of lines into buf.
 */
void gdr_qp_addr_print(const struct gdr_conn *c, const struct gdr_path *p, FILE *f);
void gdr_qp_addr_line(char *buf, size_t n, const char *who, uint16_t lid, uint32_t qpn,
		      uint32_t psn, uint32_t rkey, uint64_t vaddr, const uint8_t gid[16]);

/* cq_events.c (-e): a completion channel for both CQs; 0 or -1 (printed). */
int gdr_cq_channel_open(struct gdr_conn *c); /* before the CQs; nothing without -e */
int gdr_cq_arm(struct gdr_conn *c);          /* request the next event of each CQ */
/* Sleep until a completion event or max_ms; re-arms the CQs. 0 (either) or -1. */
int gdr_cq_wait(struct gdr_conn *c, int max_ms);
void gdr_cq_channel_close(struct gdr_conn *c); /* after the CQs are destroyed */

/*
 * verbs_xp.c: the transport seam's objects (c->xp, c->xd, p->xmr, p->ep[])
 * around path p's MR and QPs once they are connected (p->remote known); 0 or
 * -1 (printed). gdr_vx_unwrap frees them all (teardown, before the QPs go).
 */
int gdr_vx_wrap_path(struct gdr_conn *c, struct gdr_path *p);
void gdr_vx_unwrap(struct gdr_conn *c);

/* teardown.c: everything above, in reverse order of creation (verbs, CM ids, device). */
void gdr_verbs_close(struct gdr_conn *c);

#endif
