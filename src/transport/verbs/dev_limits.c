/* SPDX-License-Identifier: MIT */
/* A test's queues and memory against the device's limits: see dev_limits.h. */
#include "config.h"
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <infiniband/verbs.h>
#include "dev_limits.h"

uint32_t gdr_send_wr(uint32_t tx_depth)
{
	return (tx_depth > 16 ? tx_depth : 16) + 16 + 1;
}

uint64_t gdr_send_cqe(uint32_t tx_depth, uint32_t nqp)
{
	return ((uint64_t)tx_depth + 32) * nqp * 2;
}

uint64_t gdr_recv_cqe(uint32_t rx_depth, uint32_t nqp)
{
	return (uint64_t)rx_depth * nqp + 16;
}

uint32_t gdr_send_sge(const struct gdr_opts *o)
{
	return o->server && o->kv_sge > 1 ? o->kv_sge : 1; /* the server posts no KV blocks */
}

/* A device limit as a count; a negative one (a broken provider) as none. */
static uint64_t lim(int v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

/* A completion queue of cqe entries (-q nqp, -flag depth) beyond max_cqe: why, true. */
static bool cq_over(const struct ibv_device_attr *da, const char *which, char flag, uint64_t cqe,
		    uint32_t nqp, uint32_t depth, char *why, size_t len)
{
	if (cqe <= lim(da->max_cqe))
		return false;
	snprintf(
	    why, len,
	    "-q %u with -%c %u needs a %s completion queue of %" PRIu64
	    " entries; the device allows %d (max_cqe): ask for fewer QPs (-q) or a smaller -%c",
	    nqp, flag, depth, which, cqe, da->max_cqe, flag);
	return true;
}

int gdr_dev_limits_check(const struct ibv_device_attr *da, const struct gdr_opts *o, uint32_t nqp,
			 uint32_t paths, uint64_t mr_len, uint32_t regions, char *why, size_t len)
{
	uint64_t scqe = gdr_send_cqe(o->tx_depth, nqp), rcqe = gdr_recv_cqe(o->rx_depth, nqp);
	uint64_t qps = (uint64_t)nqp * (paths ? paths : 1);
	const char *fewer = "ask for fewer QPs (-q)";

	if (cq_over(da, "receive", 'r', rcqe, nqp, o->rx_depth, why, len) ||
	    cq_over(da, "send", 't', scqe, nqp, o->tx_depth, why, len))
		return -1;
	if (gdr_send_wr(o->tx_depth) > lim(da->max_qp_wr) || o->rx_depth > lim(da->max_qp_wr)) {
		snprintf(why, len,
			 "-t %u / -r %u needs %u send and %u receive work requests per QP; the "
			 "device allows %d (max_qp_wr): ask for a smaller -t or -r",
			 o->tx_depth, o->rx_depth, gdr_send_wr(o->tx_depth), o->rx_depth,
			 da->max_qp_wr);
		return -1;
	}
	if (qps > lim(da->max_qp)) {
		snprintf(why, len,
			 "-q %u on %u path%s needs %" PRIu64
			 " QPs; the device allows %d (max_qp): %s",
			 nqp, paths, paths == 1 ? "" : "s", qps, da->max_qp, fewer);
		return -1;
	}
	if (lim(da->max_sge) < gdr_send_sge(o)) { /* a work request's scatter/gather entries */
		if (gdr_send_sge(o) > 1)
			snprintf(
			    why, len,
			    "--sge=%u: a work request of %u scatter/gather entries; the device "
			    "allows %d (max_sge): give a smaller --sge",
			    gdr_send_sge(o), gdr_send_sge(o), da->max_sge);
		else
			snprintf(why, len,
				 "the device allows %d scatter/gather entries (max_sge), 1 needed",
				 da->max_sge);
		return -1;
	}
	if (mr_len && da->max_mr_size && mr_len > da->max_mr_size) {
		snprintf(why, len,
			 "the test registers a buffer of %" PRIu64
			 " bytes; the device allows %" PRIu64
			 " (max_mr_size): ask for smaller sizes",
			 mr_len, (uint64_t)da->max_mr_size);
		return -1;
	}
	/* a region a path, and the pool's M at once for a KV cell (engine/bw_kv_regions.c) */
	if (regions && da->max_mr > 0 &&
	    (uint64_t)regions + (paths ? paths : 1) > lim(da->max_mr)) {
		snprintf(why, len,
			 "--regions=%u registers %" PRIu64
			 " memory regions with the test's own; the device allows %d (max_mr): "
			 "give fewer --regions",
			 regions, (uint64_t)regions + (paths ? paths : 1), da->max_mr);
		return -1;
	}
	return 0;
}
