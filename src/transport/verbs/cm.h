/* SPDX-License-Identifier: MIT */
/* rdma_cm (-R): the connection's QPs set up through the connection manager. */
#ifndef GDR_CM_H
#define GDR_CM_H

#include "conn.h"

/* cm.c (-R) */
int gdr_cm_server(struct gdr_conn *c);  /* listen, accept nqp connections */
int gdr_cm_listen(struct gdr_conn *c);
int gdr_cm_client(struct gdr_conn *c);
/* Client: the RDMA device rdma_cm resolves the server's address to, into c->dev_name. */
int gdr_cm_probe_device(struct gdr_conn *c);
void gdr_cm_close(struct gdr_conn *c);

#endif
