/* SPDX-License-Identifier: MIT */
/* A side's role (role.h) from its verb's row. */
#include "role.h"
#include "xport.h"

unsigned int gdr_role_access(unsigned peer_access)
{
	return GDR_XA_LOCAL_WRITE | (peer_access & GDR_ACC_WRITE ? GDR_XA_REMOTE_WRITE : 0) |
	       (peer_access & GDR_ACC_READ ? GDR_XA_REMOTE_READ : 0) |
	       (peer_access & GDR_ACC_ATOMIC ? GDR_XA_REMOTE_ATOMIC : 0);
}

void gdr_role_fill(struct gdr_role *r, const struct gdr_opts *o, bool is_server)
{
	const struct gdr_verb_def *d = gdr_verb_def(o->verb);

	*r = (struct gdr_role){.def = d, .lat = o->kind == GDR_KIND_LAT};
	if (!d)
		return;
	r->requester = o->bidir || !is_server;
	r->target = o->bidir || is_server;
	/*
	 * A fetch brings the peer's data to the requester; the other verbs deliver
	 * it to the target, and in a ping-pong to both sides.
	 */
	if (r->lat)
		r->data_in = d->fetches ? !is_server : true;
	else
		r->data_in = o->bidir || (d->fetches ? !is_server : is_server);
	/* ping-pong: both sides receive; bandwidth: the sides the peer sends to */
	r->posts_recvs = d->target_recvs && (r->lat || r->target);
	/*
	 * Both sides register alike (with -b each is a target): what the verb lets
	 * the requester do, and nothing else.
	 */
	r->access = gdr_role_access(d->peer_access);
	r->needs_atomic_cap = d->needs_atomic_cap;
}
