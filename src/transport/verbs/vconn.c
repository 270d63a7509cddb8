/* SPDX-License-Identifier: MIT */
/* The verbs transport's handles of a connection: allocated on first use, freed at teardown. */
#include <stdlib.h>
#include "log.h"
#include "vconn.h"

int gdr_vconn_get(struct gdr_conn *c)
{
	if (c->v)
		return 0;
	c->v = calloc(1, sizeof(*c->v));
	if (!c->v) {
		gdr_err("out of memory for the verbs transport's handles");
		return -1;
	}
	return 0;
}

void gdr_vconn_put(struct gdr_conn *c)
{
	free(c->v);
	c->v = NULL;
}
