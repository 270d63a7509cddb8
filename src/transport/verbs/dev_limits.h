/* SPDX-License-Identifier: MIT */
/*
 * What a test's queues and memory ask of an RDMA device, against what it
 * offers (ibv_query_device): the one place that sizes the completion queues
 * and a QP's work requests, so the check and the creation agree (issue 43.9).
 */
#ifndef GDR_DEV_LIMITS_H
#define GDR_DEV_LIMITS_H

#include <stddef.h>
#include <stdint.h>
struct ibv_device_attr; /* verbs.h's: only the verbs transport calls what takes one */
#include "opts.h"

/* A QP's send queue for -t tx_depth: at least 16, and room for the loop's extra requests. */
uint32_t gdr_send_wr(uint32_t tx_depth);
/* The send and the receive completion queue's entries: one each, shared by nqp QPs. */
uint64_t gdr_send_cqe(uint32_t tx_depth, uint32_t nqp);
uint64_t gdr_recv_cqe(uint32_t rx_depth, uint32_t nqp);
/* A send work request's scatter/gather entries: --sge on the requester (the client), else 1. */
uint32_t gdr_send_sge(const struct gdr_opts *o);

/*
 * o's test with nqp QPs on each of paths paths, a registered buffer of
 * mr_len bytes (0: not checked) and the KV pool's regions (--regions) where
 * this side registers them (regions: 0 none, else M beside one a path),
 * and gdr_send_sge(o) entries a send work request (max_sge), against device
 * da: 0 when it fits, else -1 with why: "-q 64 with -r 512 needs a receive
 * completion queue of 32784 entries; the device allows 32767 (max_cqe): ..."
 * (the device's name is the caller's to add).
 */
int gdr_dev_limits_check(const struct ibv_device_attr *da, const struct gdr_opts *o, uint32_t nqp,
			 uint32_t paths, uint64_t mr_len, uint32_t regions, char *why, size_t len);

#endif
