/* SPDX-License-Identifier: MIT */
/* -c RC|UC|UD: which tests and options each connection type serves; both sides check. */
#include <stddef.h>
#include "opts.h"

const char *gdr_conn_name(int conn)
{
	return conn == GDR_CONN_UC ? "UC" : conn == GDR_CONN_UD ? "UD" : "RC";
}

const char *gdr_conn_refusal(const struct gdr_opts *o)
{
	if (o->conn == GDR_CONN_RC)
		return NULL;
	if (o->conn == GDR_CONN_UC && o->verb == GDR_VERB_READ)
		return "UC carries RDMA writes and sends, not reads (use RC)";
	if (o->conn == GDR_CONN_UD && o->verb != GDR_VERB_SEND)
		return "UD carries sends only: use gdr_send_bw or gdr_send_lat";
	if (o->conn != GDR_CONN_RC && o->conn != GDR_CONN_UC && o->conn != GDR_CONN_UD)
		return "unknown connection type";
	if (o->rdma_cm)
		return "-R connects RC queue pairs only";
	if (o->staged || o->compare)
		return "the staged path needs RC (its credits are RDMA writes)";
	if (o->use_imm)
		return "--use_imm is for RC";
	return NULL;
}
