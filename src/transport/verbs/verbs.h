/* SPDX-License-Identifier: MIT */
/*
 * Verbs resources of a connection: device, port, PD, thread domain, CQs, QPs,
 * MRs, teardown; the parts in verbs terms. What the layers above call is in
 * verbs_api.h (no verbs header); this one is the folder's own.
 */
#ifndef GDR_VERBS_H
#define GDR_VERBS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <infiniband/verbs.h>
#include "vconn.h"
#include "verbs_api.h"

/* tdomain.c: a thread domain for the QPs (after the PD), CQs with the single-threaded flag */
void gdr_td_open(struct gdr_conn *c);
struct ibv_cq *gdr_cq_create(struct gdr_conn *c, int cqe);
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
void gdr_verbs_free(struct gdr_conn *c); /* QPs, CQs, MRs, memory, PD */
void gdr_dev_close(struct gdr_conn *c);	/* the device, when we opened it */
/* Report a failed work completion (one line, with the likely cause); returns -1. */
int gdr_wc_failed(const struct ibv_wc *wc, const char *what);

/* qp_addr.c: one pair of --qp_addr lines (gdr_qp_addr_print, verbs_api.h) into buf. */
void gdr_qp_addr_line(char *buf, size_t n, const char *who, uint16_t lid, uint32_t qpn,
		      uint32_t psn, uint32_t rkey, uint64_t vaddr, const uint8_t gid[16]);

/* cq_events.c (-e): a completion channel for both CQs; 0 or -1 (printed). */
int gdr_cq_channel_open(struct gdr_conn *c); /* before the CQs; nothing without -e */
int gdr_cq_arm(struct gdr_conn *c);          /* request the next event of each CQ */
/* Sleep until a completion event or max_ms; re-arms the CQs. 0 (either) or -1. */
int gdr_cq_wait(struct gdr_conn *c, int max_ms);
void gdr_cq_channel_close(struct gdr_conn *c); /* after the CQs are destroyed */


#endif
