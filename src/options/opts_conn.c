/* SPDX-License-Identifier: MIT */
/*
 * -c RC|UC|UD: which tests (their verbs' rows, verb_def.h) and options each
 * connection type serves; both sides check.
 */
#include <stddef.h>
#include "opts.h"
#include "verb_def.h"

const char *gdr_conn_name(int conn)
{
	return conn == GDR_CONN_UC ? "UC" : conn == GDR_CONN_UD ? "UD" : "RC";
}

const char *gdr_conn_refusal(const struct gdr_opts *o)
{
	const struct gdr_verb_def *d = gdr_verb_def(o->verb);

	if (o->conn == GDR_CONN_RC)
		return NULL;
	if (o->conn != GDR_CONN_UC && o->conn != GDR_CONN_UD)
		return "unknown connection type";
	if (d && !(d->conns & (1u << o->conn)))
		return o->conn == GDR_CONN_UD ? "UD carries sends only: use gdr_send_bw or gdr_send_lat"
					      : "UC carries RDMA writes and sends, not reads (use RC)";
	if (o->rdma_cm)
		return "-R connects RC queue pairs only";
	if (o->staged || o->compare)
		return "the staged path needs RC (its credits are RDMA writes)";
	if (o->use_imm)
		return "--use_imm is for RC";
	return NULL;
}
