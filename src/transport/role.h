/* SPDX-License-Identifier: MIT */
/*
 * What one side does in the test, as data, computed once from the verb's
 * row (options/verb_def.h): the client when it starts, the server again once
 * the client's HELLO names the test. The layers that must not know the verbs
 * (transport's registration, the engine's loops) read this.
 */
#ifndef GDR_ROLE_H
#define GDR_ROLE_H

#include <stdbool.h>
#include "opts.h"
#include "verb_def.h"

struct gdr_role {
	const struct gdr_verb_def *def; /* the verb's row; NULL until filled */
	bool lat;			/* a latency test (one QP, ping-pong or round trip) */
	bool requester;	       /* posts the verb's work requests: the client, both sides with -b */
	bool target;	       /* the peer's requests reach its memory: the server, both with -b */
	bool data_in;	       /* the payload lands in its memory (what --validate checks) */
	bool posts_recvs;      /* keeps receives posted for the data (two-sided verbs) */
	unsigned int access;   /* GDR_XA_* (xport.h) its test memory is registered with */
	bool needs_atomic_cap; /* its device must do RDMA atomics */
};

/* Fill r for o's test on this side; a value that is no verb leaves r->def NULL. */
void gdr_role_fill(struct gdr_role *r, const struct gdr_opts *o, bool is_server);

/* The seam's GDR_XA_* access bits (xport.h) of GDR_ACC_* bits, plus local write. */
unsigned int gdr_role_access(unsigned peer_access);

#endif
