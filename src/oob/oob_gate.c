/* SPDX-License-Identifier: MIT */
/*
 * The server's front door: connections that have not sent their request yet
 * are read side by side (poll), each with a short deadline of its own, so a
 * handful of silent or slow peers never holds off a real client.
 */
#include "config.h"
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "clock.h"
#include "log.h"
#include "oob.h"

#define GATE_MAX  32 /* connections read at once; a new one pushes out the oldest */
#define LOG_LIMIT 10 /* dropped connections reported one by one, then counted */

struct pending {
	int fd;
	int64_t deadline;
	size_t have;
	char peer[96];
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
};

struct gate {
	struct pending *p;
	int n;
	unsigned long dropped;
	const struct gdr_allow *allow;
	int hello_ms;
};

static int64_t now_ms(void)
{
	return (int64_t)(gdr_now_ns() / 1000000);
}

/* Say why a connection was dropped: "dropped 10.9.0.1:5555: <why>" (why NULL: say nothing). */
static void note_drop(struct gate *g, const char *peer, const char *why)
{
	if (!why)
		return;
	if (++g->dropped <= LOG_LIMIT)
		gdr_warn("dropped %s: %s; still waiting for a client", peer, why);
	if (g->dropped == LOG_LIMIT)
		gdr_warn("further dropped connections are not reported one by one");
}

/* Best effort: one non-blocking REJECT frame; the peer may be gone. */
static void send_reject(int fd, const char *reason)
{
	struct gdr_msg m = {.type = GDR_MSG_REJECT};
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	size_t n;

	snprintf(m.u.reason, sizeof(m.u.reason), "%s", reason);
	n = gdr_msg_encode(&m, buf, sizeof(buf));
	if (n && send(fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		return; /* nothing more to do for a peer that is not listening */
}

static void drop(struct gate *g, int i, const char *reject, const char *why)
{
	if (reject)
		send_reject(g->p[i].fd, reject);
	note_drop(g, g->p[i].peer, why);
	close(g->p[i].fd);
	g->p[i] = g->p[--g->n];
}

static void take_new(struct gate *g, int lfd)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		char peer[96];
		int fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)
			return; /* EAGAIN: no more; others: the peer left between poll and accept */
		gdr_oob_sockaddr_name(peer, sizeof(peer), (struct sockaddr *)&ss, len);
		if (g->allow && !gdr_allow_match(g->allow, (struct sockaddr *)&ss)) {
			close(fd);
			note_drop(g, peer, "not in --allow (closed unread)");
			continue;
		}
		if (g->n == GATE_MAX) /* the oldest has had the longest to speak */
			drop(g, 0, "server busy: too many connections; try again",
			     "too many connections waiting to send a request");
		g->p[g->n] = (struct pending){.fd = fd, .deadline = now_ms() + g->hello_ms};
		memcpy(g->p[g->n].peer, peer, sizeof(peer));
		g->n++;
	}
}

/* Read what pending i sent: 1 a whole valid frame is in *m, 0 not yet, -1 dropped. */
static int read_some(struct gate *g, int i, struct gdr_msg *m)
{
	struct pending *p = &g->p[i];
	uint16_t type = 0, version = 0;
	size_t want = GDR_FRAME_HDR;
	char why[256], reject[96];
	ssize_t r;
	int plen = 0, rc;

	if (p->have >= GDR_FRAME_HDR) {
		plen = gdr_frame_header(p->buf, GDR_FRAME_HDR, &type, &version);
		want += (size_t)plen;
	}
	r = recv(p->fd, p->buf + p->have, want - p->have, 0);
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
		drop(g, i, NULL, "it closed the connection before sending a request");
		return -1;
	}
	if (r < 0)
		return 0;
	p->have += (size_t)r;
	if (p->have == GDR_FRAME_HDR) {
		plen = gdr_frame_header(p->buf, GDR_FRAME_HDR, &type, &version);
		if (plen < 0) {
			gdr_oob_frame_why(why, sizeof(why), "it", plen, type, version, false);
			goto refuse;
		}
	}
	if (p->have < GDR_FRAME_HDR || p->have < GDR_FRAME_HDR + (size_t)plen)
		return 0;
	rc = gdr_msg_decode(p->buf, p->have, m);
	if (rc) {
		gdr_oob_frame_why(why, sizeof(why), "it", rc, type, version, true);
		goto refuse;
	}
	return 1;
refuse:
	if (plen == GDR_EMSG_VERSION) /* the peer's own decoder may still read its text */
		snprintf(reject, sizeof(reject),
			 "expected a gdrperf HELLO of protocol version %d, got version %u",
			 GDR_PROTO_VERSION, version);
	else
		snprintf(reject, sizeof(reject), "expected a gdrperf HELLO of protocol version %d",
			 GDR_PROTO_VERSION);
	drop(g, i, reject, why);
	return -1;
}

static int poll_wait(const struct gate *g, int64_t deadline)
{
	int64_t first = deadline, left;

	for (int i = 0; i < g->n; i++)
		if (first < 0 || g->p[i].deadline < first)
			first = g->p[i].deadline;
	if (first < 0)
		return -1;
	left = first - now_ms();
	return left < 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
}

static int gate_loop(struct gate *g, struct gdr_oob *c, struct gdr_msg *m, int lfd, int wait_ms,
		     int timeout_ms)
{
	int64_t deadline = wait_ms < 0 ? -1 : now_ms() + wait_ms;
	struct pollfd pf[GATE_MAX + 1];

	for (;;) {
		int np = g->n, r;

		pf[0] = (struct pollfd){.fd = lfd, .events = POLLIN};
		for (int i = 0; i < np; i++)
			pf[i + 1] = (struct pollfd){.fd = g->p[i].fd, .events = POLLIN};
		r = poll(pf, (nfds_t)np + 1, poll_wait(g, deadline));
		if (r < 0 && errno != EINTR) {
			gdr_err("waiting for a client failed: %s", strerror(errno));
			return -1;
		}
		for (int i = np - 1; r > 0 && i >= 0; i--) {
			if (!pf[i + 1].revents)
				continue;
			if (read_some(g, i, m) == 1) {
				struct pending won = g->p[i];

				g->p[i] = g->p[--g->n];
				return gdr_oob_tcp_attach(c, won.fd, won.peer, timeout_ms);
			}
		}
		for (int i = g->n - 1; i >= 0; i--)
			if (now_ms() >= g->p[i].deadline)
				drop(g, i, "no request received in time",
				     "no request within the time allowed");
		if (r > 0 && pf[0].revents)
			take_new(g, lfd);
		if (deadline >= 0 && now_ms() >= deadline)
			return -2;
	}
}

int gdr_oob_tcp_await(struct gdr_oob *c, struct gdr_msg *m, int lfd, const struct gdr_allow *allow,
		      int wait_ms, int hello_ms, int timeout_ms)
{
	struct gate g = {.allow = allow, .hello_ms = hello_ms};
	int rc;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	g.p = calloc(GATE_MAX, sizeof(*g.p));
	if (!g.p) {
		gdr_err("out of memory waiting for a client");
		return -1;
	}
	rc = gate_loop(&g, c, m, lfd, wait_ms, timeout_ms);
	while (g.n) /* the others came second: the busy answer is theirs */
		drop(&g, g.n - 1, "server busy: another client came first; try again later", NULL);
	free(g.p);
	return rc;
}
