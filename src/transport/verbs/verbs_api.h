/* SPDX-License-Identifier: MIT */
/*
 * What the layers above the verbs transport (the driver, the session, the
 * registry, --rails) call of it, in their own terms: a connection, a path, a
 * device's name. No verbs header is included here (only the folder sees
 * vconn.h and verbs.h), so nothing above it compiles against the verbs API.
 */
#ifndef GDR_VERBS_API_H
#define GDR_VERBS_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "conn.h"
#include "xport.h"

/* verbs_xp.c: the verbs transport's ops table, a row of xport.c's registry */
extern const struct gdr_xport_ops gdr_xport_verbs;

/* verbs.c */
int gdr_dev_open(struct gdr_conn *c); /* -d/-i/-x, port checks, PD */
/*
 * Pin the threads and prefer the memory of dev's NUMA node (--cpu, --no-pin
 * as asked) before anything is allocated; again only when dev changes.
 * Fills c->placement. Returns 0 or -1 (error printed).
 */
int gdr_place(struct gdr_conn *c, const char *dev);
int gdr_dev_setup_port(struct gdr_conn *c); /* port state, MTU, GID */
/*
 * The test of c->o with c->nqp QPs (o's -q before it is set) on paths paths
 * and a buffer of mr_len bytes (0: unchecked) within the open device's limits
 * (max_cqe, max_qp_wr, max_qp, max_sge, max_mr_size): 0, else -1 with why
 * ("rxe0: -q 64 with -r 512 needs ..."; nothing printed).
 */
int gdr_dev_fits(struct gdr_conn *c, uint32_t paths, uint64_t mr_len, char *why, size_t len);
int gdr_qps_create(struct gdr_conn *c, struct gdr_path *p); /* p's QPs (non-CM) */
int gdr_cqs_create(struct gdr_conn *c);
/* tdomain.c: the thread domain in use, for the header */
const char *gdr_td_describe(const struct gdr_conn *c);
/* The CQs' locking as it applies to ibv_poll_cq, for the header (single: the flag took). */
const char *gdr_cq_describe(bool single);
int gdr_qps_connect(struct gdr_conn *c, struct gdr_path *p); /* INIT/RTR/RTS from p->remote */
int gdr_mr_register(struct gdr_conn *c, struct gdr_path *p); /* p->mem, p->mr */
const char *gdr_link_layer_name(uint8_t ll);

/*
 * qp_addr.c (--qp_addr): perftest's address lines of every QP of path
 * p, this side's ("local") then the peer's ("remote"), to f;
 * gdr_qp_addr_line formats one pair of lines into buf.
 */
void gdr_qp_addr_print(const struct gdr_conn *c, const struct gdr_path *p, FILE *f);

/*
 * verbs_ctl.c: this side's QPINFO of path p: each QP's address blob, the
 * MR's key and the path MTU in bytes; 0, or -1 (printed).
 * gdr_vx_path_remote: the peer's QPINFO on p (p->remote) read, every blob
 * decoded, the key within 32 bits; 0, or -1 (printed).
 */
int gdr_vx_path_local(const struct gdr_conn *c, const struct gdr_path *p, struct gdr_qpinfo *q);
int gdr_vx_path_remote(struct gdr_conn *c, struct gdr_path *p);
/* subnet_warn.c: after path 0's QPINFO, one warning when the two GIDs' subnets differ. */
void gdr_vx_warn_subnets(const struct gdr_conn *c, const struct gdr_path *p);
/* This side's GID (16 bytes; all zero before the port is set up or with no verbs device). */
const uint8_t *gdr_vx_gid(const struct gdr_conn *c);

/*
 * dev_list.c (--rails): the names of this host's verbs devices into
 * names[0..max) (each < 64 bytes), their count (0: none, or no verbs
 * library); the number of ports device dev has, -1 when it cannot be asked.
 */
int gdr_vx_dev_names(char (*names)[64], int max);
int gdr_vx_dev_ports(const char *dev);

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
