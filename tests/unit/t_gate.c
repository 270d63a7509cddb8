/* SPDX-License-Identifier: MIT */
/*
 * The server's front door over loopback TCP: silent connections never hold
 * off a real client (read side by side, dropped after their own deadline),
 * garbage is dropped, --allow closes other networks unread, and the allow
 * list parses and matches IPv4, IPv6 and IPv4-mapped peers.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "allow.h"
#include "log.h"
#include "oob.h"
#include "xchg.h" /* GDR_PROTO_VERSION */

#include "check.h"

#define STR_(x) #x
#define XSTR(x) STR_(x) /* the build's version as text */

static FILE *log_fp; /* stderr goes here; each test reads what was added */
static long log_off;
static char logged[16384];

static const char *new_log(void)
{
	size_t n;

	fflush(stderr);
	fseek(log_fp, log_off, SEEK_SET);
	n = fread(logged, 1, sizeof(logged) - 1, log_fp);
	logged[n] = 0;
	log_off += (long)n;
	return logged;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int listener(uint16_t *port)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int fd = gdr_oob_tcp_listen("127.0.0.1", 0);

	if (fd < 0 || getsockname(fd, (struct sockaddr *)&sa, &len))
		abort();
	*port = ntohs(sa.sin_port);
	return fd;
}

static int dial(uint16_t port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		abort();
	return fd;
}

static void send_hello(int fd)
{
	struct gdr_msg m = {.type = GDR_MSG_HELLO};
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	size_t n;

	m.u.hello = (struct gdr_hello){.num_qps = 1, .tx_depth = 128, .rx_depth = 512,
				       .cq_mod = 100, .iters = 5, .nsizes = 1, .repeat = 1};
	m.u.hello.sizes[0] = 4096;
	snprintf(m.u.hello.host, sizeof(m.u.hello.host), "real");
	snprintf(m.u.hello.xport, sizeof(m.u.hello.xport), "verbs");
	n = gdr_msg_encode(&m, buf, sizeof(buf));
	if (!n || send(fd, buf, n, 0) != (ssize_t)n)
		abort();
}

/* What a dropped peer reads: 1 a REJECT frame, 0 the connection closed unanswered. */
static int got_reject(int fd)
{
	uint8_t hdr[GDR_FRAME_HDR];
	uint16_t type = 0, version = 0;
	struct timeval tv = {2, 0};

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (recv(fd, hdr, sizeof(hdr), MSG_WAITALL) != (ssize_t)sizeof(hdr))
		return 0;
	return gdr_frame_header(hdr, sizeof(hdr), &type, &version) >= 0 && type == GDR_MSG_REJECT;
}

/* The reason of the REJECT a dropped peer reads, "" none. */
static const char *reject_reason(int fd)
{
	static uint8_t b[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	static struct gdr_msg m;
	struct timeval tv = {2, 0};
	int plen;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (recv(fd, b, GDR_FRAME_HDR, MSG_WAITALL) != GDR_FRAME_HDR)
		return "";
	plen = gdr_frame_header(b, GDR_FRAME_HDR, NULL, NULL);
	if (plen < 0 || recv(fd, b + GDR_FRAME_HDR, (size_t)plen, MSG_WAITALL) != plen ||
	    gdr_msg_decode(b, GDR_FRAME_HDR + (size_t)plen, &m) || m.type != GDR_MSG_REJECT)
		return "";
	return m.u.reason;
}

/* 40 silent connections (more than the gate reads at once), then a real client. */
static void test_silent_many(void)
{
	uint16_t port;
	int lfd = listener(&port), silent[40], real, n = 0;
	struct gdr_oob c;
	struct gdr_msg m;
	double t0;
	char want[32];

	for (int i = 0; i < 40; i++)
		silent[i] = dial(port);
	real = dial(port);
	send_hello(real);
	t0 = now_s();
	CHECK(gdr_oob_tcp_await(&c, &m, lfd, NULL, 10000, 5000, 1000) == 0);
	CHECK(now_s() - t0 < 3.0, "took %.1f s", now_s() - t0);
	CHECK(m.type == GDR_MSG_HELLO && !strcmp(m.u.hello.host, "real"));
	snprintf(want, sizeof(want), "127.0.0.1:");
	CHECK(!strncmp(c.peer, want, strlen(want)));
	CHECK(strstr(new_log(), "too many connections waiting") != NULL, "%s", logged);
	for (int i = 0; i < 40; i++) { /* every silent one was answered and closed */
		n += got_reject(silent[i]);
		close(silent[i]);
	}
	CHECK(n == 40, "%d of 40 silent connections got a REJECT", n);
	gdr_oob_close(&c);
	close(real);
	close(lfd);
}

/* Silent peers are dropped after their own deadline; the wait itself ends on time. */
static void test_deadlines(void)
{
	uint16_t port;
	int lfd = listener(&port), a = dial(port), b = dial(port);
	struct gdr_oob c;
	struct gdr_msg m;
	double t0 = now_s(), dt;

	CHECK(gdr_oob_tcp_await(&c, &m, lfd, NULL, 1200, 300, 1000) == -2);
	dt = now_s() - t0;
	CHECK(dt >= 1.15 && dt < 4.0, "took %.2f s", dt);
	CHECK(strstr(new_log(), "no request within the time allowed") != NULL, "%s", logged);
	CHECK(got_reject(a) && got_reject(b));
	close(a);
	close(b);
	close(lfd);
}

/* Garbage and another protocol version are dropped; a real client after them is served. */
static void test_garbage(void)
{
	static const uint8_t v6[GDR_FRAME_HDR] = {'G', 'D', 'R', 'P', 6, 0, 1, 0, 0, 0, 0, 0};
	uint16_t port;
	int lfd = listener(&port), g = dial(port), v = dial(port), real = dial(port);
	struct gdr_oob c;
	struct gdr_msg m;

	CHECK(send(g, "GET / HTTP/1.0\r\n\r\n", 18, 0) == 18);
	CHECK(send(v, v6, sizeof(v6), 0) == (ssize_t)sizeof(v6));
	send_hello(real);
	CHECK(gdr_oob_tcp_await(&c, &m, lfd, NULL, 5000, 2000, 1000) == 0);
	new_log();
	CHECK(m.type == GDR_MSG_HELLO);
	gdr_oob_close(&c);
	/* sent one at a time, so each is read and judged alone */
	close(g);
	close(v);
	close(real);
	g = dial(port);
	CHECK(send(g, "GET / HTTP/1.0\r\n\r\n", 18, 0) == 18);
	CHECK(gdr_oob_tcp_await(&c, &m, lfd, NULL, 800, 500, 1000) == -2);
	CHECK(strstr(new_log(), "malformed message (not gdrperf?)") != NULL, "%s", logged);
	CHECK(got_reject(g));
	v = dial(port);
	CHECK(send(v, v6, sizeof(v6), 0) == (ssize_t)sizeof(v6));
	CHECK(gdr_oob_tcp_await(&c, &m, lfd, NULL, 800, 500, 1000) == -2);
	CHECK(strstr(new_log(), "it speaks protocol version 6, this is version " XSTR(GDR_PROTO_VERSION)) != NULL, "%s", logged);
	/* the peer is told both versions too (a 6 peer's decoder reads the frame's version) */
	CHECK(!strcmp(reject_reason(v),
		      "expected a gdrperf HELLO of protocol version " XSTR(GDR_PROTO_VERSION) ", got version 6"),
	      "the REJECT's reason");
	close(g);
	close(v);
	close(lfd);
}

/* --allow: a peer from another network is closed unread and unanswered. */
static void test_allow_refused(void)
{
	uint16_t port;
	int lfd = listener(&port), fd;
	struct gdr_allow allow;
	struct gdr_oob c;
	struct gdr_msg m;

	CHECK(gdr_allow_parse(&allow, "192.0.2.0/24") == 0);
	fd = dial(port);
	send_hello(fd);
	CHECK(gdr_oob_tcp_await(&c, &m, lfd, &allow, 800, 500, 1000) == -2);
	CHECK(strstr(new_log(), "not in --allow") != NULL, "%s", logged);
	CHECK(!got_reject(fd));
	close(fd);
	CHECK(gdr_allow_parse(&allow, "10.0.0.0/8,127.0.0.0/8") == 0);
	fd = dial(port);
	send_hello(fd);
	CHECK(gdr_oob_tcp_await(&c, &m, lfd, &allow, 3000, 2000, 1000) == 0);
	gdr_oob_close(&c);
	close(fd);
	close(lfd);
}

static bool match(const struct gdr_allow *a, const char *addr)
{
	struct sockaddr_in s4 = {.sin_family = AF_INET};
	struct sockaddr_in6 s6 = {.sin6_family = AF_INET6};

	if (inet_pton(AF_INET, addr, &s4.sin_addr) == 1)
		return gdr_allow_match(a, (struct sockaddr *)&s4);
	if (inet_pton(AF_INET6, addr, &s6.sin6_addr) != 1)
		abort();
	return gdr_allow_match(a, (struct sockaddr *)&s6);
}

static void test_allow_list(void)
{
	static const char *const bad[] = {"", ",", "10.0.0.0/33", "1.2.3.4/", "1.2.3.4/-1",
					  "example.com", "10.0.0.1,,10.0.0.2", "fd00::/129",
					  "1.2.3.4/8x"};
	struct gdr_allow a;

	CHECK(gdr_allow_parse(&a, NULL) == 0 && match(&a, "203.0.113.9")); /* no list: all */
	CHECK(gdr_allow_parse(&a, "10.0.0.0/8,192.168.1.5,fd00::/8,10.9.0.0/17") == 0);
	CHECK(a.n == 4);
	CHECK(match(&a, "10.255.1.2") && !match(&a, "11.0.0.1"));
	CHECK(match(&a, "192.168.1.5") && !match(&a, "192.168.1.6"));
	CHECK(match(&a, "::ffff:10.1.2.3") && !match(&a, "::ffff:11.1.2.3")); /* dual stack */
	CHECK(match(&a, "fd12::1") && !match(&a, "fe80::1"));
	CHECK(gdr_allow_parse(&a, "10.9.0.0/17") == 0);
	CHECK(match(&a, "10.9.127.255") && !match(&a, "10.9.128.0"));
	CHECK(gdr_allow_parse(&a, "0.0.0.0/0") == 0 && match(&a, "1.2.3.4") && !match(&a, "::1"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(gdr_allow_parse(&a, bad[i]) == -1, "'%s' accepted", bad[i]);
		CHECK(strstr(new_log(), "--allow: ") != NULL, "'%s': %s", bad[i], logged);
	}
}

int main(void)
{
	log_fp = tmpfile();
	if (!log_fp || dup2(fileno(log_fp), 2) < 0)
		return 99;
	gdr_set_prog("t_gate");
	test_allow_list();
	test_silent_many();
	test_deadlines();
	test_garbage();
	test_allow_refused();
	fflush(stderr);
	if (failures) { /* the failures and every logged line, on stdout */
		rewind(log_fp);
		for (int ch; (ch = fgetc(log_fp)) != EOF;)
			putchar(ch);
	}
	return CHECK_DONE();
}
