/* SPDX-License-Identifier: MIT */
/* Channel-independent helpers on top of the out-of-band ops. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "oob.h"

int gdr_oob_expect(struct gdr_oob *c, struct gdr_msg *m, uint16_t type, int timeout_ms)
{
	int rc;

	c->expect = type;
	rc = gdr_oob_recv(c, m, timeout_ms);
	c->expect = 0;
	if (rc)
		return -1;
	if (m->type == type)
		return 0;
	if (m->type == GDR_MSG_REJECT) {
		c->peer_failed = true;
		gdr_err("%s refused: %s", c->peer, m->u.reason);
	} else {
		gdr_err("expected %s from %s but got %s (are both sides the same gdrperf version?)",
			gdr_msg_type_name(type), c->peer, gdr_msg_type_name(m->type));
	}
	return -1;
}

int gdr_oob_reject(struct gdr_oob *c, const char *fmt, ...)
{
	struct gdr_msg m;
	va_list ap;

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_REJECT;
	va_start(ap, fmt);
	vsnprintf(m.u.reason, sizeof(m.u.reason), fmt, ap);
	va_end(ap);
	return gdr_oob_send(c, &m);
}

void gdr_oob_phase(struct gdr_oob *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->phase, sizeof(c->phase), fmt, ap);
	va_end(ap);
}
