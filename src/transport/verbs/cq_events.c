/* SPDX-License-Identifier: MIT */
/*
 * -e/--events: both CQs report to one completion channel; a loop that found
 * nothing to reap sleeps on it (bounded) instead of polling again.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include "conn.h"
#include "log.h"
#include "verbs.h"

int gdr_cq_channel_open(struct gdr_conn *c)
{
	int fl;

	if (!c->o->events)
		return 0;
	c->v->cch = ibv_create_comp_channel(c->v->vctx);
	fl = c->v->cch ? fcntl(c->v->cch->fd, F_GETFL) : -1;
	if (!c->v->cch || fl < 0 || fcntl(c->v->cch->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		gdr_err("-e: cannot create a completion channel on %s: %s", c->dev_name,
			strerror(errno));
		return -1;
	}
	return 0;
}

int gdr_cq_arm(struct gdr_conn *c)
{
	if (!c->v->cch)
		return 0;
	if (ibv_req_notify_cq(c->v->scq, 0) || ibv_req_notify_cq(c->v->rcq, 0)) {
		gdr_err("-e: cannot request completion events on %s", c->dev_name);
		return -1;
	}
	return 0;
}

int gdr_cq_wait(struct gdr_conn *c, int max_ms)
{
	struct pollfd p = {.fd = c->v->cch->fd, .events = POLLIN};
	struct ibv_cq *cq;
	void *cq_ctx;
	int r = poll(&p, 1, max_ms);

	if (r < 0 && errno != EINTR) {
		gdr_err("-e: cannot wait on the completion channel: %s", strerror(errno));
		return -1;
	}
	if (r <= 0)
		return 0; /* nothing yet: the caller checks its clocks and polls again */
	/* every event is acknowledged at once; the CQs are armed again before the next poll */
	while (ibv_get_cq_event(c->v->cch, &cq, &cq_ctx) == 0)
		ibv_ack_cq_events(cq, 1);
	if (errno != EAGAIN) {
		gdr_err("-e: cannot read a completion event: %s", strerror(errno));
		return -1;
	}
	return gdr_cq_arm(c);
}

void gdr_cq_channel_close(struct gdr_conn *c)
{
	if (c->v->cch)
		ibv_destroy_comp_channel(c->v->cch);
	c->v->cch = NULL;
}
