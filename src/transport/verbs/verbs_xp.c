/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's ops table (xport.h) and, until the control ops open
 * them, the seam's objects wrapped around what path setup made: the
 * connection's device and CQs (c->xd), a path's MR (p->xmr) and QPs
 * (p->ep[q], whose peer is p->remote).
 */
#include "config.h"
#include <stdlib.h>
#include "log.h"
#include "verbs.h"
#include "verbs_xp.h"

const struct gdr_xport_ops gdr_xport_verbs = {
    .name = "verbs",
    .caps = GDR_XC_WRITE | GDR_XC_READ | GDR_XC_SEND | GDR_XC_WRITE_DATA | GDR_XC_ATOMIC |
	    GDR_XC_HMEM | GDR_XC_DMABUF | GDR_XC_INLINE | GDR_XC_EVENTS,
    /*
     * open, close, ep_open, ep_close: not yet (the driver opens the device and creates the
     * QPs itself, gdr_dev_open and gdr_qps_create; gdr_vx_wrap_path wraps them); reg, key,
     * dereg: verbs_reg.c; addr, connect: verbs_ctl.c.
     */
    .reg = gdr_vx_reg,
    .key = gdr_vx_key,
    .dereg = gdr_vx_dereg,
    .addr = gdr_vx_addr,
    .connect = gdr_vx_connect,
    .prep = gdr_vx_prep,
    .post = gdr_vx_post,
    .post_op = gdr_vx_post_op,
    .post_recv = gdr_vx_post_recv,
    .poll = gdr_vx_poll,
    .wait = gdr_vx_wait,
    .cqe_error = gdr_vx_cqe_error,
};

int gdr_vx_wrap_path(struct gdr_conn *c, struct gdr_path *p)
{
	if (!c->xd) {
		c->xd = calloc(1, sizeof(*c->xd));
		if (!c->xd)
			goto oom;
		c->xd->c = c;
		c->xd->hit_qpn = UINT32_MAX;
	}
	c->xp = &gdr_xport_verbs;
	if (!p->xmr) {
		p->xmr = calloc(1, sizeof(*p->xmr));
		if (!p->xmr)
			goto oom;
	}
	*p->xmr = (struct gdr_xmr){.mr = gdr_vp(c, p)->mr, .own = false};
	for (uint32_t q = 0; q < c->nqp; q++) {
		if (!p->ep[q]) {
			p->ep[q] = calloc(1, sizeof(*p->ep[q]));
			if (!p->ep[q])
				goto oom;
		}
		*p->ep[q] = (struct gdr_xep){
		    .d = c->xd,
		    .p = p,
		    .q = q,
		    .qp = gdr_vp(c, p)->qp[q],
		    .index = (uint16_t)q,
		    .rem = {.addr = p->remote.addr, .len = p->remote.len, .key = p->remote.key},
		};
	}
	return 0;
oom:
	gdr_err("out of memory for the transport's objects");
	return -1;
}

void gdr_vx_unwrap(struct gdr_conn *c)
{
	for (uint32_t k = 0; k < GDR_MAX_PATHS; k++) {
		struct gdr_path *p = &c->path[k];

		for (uint32_t q = 0; q < GDR_MAX_QPS; q++) {
			if (p->ep[q]) {
				free(p->ep[q]->wr);
				free(p->ep[q]->sge);
				free(p->ep[q]->sigd);
			}
			free(p->ep[q]);
			p->ep[q] = NULL;
		}
		free(p->xmr); /* not own: the MR is the path's, deregistered with it */
		p->xmr = NULL;
	}
	free(c->xd);
	c->xd = NULL;
}
