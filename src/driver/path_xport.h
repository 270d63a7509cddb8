/* SPDX-License-Identifier: MIT */
/*
 * Path setup over a transport other than verbs (loop, ofi): the device, each
 * path's registration and endpoints through the transport's ops (xport.h)
 * alone. Verbs keeps its own code (path_setup.c, transport/verbs.c).
 */
#ifndef GDR_PATH_XPORT_H
#define GDR_PATH_XPORT_H

#include <stdbool.h>
#include "conn.h"

/* c runs over a transport's ops (xport.h's gdr_xport_via_ops of c->xp). */
bool gdr_xpath_on(const struct gdr_conn *c);
/*
 * xp->open for c's options (c->nqp, or -q before the HELLO): c->xd, c->link,
 * c->dev_name and the threads' placement. A server opens again after its
 * client's HELLO (its queues' depths are the client's). 0 or -1 (one line).
 */
int gdr_xpath_open(struct gdr_conn *c);
/*
 * Path p: its memory's export registered (xp->reg), c->nqp endpoints opened,
 * their address blobs and the region's key swapped in QPINFO, each endpoint
 * connected to the peer's. 0 or -1 (printed).
 */
int gdr_xpath_connect(struct gdr_conn *c, struct gdr_path *p);
/* Endpoints, registrations, the device: in reverse order of creation. */
void gdr_xpath_close(struct gdr_conn *c);

#endif
