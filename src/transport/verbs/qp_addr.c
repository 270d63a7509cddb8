/* SPDX-License-Identifier: MIT */
/* --qp_addr: perftest's per-QP address lines (LID, QPN, PSN, GID), this side's and the peer's. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "conn.h"
#include "verbs.h"

void gdr_qp_addr_line(char *buf, size_t n, const char *who, uint16_t lid, uint32_t qpn,
		      uint32_t psn, uint32_t rkey, uint64_t vaddr, const uint8_t gid[16])
{
	int k =
	    snprintf(buf, n,
		     " %s address: LID 0x%04x QPN 0x%06x PSN 0x%06x RKey 0x%08x VAddr 0x%016llx\n"
		     " GID: ",
		     who, lid, qpn, psn, rkey, (unsigned long long)vaddr);

	for (int i = 0; i < 16 && k > 0 && (size_t)k < n; i++)
		k += snprintf(buf + k, n - (size_t)k, "%02x%s", gid[i],
			      i == 15	? "\n"
			      : (i & 1) ? ":"
					: "");
}

/* The PSNs the QP really uses (rdma_cm picks its own); the exchanged ones if it cannot say. */
static void psns(const struct gdr_conn *c, const struct gdr_path *p, uint32_t i, uint32_t *sq,
		 uint32_t *rq)
{
	const struct gdr_vpath *vp = gdr_vp(c, p);
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	*sq = vp->psn[i];
	*rq = vp->peer[i].psn;
	if (ibv_query_qp(vp->qp[i], &a, IBV_QP_SQ_PSN | IBV_QP_RQ_PSN, &ia))
		return;
	*sq = a.sq_psn;
	if (c->o->conn != GDR_CONN_UD)
		*rq = a.rq_psn;
}

void gdr_qp_addr_print(const struct gdr_conn *c, const struct gdr_path *p, FILE *f)
{
	const struct gdr_qpinfo *r = &p->remote;
	const struct gdr_vpath *vp = gdr_vp(c, p);
	char line[256];

	for (uint32_t i = 0; i < c->nqp && vp->qp[i]; i++) {
		uint32_t sq, rq;

		psns(c, p, i, &sq, &rq);
		gdr_qp_addr_line(line, sizeof(line), "local", c->v->pattr.lid, vp->qp[i]->qp_num,
				 sq, vp->mr->rkey, (uint64_t)(uintptr_t)p->mem->addr, c->v->gid.raw);
		fputs(line, f);
		gdr_qp_addr_line(line, sizeof(line), "remote", vp->peer[i].lid, vp->peer[i].qpn, rq,
				 (uint32_t)r->key, r->addr, vp->peer[i].gid);
		fputs(line, f);
	}
	fflush(f);
}
