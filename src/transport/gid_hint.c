/* SPDX-License-Identifier: MIT */
/*
 * A QP that cannot reach RTR on RoCE (or with -x) is most often a GID index
 * that is empty or unusable on this port: say which index was used and list
 * the ones that hold a GID, in one line.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "ctx.h"
#include "log.h"

#define GID_SCAN_MAX 256 /* indexes looked at for the list (the table can be longer) */

/* "0, 1" : the indexes of port `port` that hold a non-zero GID, cut to fit. */
static void valid_gids(struct ibv_context *v, int port, int len, char *buf, size_t n)
{
	static const uint8_t zero[16];
	size_t off = 0;
	int found = 0;

	buf[0] = '\0';
	for (int i = 0; i < len && i < GID_SCAN_MAX && off + 16 < n; i++) {
		union ibv_gid g;

		if (ibv_query_gid(v, (uint8_t)port, i, &g) || !memcmp(g.raw, zero, sizeof(zero)))
			continue;
		off += (size_t)snprintf(buf + off, n - off, "%s%d", found++ ? ", " : "", i);
	}
	if (!found)
		snprintf(buf, n, "none found");
}

void gdr_rtr_failed(const struct gdr_ctx *c, const struct ibv_qp *qp, int err, bool global)
{
	char list[160];

	if (!global) {
		gdr_err("cannot move QP %u to RTR: %s", qp->qp_num, strerror(err));
		return;
	}
	valid_gids(c->vctx, c->port, c->pattr.gid_tbl_len, list, sizeof(list));
	gdr_err("cannot move QP %u to RTR with GID index %d of %s port %d (%s): %s; GID indexes "
		"that hold a GID there: %s (see 'ibv_devinfo -v -d %s' or show_gids, then pick one "
		"with -x, or leave -x out to choose one automatically)",
		qp->qp_num, c->gid_index, c->dev_name, c->port,
		c->o->gid_index >= 0 ? "-x" : "chosen automatically", strerror(err), list,
		c->dev_name);
}
