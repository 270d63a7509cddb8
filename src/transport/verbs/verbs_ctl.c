/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's control ops (xport.h): an endpoint's address blob
 * and the connect that reads the peer's. The blob is verbs' own business:
 *   qpn u32 (24-bit), psn u32 (24-bit), lid u16, gid[16], little endian
 * (GDR_VX_ADDR_LEN bytes); the exchange carries it unread (oob/xchg.c).
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "verbs.h"
#include "verbs_xp.h"

static void put_le(uint8_t *b, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

size_t gdr_vx_addr_encode(const struct gdr_qp_wire *a, void *buf, size_t cap)
{
	uint8_t *b = buf;

	if (!a || !b || cap < GDR_VX_ADDR_LEN || a->qpn > 0xffffffu || a->psn > 0xffffffu)
		return 0;
	put_le(b, a->qpn, 4);
	put_le(b + 4, a->psn, 4);
	put_le(b + 8, a->lid, 2);
	memcpy(b + 10, a->gid, sizeof(a->gid));
	return GDR_VX_ADDR_LEN;
}

int gdr_vx_addr_decode(const void *blob, size_t len, struct gdr_qp_wire *a, char *why, size_t n)
{
	const uint8_t *b = blob;

	if (!b || len != GDR_VX_ADDR_LEN) {
		snprintf(why, n,
			 "a %zu-byte endpoint address, a verbs one has %d (is the peer "
			 "another transport?)",
			 len, GDR_VX_ADDR_LEN);
		return -1;
	}
	a->qpn = (uint32_t)get_le(b, 4);
	a->psn = (uint32_t)get_le(b + 4, 4);
	a->lid = (uint16_t)get_le(b + 8, 2);
	memcpy(a->gid, b + 10, sizeof(a->gid));
	if (a->qpn > 0xffffffu || a->psn > 0xffffffu) {
		snprintf(why, n, "QP number 0x%x or PSN 0x%x beyond 24 bits", a->qpn, a->psn);
		return -1;
	}
	return 0;
}

size_t gdr_vx_path_addr(const struct gdr_conn *c, const struct gdr_path *p, uint32_t q, void *buf,
			size_t cap)
{
	const struct gdr_vpath *vp = gdr_vp(c, p);
	struct gdr_qp_wire a = {
	    .qpn = vp->qp[q]->qp_num, .psn = vp->psn[q], .lid = c->v->pattr.lid};

	memcpy(a.gid, c->v->gid.raw, sizeof(a.gid));
	return gdr_vx_addr_encode(&a, buf, cap);
}

int gdr_vx_path_local(const struct gdr_conn *c, const struct gdr_path *p, struct gdr_qpinfo *q)
{
	q->nqp = c->nqp;
	for (uint32_t i = 0; i < c->nqp; i++) {
		size_t n = gdr_vx_path_addr(c, p, i, q->ep[i].b, sizeof(q->ep[i].b));

		if (!n) {
			gdr_err("internal error: no address for QP %u", i);
			return -1;
		}
		q->ep[i].len = (uint16_t)n;
	}
	q->key = gdr_vp(c, p)->mr->rkey;
	q->mtu = 128u << c->v->mtu;
	return 0;
}

const uint8_t *gdr_vx_gid(const struct gdr_conn *c)
{
	static const uint8_t none[16];

	return c->v ? c->v->gid.raw : none;
}

int gdr_vx_path_remote(struct gdr_conn *c, struct gdr_path *p)
{
	const struct gdr_qpinfo *r = &p->remote;
	struct gdr_vpath *vp = gdr_vp(c, p);
	char why[160];

	if (r->key > UINT32_MAX) {
		gdr_err(
		    "protocol error: %s's memory key 0x%llx does not fit a verbs rkey (32 bits): "
		    "is it another transport?",
		    c->oob.peer, (unsigned long long)r->key);
		return -1;
	}
	for (uint32_t i = 0; i < r->nqp && i < GDR_MAX_QPS; i++)
		if (gdr_vx_addr_decode(r->ep[i].b, r->ep[i].len, &vp->peer[i], why, sizeof(why))) {
			gdr_err("protocol error: %s's QP %u: %s", c->oob.peer, i, why);
			return -1;
		}
	return 0;
}

size_t gdr_vx_addr(struct gdr_xep *ep, void *buf, size_t cap)
{
	return gdr_vx_path_addr(ep->d->c, ep->p, ep->q, buf, cap);
}

int gdr_vx_connect(struct gdr_xep *ep, const void *blob, size_t len, const struct gdr_xremote *rem)
{
	struct gdr_conn *c = ep->d->c;
	char why[160];

	if (rem->key > UINT32_MAX) {
		gdr_err("the peer's memory key 0x%llx does not fit a verbs rkey (32 bits)",
			(unsigned long long)rem->key);
		return -1;
	}
	if (gdr_vx_addr_decode(blob, len, &gdr_vp(c, ep->p)->peer[ep->q], why, sizeof(why))) {
		gdr_err("protocol error: %s's QP %u: %s", c->oob.peer, ep->q, why);
		return -1;
	}
	ep->rem = *rem;
	/* the path's QPs go to RTS together, once the last one's address is known */
	return ep->q + 1 == c->nqp ? gdr_qps_connect(c, ep->p) : 0;
}
