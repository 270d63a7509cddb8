/* SPDX-License-Identifier: MIT */
/* -R: QPs connected through librdmacm instead of the TCP-exchanged QP numbers. */
#include "cm.h"
#include "cm_accept.h"
#include "config.h"
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include "conn.h"
#include "log.h"
#include "qp_attrs.h"
#include "verbs.h"
#include "verbs_xp.h"

static int timeout_ms(const struct gdr_conn *c)
{
	return (int)(c->o->timeout * 1000);
}

/* The channel's next event within the timeout; what names it in the timeout line. */
static int cm_next(struct gdr_conn *c, const char *what, struct rdma_cm_event **ev)
{
	struct pollfd p = { .fd = c->v->ec->fd, .events = POLLIN };
	int r = poll(&p, 1, timeout_ms(c));

	if (r == 0) {
		gdr_err("-R: timed out after %g s waiting for %s", c->o->timeout, what);
		return -1;
	}
	if (r < 0 || rdma_get_cm_event(c->v->ec, ev)) {
		gdr_err("-R: cannot read a connection event: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Wait for one event of type want on the channel, within the timeout. */
static int cm_wait(struct gdr_conn *c, enum rdma_cm_event_type want, struct rdma_cm_id **id)
{
	struct rdma_cm_event *ev;

	if (cm_next(c, rdma_event_str(want), &ev))
		return -1;
	if (ev->event != want) {
		gdr_err("-R: expected %s, got %s (status %d)%s", rdma_event_str(want),
			rdma_event_str(ev->event), ev->status,
			ev->event == RDMA_CM_EVENT_ROUTE_ERROR
				? ": no route; rdma_cm needs an RDMA device on the interface "
				  "that reaches the server"
				: "");
		rdma_ack_cm_event(ev);
		return -1;
	}
	if (id)
		*id = ev->id;
	rdma_ack_cm_event(ev);
	return 0;
}

/* First connection: adopt the CM's device context, then PD and CQs. */
static int adopt_device(struct gdr_conn *c, struct rdma_cm_id *id)
{
	const char *name;

	if (!id->verbs) {
		gdr_err("-R: the connection has no RDMA device");
		return -1;
	}
	name = ibv_get_device_name(id->verbs->device);
	if (c->o->dev_name && strcmp(c->o->dev_name, name)) {
		gdr_err("-R: the address uses RDMA device %s, not -d %s", name, c->o->dev_name);
		return -1;
	}
	/* Threads and memory near this device, before its PD, CQs and buffers. */
	if (gdr_place(c, name))
		return -1;
	if (c->data.cfg.gpu == GDR_MEM_GPU_AUTO && gdr_mem_on_device(&c->data) &&
	    strcmp(c->data.near_dev, name)) {
		struct gdr_mem_cfg mc = c->data.cfg;

		gdr_mem_fini(&c->data); /* nothing allocated yet: pick again near name */
		if (gdr_mem_init(&c->data, &mc, name))
			return -1;
	}
	c->v->vctx = id->verbs;
	c->v->own_vctx = false;
	c->port = id->port_num;
	if (gdr_dev_setup_port(c))
		return -1;
	c->v->pd = ibv_alloc_pd(c->v->vctx);
	if (!c->v->pd) {
		gdr_err("cannot allocate a protection domain on %s: %s", name, strerror(errno));
		return -1;
	}
	gdr_td_open(c);
	return gdr_cqs_create(c);
}

static int create_qp(struct gdr_conn *c, struct gdr_path *p, uint32_t i, struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr a;

	gdr_qp_init_attr(c, p, &a);
	if (rdma_create_qp(id, c->v->qpd, &a) &&
	    (!gdr_qp_no_default_inline(c, p, &a) || rdma_create_qp(id, c->v->qpd, &a))) {
		gdr_err("-R: cannot create a QP on %s: %s", c->dev_name, strerror(errno));
		return -1;
	}
	gdr_vp(c, p)->cm_id[i] = id;
	gdr_vp(c, p)->qp[i] = id->qp;
	return 0;
}

static struct rdma_conn_param conn_param(const struct gdr_conn *c)
{
	return (struct rdma_conn_param){
		.responder_resources = (uint8_t)c->max_rd_atomic,
		.initiator_depth = (uint8_t)c->max_rd_atomic,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};
}

/* The connection's verbs state and its rdma_cm event channel. 0 or -1 printed. */
static int open_channel(struct gdr_conn *c)
{
	if (gdr_vconn_get(c))
		return -1;
	c->v->ec = rdma_create_event_channel();
	if (!c->v->ec) {
		gdr_err("-R: cannot open the rdma_cm event channel (is rdma_ucm loaded?): %s",
			strerror(errno));
		return -1;
	}
	return 0;
}

/* -T and -u on a CM id, as given (otherwise the kernel's defaults stay). 0 or -1 printed. */
static int cm_options(struct gdr_conn *c, struct rdma_cm_id *id)
{
	uint8_t tos = (uint8_t)c->o->tclass, tmo = (uint8_t)c->o->qp_timeout;

	if (gdr_opts_is_set(c->o, &c->o->tclass) &&
	    rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos))) {
		gdr_err("-R: cannot set traffic class %u: %s", tos, strerror(errno));
		return -1;
	}
	if (gdr_opts_is_set(c->o, &c->o->qp_timeout) &&
	    rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &tmo, sizeof(tmo))) {
		gdr_err("-R: cannot set QP timeout %u: %s", tmo, strerror(errno));
		return -1;
	}
	return 0;
}

static int resolve(const char *host, uint16_t port, bool passive, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM };
	char ps[8];
	int err;

	if (passive)
		hints.ai_flags = AI_PASSIVE;
	snprintf(ps, sizeof(ps), "%u", port);
	err = getaddrinfo(host, ps, &hints, res);
	if (err) {
		gdr_err("-R: cannot resolve '%s': %s", host ? host : "(any)", gai_strerror(err));
		return -1;
	}
	return 0;
}

int gdr_cm_listen(struct gdr_conn *c)
{
	struct addrinfo *ai;
	int err;

	if (open_channel(c))
		return -1;
	if (rdma_create_id(c->v->ec, &c->v->listen_id, NULL, RDMA_PS_TCP)) {
		gdr_err("-R: rdma_create_id: %s", strerror(errno));
		return -1;
	}
	if (cm_options(c, c->v->listen_id) || resolve(c->o->bind_addr, c->o->port, true, &ai))
		return -1;
	err = rdma_bind_addr(c->v->listen_id, ai->ai_addr);
	freeaddrinfo(ai);
	if (err || rdma_listen(c->v->listen_id, GDR_MAX_QPS)) {
		gdr_err("-R: cannot listen on port %u: %s", c->o->port, strerror(errno));
		return -1;
	}
	return 0;
}

/* The path MTU rdma_cm chose (from the route), for the header: the first QP's. */
static void cm_path_mtu(struct gdr_conn *c)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (c->v->path[0].qp[0] && !ibv_query_qp(c->v->path[0].qp[0], &a, IBV_QP_PATH_MTU, &ia))
		c->v->mtu = a.path_mtu;
	gdr_vx_link_mtu(c);
}

/* Connection request j: path j / nqp, QP j % nqp. 0, or -1 printed (id rejected, destroyed). */
static int cm_accept_one(struct gdr_conn *c, struct rdma_cm_id *id, uint32_t j)
{
	struct gdr_path *p = &c->path[j / c->nqp];
	struct rdma_conn_param cp;

	if (cm_options(c, id) || (j == 0 && adopt_device(c, id)) ||
	    create_qp(c, p, j % c->nqp, id)) {
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return -1;
	}
	cp = conn_param(c);
	if (rdma_accept(id, &cp)) {
		gdr_err("-R: rdma_accept: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Requests arrive in the client's order (path 0 QPs 0..nqp-1, then path 1);
 * the ESTABLISHED events of the accepted ids in any order (cm_accept.h).
 */
int gdr_cm_server(struct gdr_conn *c)
{
	struct gdr_cm_accept a;

	if (gdr_vconn_get(c))
		return -1;
	gdr_cm_accept_init(&a, c->npaths * c->nqp);
	while (!gdr_cm_accept_done(&a)) {
		struct rdma_cm_event *ev;
		struct rdma_cm_id *id;
		enum rdma_cm_event_type t;
		char why[160] = "";
		uint32_t j = 0;
		int st;

		if (cm_next(c, a.requested < a.n ? "a connection request" : "ESTABLISHED", &ev))
			return -1;
		t = ev->event;
		id = ev->id;
		st = ev->status;
		rdma_ack_cm_event(ev);
		switch (gdr_cm_accept_event(&a, t, st, id, &j, why, sizeof(why))) {
		case GDR_CM_ACCEPT:
			if (cm_accept_one(c, id, j))
				return -1;
			break;
		case GDR_CM_COUNTED:
			break;
		case GDR_CM_REFUSE:
			rdma_reject(id, NULL, 0);
			rdma_destroy_id(id);
			/* fall through */
		case GDR_CM_FAIL:
			gdr_err("-R: %s", why);
			return -1;
		}
	}
	cm_path_mtu(c);
	return 0;
}

/* Client: the server's address to a device, from --source_ip when given. 0 or -1 printed. */
static int cm_resolve_addr(struct gdr_conn *c, struct rdma_cm_id *id, struct addrinfo *dst)
{
	struct addrinfo *src = NULL;
	int r;

	if (c->o->source_ip && resolve(c->o->source_ip, 0, false, &src))
		return -1;
	r = cm_options(c, id) ||
	    rdma_resolve_addr(id, src ? src->ai_addr : NULL, dst->ai_addr, timeout_ms(c)) ||
	    cm_wait(c, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) || !id->verbs;
	if (src)
		freeaddrinfo(src);
	if (r) {
		gdr_err("-R: cannot resolve %s to an RDMA device%s%s", c->o->server,
			c->o->source_ip ? " from --source_ip " : "",
			c->o->source_ip ? c->o->source_ip : "");
		return -1;
	}
	return 0;
}

int gdr_cm_client(struct gdr_conn *c)
{
	struct addrinfo *ai;

	if (open_channel(c))
		return -1;
	if (resolve(c->o->server, c->o->port, false, &ai))
		return -1;
	for (uint32_t j = 0; j < c->npaths * c->nqp; j++) {
		uint32_t i = j % c->nqp;
		struct rdma_cm_id *id;
		struct gdr_path *p = &c->path[j / c->nqp];
		struct rdma_conn_param cp;

		if (rdma_create_id(c->v->ec, &id, NULL, RDMA_PS_TCP)) {
			gdr_err("-R: rdma_create_id: %s", strerror(errno));
			goto fail;
		}
		gdr_vp(c, p)->cm_id[i] = id;
		if (cm_resolve_addr(c, id, ai))
			goto fail;
		if (j == 0 && adopt_device(c, id))
			goto fail;
		if (rdma_resolve_route(id, timeout_ms(c)) ||
		    cm_wait(c, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL))
			goto fail;
		if (create_qp(c, p, i, id))
			goto fail;
		cp = conn_param(c);
		if (rdma_connect(id, &cp)) {
			gdr_err("-R: rdma_connect: %s", strerror(errno));
			goto fail;
		}
		if (cm_wait(c, RDMA_CM_EVENT_ESTABLISHED, NULL))
			goto fail;
	}
	freeaddrinfo(ai);
	cm_path_mtu(c);
	return 0;
fail:
	freeaddrinfo(ai);
	return -1;
}

int gdr_cm_probe_device(struct gdr_conn *c)
{
	struct rdma_cm_id *id = NULL;
	struct addrinfo *ai = NULL;
	struct ibv_device_attr da;
	const char *name;
	int ret = -1;

	if (open_channel(c))
		return -1;
	if (rdma_create_id(c->v->ec, &id, NULL, RDMA_PS_TCP)) {
		gdr_err("-R: rdma_create_id: %s", strerror(errno));
		id = NULL;
	} else if (!resolve(c->o->server, c->o->port, false, &ai)) {
		if (!cm_resolve_addr(c, id, ai)) {
			name = ibv_get_device_name(id->verbs->device);
			snprintf(c->dev_name, sizeof(c->dev_name), "%s", name);
			ret = 0;
			if (c->o->dev_name && strcmp(c->o->dev_name, name)) {
				gdr_err("-R: %s is reached through RDMA device %s, not -d %s",
					c->o->server, name, c->o->dev_name);
				ret = -1;
			} else if (!ibv_query_device(id->verbs, &da) &&
				   gdr_dev_refusal(&da, c->o)) {
				gdr_err("%s: %s", name, gdr_dev_refusal(&da, c->o));
				ret = -1; /* before the TCP exchange, as without -R */
			}
		}
		freeaddrinfo(ai);
	}
	if (id)
		rdma_destroy_id(id);
	rdma_destroy_event_channel(c->v->ec);
	c->v->ec = NULL;
	return ret;
}

void gdr_cm_close(struct gdr_conn *c)
{
	for (uint32_t k = 0; k < GDR_MAX_PATHS; k++) {
		for (uint32_t i = 0; i < GDR_MAX_QPS; i++) {
			struct rdma_cm_id **id = &c->v->path[k].cm_id[i];

			if (!*id)
				continue;
			rdma_disconnect(*id);
			rdma_destroy_id(*id);
			*id = NULL;
		}
	}
	if (c->v->listen_id)
		rdma_destroy_id(c->v->listen_id);
	c->v->listen_id = NULL;
	if (c->v->ec)
		rdma_destroy_event_channel(c->v->ec);
	c->v->ec = NULL;
}
