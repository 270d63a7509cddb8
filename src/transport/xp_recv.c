/* SPDX-License-Identifier: MIT */
/*
 * The next out-of-band message while the transport moves the peer's traffic
 * (session.h, gdr_xp_recv). Over a provider of manual progress (ofi's
 * tcp;ofi_rxm, shm) the peer's writes and reads into this side move only
 * while this side calls into it: a side waiting for the peer's message
 * (the target of a one-sided test, waiting for the end of a size) polls its
 * send CQ with room for nothing (a read that drives progress and keeps every
 * completion for the engine) until the message is there, at most --timeout.
 * Verbs moves on its own: it waits in the channel's receive.
 */
#include "config.h"
#include "clock.h"
#include "log.h"
#include "session.h"

bool gdr_xp_manual(const struct gdr_conn *c)
{
	return c->xd && gdr_xport_via_ops(c->xp) && c->xp->poll;
}

int gdr_xp_recv(struct gdr_conn *c, struct gdr_msg *m)
{
	uint64_t t0 = gdr_now_ns(), lim = (uint64_t)(c->o->timeout * 1e9);
	struct gdr_xcqe none;

	if (!gdr_xp_manual(c))
		return gdr_oob_recv(&c->oob, m, -1);
	while (!gdr_oob_ready(&c->oob)) {
		if (c->xp->poll(c->xd, GDR_XCQ_SEND, &none, 0) < 0)
			return -1; /* printed */
		if (gdr_now_ns() - t0 > lim) {
			gdr_err("no message from %s within %g s (--timeout) while this side moved "
				"the %s transport's traffic",
				c->oob.peer, c->o->timeout, c->xp->name);
			return -1;
		}
	}
	return gdr_oob_recv(&c->oob, m, -1);
}
