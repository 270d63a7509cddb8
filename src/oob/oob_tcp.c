/* SPDX-License-Identifier: MIT */
/*
 * TCP out-of-band channel. The socket is non-blocking; every read, write
 * and connect waits in poll() for at most the time that is left, so
 * no call can hang. Frames are read as the 12-byte header, then exactly the
 * payload length it announces, which is checked before anything is read.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "log.h"
#include "oob.h"
#include "stop.h"

#define RETRY_MS    150 /* pause between connection attempts */
#define MIN_TRY_MS  200 /* a connection attempt gets at least this long */
#define NO_DEADLINE (-1)

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t deadline_after(int ms)
{
	return ms < 0 ? NO_DEADLINE : now_ms() + ms;
}

static int left_ms(int64_t deadline)
{
	int64_t left;

	if (deadline == NO_DEADLINE)
		return -1;
	left = deadline - now_ms();
	return left < 0 ? 0 : (int)left;
}

/*
 * Wait for events on fd until deadline: 1 ready, 0 timed out, -1 error
 * (errno; EINTR when a stop was asked (gdr_stop_requested): the caller prints
 * nothing, the driver says where the run stopped).
 */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd p = {.fd = fd, .events = events};
	int r;

	for (;;) {
		r = poll(&p, 1, left_ms(deadline));
		if (r >= 0)
			return r > 0;
		if (errno != EINTR || gdr_stop_requested())
			return -1;
	}
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !gdr_stop_requested())
		;
}

static const char *awaited(const struct gdr_oob *c)
{
	return c->expect ? gdr_msg_type_name(c->expect) : "a message";
}

/* ---- the channel ops ---- */

static void closed_err(struct gdr_oob *c, const char *how);

static int tcp_send(struct gdr_oob *c, const struct gdr_msg *m)
{
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	size_t len = gdr_msg_encode(m, buf, sizeof(buf)), off = 0;
	int64_t deadline = deadline_after(c->timeout_ms);
	const char *name = gdr_msg_type_name(m->type);
	ssize_t n;

	if (!len) {
		gdr_err("cannot send %s to %s: a field is out of range (a gdrperf bug: please "
			"report it)",
			name, c->peer);
		return -1;
	}
	while (off < len) {
		n = send(c->fd, buf + off, len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int r = wait_fd(c->fd, POLLOUT, deadline);

			if (r > 0)
				continue;
			if (r == 0) {
				gdr_err("timed out after %g s sending %s to %s (the peer stopped "
					"reading)",
					c->timeout_ms / 1000.0, name, c->peer);
				return -1;
			}
			if (errno == EINTR)
				return -1; /* a stop was asked: the driver says where */
		}
		if ((errno == EPIPE || errno == ECONNRESET) && c->role && c->phase[0])
			closed_err(c, errno == ECONNRESET ? " (reset)" : "");
		else if (errno == EPIPE || errno == ECONNRESET)
			gdr_err("%s closed the connection (sending %s)", c->peer, name);
		else
			gdr_err("sending %s to %s failed: %s", name, c->peer, strerror(errno));
		return -1;
	}
	return 0;
}

static void timeout_err(const struct gdr_oob *c, int timeout_ms)
{
	if (c->role && c->phase[0])
		gdr_err("timed out after %g s: no word from the %s (%s) %s (is it still running? "
			"--timeout raises the limit)",
			timeout_ms / 1000.0, c->role, c->peer, c->phase);
	else
		gdr_err("timed out after %g s waiting for %s from %s (is the other side still "
			"running? --timeout raises the limit)",
			timeout_ms / 1000.0, awaited(c), c->peer);
}

/* The peer closed the connection (how: "", " (reset)"). */
static void closed_err(struct gdr_oob *c, const char *how)
{
	c->peer_failed = true;
	if (c->role && c->phase[0])
		gdr_err("the %s (%s) went away %s (it closed the connection%s)", c->role, c->peer,
			c->phase, how);
	else
		gdr_err("%s closed the connection%s while this side waited for %s", c->peer, how,
			awaited(c));
}

/* Read exactly n bytes before deadline. 0, or -1 with the error printed. */
static int read_exact(struct gdr_oob *c, uint8_t *buf, size_t n, int64_t deadline, int timeout_ms)
{
	size_t off = 0;
	ssize_t r;

	while (off < n) {
		r = recv(c->fd, buf + off, n - off, 0);
		if (r > 0) {
			off += (size_t)r;
			continue;
		}
		if (r == 0) {
			closed_err(c, "");
			return -1;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			int w = wait_fd(c->fd, POLLIN, deadline);

			if (w > 0)
				continue;
			if (w == 0) {
				timeout_err(c, timeout_ms);
				return -1;
			}
			if (errno == EINTR)
				return -1; /* a stop was asked: the driver says where */
		}
		if (errno == ECONNRESET)
			closed_err(c, " (reset)");
		else
			gdr_err("receiving from %s failed: %s", c->peer, strerror(errno));
		return -1;
	}
	return 0;
}

static int tcp_recv(struct gdr_oob *c, struct gdr_msg *m, int timeout_ms)
{
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	uint16_t type = 0, version = 0;
	char why[256];
	int64_t deadline;
	int plen, rc;

	if (timeout_ms < 0)
		timeout_ms = c->timeout_ms;
	deadline = deadline_after(timeout_ms);
	if (read_exact(c, buf, GDR_FRAME_HDR, deadline, timeout_ms))
		return -1;
	plen = gdr_frame_header(buf, GDR_FRAME_HDR, &type, &version);
	if (plen < 0) {
		gdr_oob_frame_why(why, sizeof(why), c->peer, plen, type, version, false);
		gdr_err("%s", why);
		return -1;
	}
	if (read_exact(c, buf + GDR_FRAME_HDR, (size_t)plen, deadline, timeout_ms))
		return -1;
	rc = gdr_msg_decode(buf, GDR_FRAME_HDR + (size_t)plen, m);
	if (rc) {
		gdr_oob_frame_why(why, sizeof(why), c->peer, rc, type, version, true);
		gdr_err("%s", why);
		return -1;
	}
	return 0;
}

void gdr_oob_frame_why(char *buf, size_t len, const char *peer, int rc, uint16_t type,
		       uint16_t version, bool decoded)
{
	if (rc == GDR_EMSG_MAGIC)
		snprintf(buf, len, "%s sent a malformed message (not gdrperf?)", peer);
	else if (rc == GDR_EMSG_VERSION)
		snprintf(buf, len,
			 "%s speaks protocol version %u, this is version %d: use the same gdrperf "
			 "version on both sides",
			 peer, version, GDR_PROTO_VERSION);
	else if (!decoded)
		snprintf(buf, len, "%s sent a malformed message (%s: type %u) (not gdrperf?)", peer,
			 gdr_msg_strerror(rc), type);
	else
		snprintf(buf, len, "%s sent a malformed %s message (%s)", peer,
			 gdr_msg_type_name(type), gdr_msg_strerror(rc));
}

/* The peer's end closed (FIN or reset seen), even with unread data before it. */
static int tcp_gone(struct gdr_oob *c)
{
	struct pollfd p = {.fd = c->fd, .events = POLLRDHUP};

	if (c->fd < 0 || poll(&p, 1, 0) <= 0 || !(p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
		return 0;
	closed_err(c, p.revents & POLLERR ? " (reset)" : "");
	return 1;
}

static void tcp_close(struct gdr_oob *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->ops = NULL;
}

static int tcp_ready(struct gdr_oob *c)
{
	struct pollfd p = {.fd = c->fd, .events = POLLIN};

	return poll(&p, 1, 0) > 0;
}

static const struct gdr_oob_ops tcp_ops = {
    .send = tcp_send,
    .recv = tcp_recv,
    .close = tcp_close,
    .ready = tcp_ready,
    .gone = tcp_gone,
};

int gdr_oob_tcp_attach(struct gdr_oob *c, int fd, const char *peer, int timeout_ms)
{
	int one = 1, fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		gdr_err("cannot set up the connection to %s: %s", peer, strerror(errno));
		close(fd);
		return -1;
	}
	/* small messages, each awaited: no Nagle delay (fails harmlessly on non-TCP) */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	memset(c, 0, sizeof(*c));
	c->ops = &tcp_ops;
	c->fd = fd;
	c->timeout_ms = timeout_ms;
	if (snprintf(c->peer, sizeof(c->peer), "%s", peer) >= (int)sizeof(c->peer))
		memcpy(c->peer + sizeof(c->peer) - 4, "...", 4);
	return 0;
}

/* ---- addresses ---- */

/* "host:port" or "[v6]:port"; a name too long for out is cut and ends in "..." */
static void host_port(char *out, size_t cap, const char *host, uint16_t port)
{
	int n;

	if (strchr(host, ':'))
		n = snprintf(out, cap, "[%s]:%u", host, port);
	else
		n = snprintf(out, cap, "%s:%u", host, port);
	if (n < 0 || (size_t)n >= cap)
		memcpy(out + cap - 4, "...", 4);
}

void gdr_oob_sockaddr_name(char *out, size_t cap, const struct sockaddr *sa, socklen_t len)
{
	char h[NI_MAXHOST], s[NI_MAXSERV];
	const char *p = h;

	if (getnameinfo(sa, len, h, sizeof(h), s, sizeof(s), NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(out, cap, "the peer");
		return;
	}
	if (!strncmp(h, "::ffff:", 7) && strchr(h + 7, '.'))
		p = h + 7; /* IPv4 client of a dual-stack listener */
	host_port(out, cap, p, (uint16_t)strtoul(s, NULL, 10));
}

/* ---- server ---- */

static int open_listener(const struct addrinfo *ai, int *err)
{
	int fd, one = 1, zero = 0;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6) /* "any" on IPv6 takes IPv4 clients too */
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 64) < 0) {
		*err = errno;
		close(fd);
		return -1;
	}
	return fd;
}

/* Listen on bind_addr:port; NULL: any address, IPv6 dual stack if there is IPv6. */
int gdr_oob_tcp_listen(const char *bind_addr, uint16_t port)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
	struct addrinfo *res, *ai;
	char svc[8], where[160];
	int fd = -1, err = 0, pass, rc;

	snprintf(svc, sizeof(svc), "%u", port);
	host_port(where, sizeof(where), bind_addr ? bind_addr : "*", port);
	rc = getaddrinfo(bind_addr, svc, &hints, &res);
	if (rc) {
		gdr_err(
		    "cannot use bind address '%s': %s (give an address of this host with --bind)",
		    bind_addr ? bind_addr : "*", gai_strerror(rc));
		return -1;
	}
	/* for "any", try IPv6 first (it covers IPv4 too), then the rest in order */
	for (pass = bind_addr ? 1 : 0; pass < 2 && fd < 0; pass++) {
		for (ai = res; ai && fd < 0; ai = ai->ai_next) {
			if (pass == 0 && ai->ai_family != AF_INET6)
				continue;
			fd = open_listener(ai, &err);
			if (fd < 0 && err == EADDRINUSE)
				goto in_use;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		gdr_err("cannot listen on %s: %s", where, strerror(err ? err : EADDRNOTAVAIL));
	return fd;
in_use:
	freeaddrinfo(res);
	gdr_err("TCP port %u is in use (another server running? pick one with -p)", port);
	return -1;
}

/* ---- client ---- */

/* One non-blocking connection attempt. The socket, or -1 and *err. */
static int try_connect(const struct addrinfo *ai, const struct addrinfo *src, int64_t deadline,
		       int *err)
{
	int fd, r, soerr = 0;
	socklen_t len = sizeof(soerr);
	int64_t try_deadline = now_ms() + MIN_TRY_MS;

	if (deadline != NO_DEADLINE && deadline > try_deadline)
		try_deadline = deadline;
	else if (deadline == NO_DEADLINE)
		try_deadline = NO_DEADLINE;
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	if (src && bind(fd, src->ai_addr, src->ai_addrlen)) {
		*err = errno;
		goto fail;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno != EINPROGRESS && errno != EINTR) {
		*err = errno;
		goto fail;
	}
	r = wait_fd(fd, POLLOUT, try_deadline);
	if (r <= 0) {
		*err = r == 0 ? ETIMEDOUT : errno;
		goto fail;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
		soerr = errno;
	if (soerr == 0)
		return fd;
	*err = soerr;
fail:
	close(fd);
	return -1;
}

/* --source_ip: the local address to bind, or NULL with none asked. 0 or -1 printed. */
static int source_addr(const char *src, struct addrinfo **res)
{
	struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_PASSIVE | AI_NUMERICHOST};
	int rc;

	*res = NULL;
	if (!src)
		return 0;
	rc = getaddrinfo(src, "0", &hints, res);
	if (rc) {
		gdr_err("--source_ip %s: not an IPv4 address (%s)", src, gai_strerror(rc));
		return -1;
	}
	return 0;
}

int gdr_oob_tcp_connect(struct gdr_oob *c, const char *src, const char *host, uint16_t port,
			int connect_timeout_ms, int timeout_ms)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM};
	struct addrinfo *res, *ai, *from;
	int64_t deadline = deadline_after(connect_timeout_ms);
	char svc[8], peer[sizeof(c->peer)];
	int fd = -1, err = 0, rc, left;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	snprintf(svc, sizeof(svc), "%u", port);
	host_port(peer, sizeof(peer), host, port);
	if (source_addr(src, &from))
		return -1;
	if (from)
		hints.ai_family = AF_INET;
	rc = getaddrinfo(host, svc, &hints, &res);
	if (rc) {
		gdr_err("cannot resolve server host '%s': %s (check the name, or give its IP "
			"address)",
			host, gai_strerror(rc));
		if (from)
			freeaddrinfo(from);
		return -1;
	}
	for (;;) {
		for (ai = res; ai && fd < 0; ai = ai->ai_next)
			fd = try_connect(ai, from, deadline, &err);
		if (fd >= 0)
			break;
		/* the server may not be listening yet: retry these until the deadline */
		if (err != ECONNREFUSED && err != ETIMEDOUT)
			break;
		left = left_ms(deadline);
		if (left == 0 || gdr_stop_requested())
			break;
		sleep_ms(left < 0 || left > RETRY_MS ? RETRY_MS : left);
	}
	freeaddrinfo(res);
	if (from)
		freeaddrinfo(from);
	if (fd < 0 && (err == EINTR || gdr_stop_requested()))
		return -1; /* a stop was asked: the driver says so */
	if (fd < 0) {
		gdr_err("cannot connect to %s%s%s: %s%s", peer, src ? " from " : "", src ? src : "",
			strerror(err),
			err == EADDRNOTAVAIL ? " (--source_ip must be an address of this host)"
			: err == ECONNREFUSED ? " (is the server running?)"
			: err == ETIMEDOUT
			    ? " (is the address right? a firewall dropping the port?)"
			    : "");
		return -1;
	}
	return gdr_oob_tcp_attach(c, fd, peer, timeout_ms);
}
