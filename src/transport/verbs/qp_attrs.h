/* SPDX-License-Identifier: MIT */
/* The QP attributes a user sets (-T, -S, -u, -o): choices and the header's description. */
#ifndef GDR_QP_ATTRS_H
#define GDR_QP_ATTRS_H

#include <stddef.h>
#include <stdint.h>
struct ibv_device_attr; /* verbs.h's: only the verbs transport calls what takes one */
#include "opts.h"

#define GDR_OUTS_DEFAULT_MAX 16 /* outstanding reads/atomics without -o */

/*
 * Outstanding reads/atomics per QP: asked (-o; 0 = not given, then at most
 * GDR_OUTS_DEFAULT_MAX), lowered to the device's limits (responder and
 * initiator); at least 1.
 */
uint32_t gdr_outs_choose(uint32_t asked, int dev_rd_atom, int dev_init_rd_atom);

/*
 * Initiator depth (the RTS max_rd_atomic): this side's own choice, lowered
 * to the peer's responder resources (its max_dest_rd_atomic), as rdma_cm
 * negotiates, so no read or atomic is issued that the responder would NAK.
 */
uint32_t gdr_init_depth(uint32_t own, uint32_t peer_resp);

/*
 * NULL when device da can run o's test, else why not: atomic tests need
 * atomic_cap other than IBV_ATOMIC_NONE (some NICs and providers have none).
 */
const char *gdr_dev_refusal(const struct ibv_device_attr *da, const struct gdr_opts *o);

/* The QP ack timeout 4.096 us x 2^exp in seconds; 0 for exp 0 (no timeout). */
double gdr_qp_timeout_s(uint32_t exp);

/*
 * One phrase for the header: "traffic class 0, SL 0, QP timeout 14 (67.1 ms),
 * 16 outstanding reads/atomics[, source 10.0.0.1]".
 */
void gdr_qp_attrs_desc(const struct gdr_opts *o, uint32_t outs, char *desc, size_t n);

#endif
