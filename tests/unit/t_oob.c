/* SPDX-License-Identifier: MIT */
/*
 * Out-of-band channel: framing over a socketpair (byte-at-a-time delivery,
 * timeouts, peer close, garbage, other version, oversize length, REJECT,
 * wrong type, dead peer on send, full socket on send), then real loopback
 * TCP (connect retrying until the server appears, accept, port in use,
 * listen timeout, connection refused within connect_timeout). Error lines
 * are captured from stderr and checked for the facts they must name.
 * Upper time bounds are loose (a loaded build machine); lower ones are exact.
 */
#include <errno.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "log.h"
#include "oob.h"

#include "capture.h"
#include "check.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- stderr capture ---- */

static struct capture cap;
static char captured[4096];

static void capture_start(void)
{
	capture_on(&cap, 2);
}

static const char *capture_end(void)
{
	return capture_off(&cap, captured, sizeof(captured));
}

#define HAS(text, want)                                                                            \
	do {                                                                                       \
		if (!strstr(text, want)) {                                                         \
			fprintf(stderr, "%s:%d: stderr lacks \"%s\": %s\n", __FILE__, __LINE__,    \
				want, text);                                                       \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* ---- helpers ---- */

static struct gdr_msg sample_hello(void)
{
	struct gdr_msg m;

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_HELLO;
	m.u.hello.verb = GDR_VERB_READ;
	m.u.hello.kind = GDR_KIND_BW;
	m.u.hello.flags = GDR_HF_VALIDATE;
	m.u.hello.num_qps = 4;
	m.u.hello.tx_depth = 128;
	m.u.hello.rx_depth = 512;
	m.u.hello.cq_mod = 100;
	m.u.hello.iters = 5000;
	m.u.hello.duration = 1.5;
	m.u.hello.nsizes = 3;
	m.u.hello.repeat = 1;
	m.u.hello.sizes[0] = 2;
	m.u.hello.sizes[1] = 65536;
	m.u.hello.sizes[2] = 8 << 20;
	strcpy(m.u.hello.host, "node-a");
	strcpy(m.u.hello.xport, "verbs");
	return m;
}

static int hello_eq(const struct gdr_msg *a, const struct gdr_msg *b)
{
	const struct gdr_hello *x = &a->u.hello, *y = &b->u.hello;

	return a->type == b->type && x->verb == y->verb && x->kind == y->kind &&
	       x->flags == y->flags && x->num_qps == y->num_qps && x->iters == y->iters &&
	       x->duration == y->duration && x->nsizes == y->nsizes && x->sizes[0] == y->sizes[0] &&
	       x->sizes[1] == y->sizes[1] && x->sizes[2] == y->sizes[2] &&
	       x->repeat == y->repeat && !strcmp(x->host, y->host);
}

static size_t encode(const struct gdr_msg *m, uint8_t *buf)
{
	size_t n = gdr_msg_encode(m, buf, GDR_FRAME_HDR + GDR_MAX_PAYLOAD);

	if (!n)
		abort();
	return n;
}

/* A channel on one end of a socketpair; raw bytes go in/out at *other. */
static void pair(struct gdr_oob *c, int *other, int timeout_ms)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		abort();
	CHECK(gdr_oob_tcp_attach(c, sv[0], "peer-x", timeout_ms) == 0);
	*other = sv[1];
}

struct trickle {
	int fd;
	const uint8_t *buf;
	size_t len;
};

static void *trickle_writer(void *arg)
{
	struct trickle *t = arg;
	struct timespec ms = {0, 1000000};

	for (size_t i = 0; i < t->len; i++) {
		if (write(t->fd, t->buf + i, 1) != 1)
			break;
		if (i % 8 == 0)
			nanosleep(&ms, NULL);
	}
	return NULL;
}

/* ---- framing over a socketpair ---- */

static void test_byte_at_a_time(void)
{
	struct gdr_oob c;
	struct gdr_msg m = sample_hello(), out;
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	struct trickle t;
	pthread_t th;
	int raw;

	pair(&c, &raw, 5000);
	t = (struct trickle){raw, buf, encode(&m, buf)};
	pthread_create(&th, NULL, trickle_writer, &t);
	CHECK(gdr_oob_expect(&c, &out, GDR_MSG_HELLO, -1) == 0);
	CHECK(hello_eq(&m, &out));
	pthread_join(th, NULL);
	/* two frames in one write arrive as two messages */
	{
		struct gdr_msg s = {.type = GDR_MSG_SYNC, .u.sync = {7, 99}};
		size_t n = encode(&s, buf);

		encode(&m, buf + n);
		CHECK(write(raw, buf, n + GDR_FRAME_HDR + 275) ==
		      (ssize_t)(n + GDR_FRAME_HDR + 275));
		CHECK(gdr_oob_recv(&c, &out, -1) == 0 && out.type == GDR_MSG_SYNC &&
		      out.u.sync.step == 7 && out.u.sync.value == 99);
		CHECK(gdr_oob_recv(&c, &out, -1) == 0 && hello_eq(&m, &out));
	}
	gdr_oob_close(&c);
	CHECK(c.fd == -1 && c.ops == NULL);
	gdr_oob_close(&c); /* a second close does nothing */
	close(raw);
}

static void test_timeout(void)
{
	struct gdr_oob c;
	struct gdr_msg out;
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	double t0, dt;
	int raw;

	pair(&c, &raw, 250);
	capture_start();
	t0 = now_s();
	CHECK(gdr_oob_expect(&c, &out, GDR_MSG_QPINFO, -1) == -1);
	dt = now_s() - t0;
	HAS(capture_end(), "timed out after 0.25 s waiting for QPINFO from peer-x");
	CHECK(dt >= 0.24 && dt < 3.0);

	/* an explicit timeout wins over the default; half a header still times out */
	struct gdr_msg m = sample_hello();
	encode(&m, buf);
	CHECK(write(raw, buf, 5) == 5);
	capture_start();
	t0 = now_s();
	CHECK(gdr_oob_recv(&c, &out, 400) == -1);
	dt = now_s() - t0;
	HAS(capture_end(), "timed out after 0.4 s waiting for a message from peer-x");
	CHECK(dt >= 0.39 && dt < 3.0);
	gdr_oob_close(&c);
	close(raw);
}

static void test_peer_close(void)
{
	struct gdr_oob c;
	struct gdr_msg out, m = sample_hello();
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	int raw;

	pair(&c, &raw, 5000);
	close(raw);
	capture_start();
	CHECK(gdr_oob_expect(&c, &out, GDR_MSG_ACCEPT, -1) == -1);
	HAS(capture_end(), "peer-x closed the connection while this side waited for ACCEPT");
	gdr_oob_close(&c);

	/* closed in the middle of the payload */
	pair(&c, &raw, 5000);
	CHECK(write(raw, buf, encode(&m, buf) - 10) > 0);
	close(raw);
	capture_start();
	CHECK(gdr_oob_recv(&c, &out, -1) == -1);
	HAS(capture_end(), "peer-x closed the connection");
	gdr_oob_close(&c);

	/* sending to a closed peer is an error, not SIGPIPE */
	pair(&c, &raw, 5000);
	close(raw);
	capture_start();
	CHECK(gdr_oob_send(&c, &m) == -1);
	HAS(capture_end(), "peer-x closed the connection (sending HELLO)");
	gdr_oob_close(&c);
}

static void expect_rejected(const void *bytes, size_t n, const char *want)
{
	struct gdr_oob c;
	struct gdr_msg out;
	double t0;
	int raw;

	pair(&c, &raw, 20000);
	CHECK(write(raw, bytes, n) == (ssize_t)n);
	capture_start();
	t0 = now_s();
	CHECK(gdr_oob_recv(&c, &out, -1) == -1);
	HAS(capture_end(), want);
	CHECK(now_s() - t0 < 10.0); /* refused at once, not after the timeout */
	gdr_oob_close(&c);
	close(raw);
}

static void test_bad_input(void)
{
	struct gdr_msg m = sample_hello();
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	size_t n;

	expect_rejected("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27,
			"peer-x sent a malformed message (not gdrperf?)");
	n = encode(&m, buf);
	buf[4] = 6; /* version 6: the 32-bit rkey and verbs' QP fields */
	{
		char want[80];

		snprintf(want, sizeof(want), "peer-x speaks protocol version 6, this is version %d",
			 GDR_PROTO_VERSION);
		expect_rejected(buf, n, want);
	}
	n = encode(&m, buf);
	buf[8] = 0xa0; /* payload length 0x186a0 = 100000 > GDR_MAX_PAYLOAD */
	buf[9] = 0x86;
	buf[10] = 0x01;
	expect_rejected(buf, GDR_FRAME_HDR, "peer-x sent a malformed message");
	n = encode(&m, buf);
	buf[6] = 42; /* unknown type */
	expect_rejected(buf, n, "peer-x sent a malformed message");
	n = encode(&m, buf);
	buf[GDR_FRAME_HDR] = 9; /* verb 9 */
	expect_rejected(buf, n, "peer-x sent a malformed HELLO message (field out of range)");
}

static void test_reject_and_wrong_type(void)
{
	struct gdr_oob a, b;
	struct gdr_msg out, s = {.type = GDR_MSG_SYNC};
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		abort();
	CHECK(gdr_oob_tcp_attach(&a, sv[0], "server-1", 3000) == 0);
	CHECK(gdr_oob_tcp_attach(&b, sv[1], "client-1", 3000) == 0);
	CHECK(gdr_oob_reject(&b, "size %u is too big", 7u) == 0);
	capture_start();
	CHECK(gdr_oob_expect(&a, &out, GDR_MSG_ACCEPT, -1) == -1);
	HAS(capture_end(), "server-1 refused: size 7 is too big");
	CHECK(out.type == GDR_MSG_REJECT);

	CHECK(gdr_oob_send(&b, &s) == 0);
	capture_start();
	CHECK(gdr_oob_expect(&a, &out, GDR_MSG_QPINFO, -1) == -1);
	HAS(capture_end(), "expected QPINFO from server-1 but got SYNC");

	/* a message that cannot be encoded is refused before anything is sent */
	s.type = 99;
	capture_start();
	CHECK(gdr_oob_send(&b, &s) == -1);
	HAS(capture_end(), "cannot send unknown to client-1");
	capture_start();
	CHECK(gdr_oob_recv(&a, &out, 100) == -1); /* nothing arrived */
	HAS(capture_end(), "timed out after 0.1 s");
	gdr_oob_close(&a);
	gdr_oob_close(&b);
}

/* A peer that never reads: send gives up after the timeout. */
static void test_send_timeout(void)
{
	struct gdr_oob c;
	struct gdr_msg m;
	double t0 = 0, dt = 0;
	int raw, i, rc = 0;

	memset(&m, 0, sizeof(m));
	m.type = GDR_MSG_REJECT;
	memset(m.u.reason, 'z', 200);
	pair(&c, &raw, 200);
	capture_start();
	for (i = 0; i < 100000 && rc == 0; i++) {
		t0 = now_s();
		rc = gdr_oob_send(&c, &m);
	}
	dt = now_s() - t0;
	HAS(capture_end(), "timed out after 0.2 s sending REJECT to peer-x");
	CHECK(rc == -1 && dt >= 0.19 && dt < 3.0);
	gdr_oob_close(&c);
	close(raw);
}

/* ---- real TCP on loopback ---- */

/* A port that was free a moment ago. */
static uint16_t free_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len))
		abort();
	close(fd);
	return ntohs(sa.sin_port);
}

struct server_arg {
	uint16_t port;
	const char *bind;
	int delay_ms, rc;
	struct gdr_msg got;
	char peer[96];
};

static void *server(void *arg)
{
	struct server_arg *s = arg;
	struct timespec d = {s->delay_ms / 1000, (s->delay_ms % 1000) * 1000000L};
	struct gdr_oob c;
	struct gdr_msg acc = {.type = GDR_MSG_ACCEPT};
	int lfd;

	nanosleep(&d, NULL); /* the client is already trying */
	lfd = gdr_oob_tcp_listen(s->bind, s->port);
	s->rc = lfd < 0 ? -1 : gdr_oob_tcp_await(&c, &s->got, lfd, NULL, 5000, 5000, 5000);
	if (lfd >= 0)
		close(lfd);
	if (s->rc)
		return NULL;
	snprintf(s->peer, sizeof(s->peer), "%s", c.peer);
	s->rc = s->got.type != GDR_MSG_HELLO || gdr_oob_send(&c, &acc) ||
		gdr_oob_expect(&c, &s->got, GDR_MSG_BYE, -1);
	gdr_oob_close(&c);
	return NULL;
}

static void tcp_session(const char *bind, int delay_ms, const char *src)
{
	struct server_arg s = {.port = free_port(), .bind = bind, .delay_ms = delay_ms, .rc = -1};
	struct gdr_msg m = sample_hello(), out, bye = {.type = GDR_MSG_BYE};
	struct gdr_oob c;
	char want[32];
	pthread_t th;
	double t0 = now_s();

	pthread_create(&th, NULL, server, &s);
	if (gdr_oob_tcp_connect(&c, src, "127.0.0.1", s.port, 3000, 5000)) {
		fprintf(stderr, "t_oob: connecting to the test server failed\n");
		failures++;
		pthread_join(th, NULL); /* it gives up after its listen timeout */
		return;
	}
	CHECK(now_s() - t0 >= delay_ms / 1000.0 - 0.01);
	snprintf(want, sizeof(want), "127.0.0.1:%u", s.port);
	CHECK(!strcmp(c.peer, want));
	CHECK(gdr_oob_send(&c, &m) == 0);
	CHECK(gdr_oob_expect(&c, &out, GDR_MSG_ACCEPT, -1) == 0);
	CHECK(gdr_oob_send(&c, &bye) == 0);
	pthread_join(th, NULL);
	CHECK(s.rc == 0);
	/* shown as IPv4 even on a dual-stack socket; from --source_ip when given */
	snprintf(want, sizeof(want), "%s:", src ? src : "127.0.0.1");
	CHECK(!strncmp(s.peer, want, strlen(want)), "%s", s.peer);
	gdr_oob_close(&c);
}

static void test_tcp(void)
{
	tcp_session("127.0.0.1", 0, NULL);
	tcp_session(NULL, 450, NULL); /* any address; client retries until the server listens */
	tcp_session("127.0.0.1", 0, "127.0.0.2"); /* --source_ip: any of lo's 127/8 */
}

static void test_tcp_errors(void)
{
	struct gdr_oob c;
	uint16_t port = free_port();
	char want[80];
	double t0, dt;

	/* nobody listens: retried, then refused within the connect timeout */
	capture_start();
	t0 = now_s();
	CHECK(gdr_oob_tcp_connect(&c, NULL, "127.0.0.1", port, 500, 1000) == -1);
	dt = now_s() - t0;
	snprintf(want, sizeof(want), "cannot connect to 127.0.0.1:%u: Connection refused", port);
	HAS(capture_end(), want);
	HAS(captured, "(is the server running?)");
	CHECK(dt >= 0.45 && dt < 3.0);

	/* --source_ip: not an address, or not one of this host's */
	capture_start();
	CHECK(gdr_oob_tcp_connect(&c, "nowhere", "127.0.0.1", port, 500, 1000) == -1);
	HAS(capture_end(), "--source_ip nowhere: not an IPv4 address");
	capture_start();
	CHECK(gdr_oob_tcp_connect(&c, "192.0.2.1", "127.0.0.1", port, 500, 1000) == -1);
	HAS(capture_end(), "(--source_ip must be an address of this host)");

	/* the port is taken by another listener */
	{
		struct sockaddr_in sa = {.sin_family = AF_INET,
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
					 .sin_port = htons(port)};
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
		      listen(fd, 1) == 0);
		capture_start();
		CHECK(gdr_oob_tcp_listen("127.0.0.1", port) == -1);
		snprintf(want, sizeof(want), "TCP port %u is in use (another server running?",
			 port);
		HAS(capture_end(), want);
		close(fd);
	}
}

int main(void)
{
	gdr_set_prog("t_oob");
	test_byte_at_a_time();
	test_timeout();
	test_peer_close();
	test_bad_input();
	test_reject_and_wrong_type();
	test_send_timeout();
	test_tcp();
	test_tcp_errors();
	return CHECK_DONE();
}
