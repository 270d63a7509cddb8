/* SPDX-License-Identifier: MIT */
/*
 * Teardown of one side's connection, in reverse order of creation: verbs, CM
 * ids, device; then the handles' struct (c->v), allocated again by the next
 * open (the -R server closes its device before it listens).
 */
#include "cm.h"
#include "conn.h"
#include "verbs.h"

void gdr_verbs_close(struct gdr_conn *c)
{
	gdr_vx_unwrap(c); /* the seam's objects around the QPs and MRs first */
	if (!c->v)
		return; /* nothing of verbs was opened */
	gdr_verbs_free(c);
	gdr_cm_close(c); /* after the QPs (rdma_destroy_qp), before the device */
	gdr_dev_close(c);
	gdr_vconn_put(c);
}
