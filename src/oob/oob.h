/* SPDX-License-Identifier: MIT */
/*
 * Out-of-band channel between the two sides of a test. TCP is one
 * implementation; a launcher (MPI, Slurm) can supply another with the same
 * ops. Every wait has a timeout.
 */
#ifndef GDR_OOB_H
#define GDR_OOB_H

#include <pthread.h>
#include <stdbool.h>
#include "allow.h"
#include "xchg.h"

struct gdr_oob;

struct gdr_oob_ops {
	/* Send one message. 0 or -1 (error printed). */
	int (*send)(struct gdr_oob *c, const struct gdr_msg *m);
	/*
	 * Receive one whole message within timeout_ms (< 0: c->timeout_ms).
	 * Returns 0, or -1 with an error printed: timeout, peer closed,
	 * malformed/other-version message (all named in the message).
	 */
	int (*recv)(struct gdr_oob *c, struct gdr_msg *m, int timeout_ms);
	void (*close)(struct gdr_oob *c);
	/* Without waiting: 1 when a message (or the peer's close) waits to be read, else 0. */
	int (*ready)(struct gdr_oob *c);
	/*
	 * Optional, never blocks: has the peer closed its end (its process
	 * ended)? 1 with the error printed ("the server (...) went away during
	 * the 65536-byte test"), else 0. NULL: the channel cannot tell.
	 */
	int (*gone)(struct gdr_oob *c);
};

struct gdr_oob {
	const struct gdr_oob_ops *ops;
	int fd;
	int timeout_ms;  /* default wait for recv */
	char peer[96];   /* "10.9.0.1:18515" */
	void *priv;
	uint16_t expect; /* type gdr_oob_expect awaits (named in a timeout), 0: any */
	const char *role; /* "client"/"server": errors then speak of the peer in the */
	char phase[64];   /* user's words: "the client went away during the 64-byte test" */
	bool peer_failed; /* the peer went away or refused (its failure, not this side's) */
};

/* What this side is doing, for errors about the peer (printf format; "" clears). */
void gdr_oob_phase(struct gdr_oob *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Server: a listening socket on bind_addr (NULL = any) : port (-1 on error, printed). */
int gdr_oob_tcp_listen(const char *bind_addr, uint16_t port);

/*
 * Server: wait up to wait_ms (< 0: forever) for a connection that sends a
 * whole valid message, and attach c to it (*m: the message). Connections
 * from outside allow (NULL: any) are closed unread; the others are read side
 * by side, each given hello_ms for its message, so silent or slow peers never
 * hold off a real client. Garbage and other protocol versions get a REJECT
 * and are dropped (a warning says why). -1: an error (printed); -2: nobody
 * came in time (not printed: the caller knows what the wait was for).
 */
int gdr_oob_tcp_await(struct gdr_oob *c, struct gdr_msg *m, int lfd,
		      const struct gdr_allow *allow, int wait_ms, int hello_ms, int timeout_ms);

/* Why a frame was refused: rc from gdr_frame_header (decoded false) or gdr_msg_decode. */
void gdr_oob_frame_why(char *buf, size_t len, const char *peer, int rc, uint16_t type,
		       uint16_t version, bool decoded);
/* "10.9.0.1:5555" for a socket address. */
void gdr_oob_sockaddr_name(char *out, size_t cap, const struct sockaddr *sa, socklen_t len);

/*
 * While a test runs, answer every further client on lfd with a REJECT
 * carrying reason, from a thread, so a second client is refused clearly.
 */
struct gdr_busy {
	int lfd;
	const struct gdr_allow *allow; /* connections from elsewhere: closed unanswered */
	int running;
	volatile int stop;
	char reason[200];
	pthread_t thread;
	unsigned long refused;
};
int gdr_busy_start(struct gdr_busy *b, int lfd, const char *reason);
void gdr_busy_stop(struct gdr_busy *b);

/*
 * Client: connect to host:port, retrying for up to connect_timeout_ms; from
 * local IPv4 address src when not NULL (--source_ip).
 */
int gdr_oob_tcp_connect(struct gdr_oob *c, const char *src, const char *host, uint16_t port,
			int connect_timeout_ms, int timeout_ms);
/* Use an already connected stream socket fd (taken over: closed by close). */
int gdr_oob_tcp_attach(struct gdr_oob *c, int fd, const char *peer, int timeout_ms);

static inline int gdr_oob_send(struct gdr_oob *c, const struct gdr_msg *m)
{
	return c->ops->send(c, m);
}
static inline int gdr_oob_recv(struct gdr_oob *c, struct gdr_msg *m, int timeout_ms)
{
	return c->ops->recv(c, m, timeout_ms);
}
static inline int gdr_oob_ready(struct gdr_oob *c)
{
	return c->ops->ready(c);
}
static inline int gdr_oob_gone(struct gdr_oob *c)
{
	return c->ops && c->ops->gone ? c->ops->gone(c) : 0;
}
static inline void gdr_oob_close(struct gdr_oob *c)
{
	if (c->ops)
		c->ops->close(c);
}

/* Receive a message and insist on its type; a REJECT is printed as the peer's error. */
int gdr_oob_expect(struct gdr_oob *c, struct gdr_msg *m, uint16_t type, int timeout_ms);

/* Send a REJECT whose reason is printf-formatted (cut to fit). 0 or -1. */
int gdr_oob_reject(struct gdr_oob *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
