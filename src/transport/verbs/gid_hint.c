/* SPDX-License-Identifier: MIT */
/*
 * GID indexes that hold no GID: refused before any network step (-x names
 * an empty entry), and a QP that cannot reach RTR says which GID index it
 * used and which ones hold a GID, in one line.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "conn.h"
#include "log.h"
#include "verbs.h"

#define GID_SCAN_MAX 256 /* indexes looked at for the list (the table can be longer) */

static const uint8_t zero_gid[16];

bool gdr_gid_empty(const uint8_t gid[16])
{
	return !memcmp(gid, zero_gid, sizeof(zero_gid));
}

void gdr_gid_list(const struct gdr_conn *c, char *buf, size_t n)
{
	size_t off = 0;
	int found = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->v->pattr.gid_tbl_len && i < GID_SCAN_MAX && off + 16 < n; i++) {
		union ibv_gid g;

		if (ibv_query_gid(c->v->vctx, (uint8_t)c->port, i, &g) || gdr_gid_empty(g.raw))
			continue;
		off += (size_t)snprintf(buf + off, n - off, "%s%d", found++ ? ", " : "", i);
	}
	if (!found)
		snprintf(buf, n, "none found");
}

void gdr_rtr_failed(struct gdr_conn *c, const struct ibv_qp *qp, int err, bool global,
		    const uint8_t peer_gid[16])
{
	char list[160];

	if (!global) {
		gdr_err("cannot move QP %u to RTR: %s", qp->qp_num, strerror(err));
		return;
	}
	if (gdr_gid_empty(peer_gid)) { /* the peer's -x names an empty entry: its failure */
		c->oob.peer_failed = true;
		gdr_err("cannot move QP %u to RTR: the %s (%s) sent an empty GID (its -x names a "
			"GID index that holds none there: it must pick a valid one)",
			qp->qp_num, c->is_server ? "client" : "server", c->oob.peer);
		return;
	}
	gdr_gid_list(c, list, sizeof(list));
	gdr_err("cannot move QP %u to RTR with GID index %d of %s port %d (%s): %s; GID indexes "
		"that hold a GID there: %s (see 'ibv_devinfo -v -d %s' or show_gids, then pick one "
		"with -x, or leave -x out to choose one automatically)",
		qp->qp_num, c->gid_index, c->dev_name, c->port,
		c->o->gid_index >= 0 ? "-x" : "chosen automatically", strerror(err), list,
		c->dev_name);
}
