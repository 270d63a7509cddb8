/* SPDX-License-Identifier: MIT */
/*
 * The -R server's accept loop as a state machine over rdma_cm events. A
 * connection request takes the next (path, QP) slot, in arrival order (the
 * client connects one at a time); the ESTABLISHED events of different ids come
 * in any order (rdma_get_cm_event(3) orders nothing across ids: the client's
 * next request can arrive before the server's ESTABLISHED of the last one).
 * Every event either advances the count or fails, so n connections take at
 * most 2n events, each waited for within --timeout by the caller.
 */
#ifndef GDR_CM_ACCEPT_H
#define GDR_CM_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rdma/rdma_cma.h>
#include "conn.h"

#define GDR_CM_SLOTS (GDR_MAX_PATHS * GDR_MAX_QPS)

struct gdr_cm_accept {
	uint32_t n;	      /* connections wanted */
	uint32_t requested;   /* connect requests taken: slots 0..requested-1 */
	uint32_t established; /* of those, ESTABLISHED */
	const void *id[GDR_CM_SLOTS];
	bool est[GDR_CM_SLOTS];
};

enum gdr_cm_step {
	GDR_CM_ACCEPT,	/* a connect request for *slot: create its QP and accept */
	GDR_CM_COUNTED, /* the ESTABLISHED of *slot */
	GDR_CM_REFUSE,	/* a connect request not taken: reject and destroy its id; fail (why) */
	GDR_CM_FAIL,	/* why holds one line (without "-R: ") */
};

void gdr_cm_accept_init(struct gdr_cm_accept *a, uint32_t n);
bool gdr_cm_accept_done(const struct gdr_cm_accept *a);
/* One event (its type, status and cm id) of the server's channel. */
enum gdr_cm_step gdr_cm_accept_event(struct gdr_cm_accept *a, enum rdma_cm_event_type type,
				     int status, const void *id, uint32_t *slot, char *why,
				     size_t len);

#endif
