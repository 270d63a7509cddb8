/* SPDX-License-Identifier: MIT */
/*
 * Latency tests: ping-pong on QP 0 with one message in flight.
 *   write: the client writes, the server sees the last byte change (host
 *          memory) or a write-with-immediate completion (GPU memory,
 *          --use_imm), and writes back. Half the round trip.
 *   send:  send / receive completion / send back. Half the round trip.
 *   read:  the client reads from the server; the full round trip.
 * The server stops on a STOP marker (last byte 255 or an immediate), so
 * duration mode needs no count. Samples: all of them (-n) or a fixed-size
 * histogram (-D). Warm-up iterations are not recorded.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bw.h"
#include "clock.h"
#include "lat.h"
#include "log.h"
#include "session.h"
#include "verb.h"

#define STOP_BYTE 255

#define LAT_CTX 1 /* the ctx of a signalled post (nonzero) */

/* The operation of this size, prepared once; a post says whether it is signalled (and STOP). */
void gdr_lat_build_op(struct gdr_lat *l)
{
	struct gdr_conn *c = l->c;
	bool read = gdr_verb_fetches(c->o->verb);

	l->op = (struct gdr_xop){
	    .len = (uint32_t)l->size,
	    .loff = read ? c->region_len : 0,
	    .inline_ok = !read,
	    .data = GDR_IMM_DATA,
	};
	gdr_verb_ops_of(c->o->verb)->lat_op(l);
}

int gdr_lat_prep(struct gdr_lat *l)
{
	return l->c->xp->prep(l->p->ep[0], l->p->xmr, &l->op, 1);
}

/* The STOP marker rides on the last post: its data (a send gains some), or the last byte. */
static int post(struct gdr_lat *l, bool signal, bool stop)
{
	uint64_t sig = signal ? LAT_CTX : 0;

	if (l->c->xp->post(l->p->ep[0], 0, 1, &sig, stop ? GDR_XP_LAST : 0, GDR_IMM_LAST))
		return -1;
	l->outstanding += signal;
	return 0;
}

int gdr_lat_reap(struct gdr_lat *l, enum gdr_xcq cq, struct gdr_xcqe *e, int max)
{
	const struct gdr_xport_ops *xp = l->c->xp;
	int n = xp->poll(l->c->xd, cq, e, max);

	for (int i = 0; i < n; i++)
		if (e[i].status)
			return xp->cqe_error(l->c->xd, &e[i],
					     cq == GDR_XCQ_SEND ? "send" : "receive");
	return n;
}

/* Wait for one completion on cq; returns it in *e. Bounded by --timeout. */
static int wait_cq(struct gdr_lat *l, enum gdr_xcq cq, struct gdr_xcqe *e)
{
	bool events = gdr_xp_events(l->c);
	uint64_t start = 0;

	for (uint32_t spin = 0;; spin++) {
		int n = gdr_lat_reap(l, cq, e, 1);

		if (n > 0)
			return 0;
		if (n < 0)
			return -1;
		if (events && (l->c->xp->wait(l->c->xd, 10) || gdr_lat_idle(l, &start)))
			return -1; /* -e: sleep until an event (10 ms at most) */
		if ((spin & 1023) == 1023 && gdr_lat_idle(l, &start))
			return -1;
	}
}

int gdr_lat_idle(struct gdr_lat *l, uint64_t *start)
{
	uint64_t now = gdr_now_ns();

	if (!*start)
		*start = now;
	if (gdr_peer_check(l->c, now))
		return -1; /* the peer's process ended: say so now, not after --timeout */
	if (now - *start > l->timeout_ns) {
		gdr_err("no answer from %s for %g s (peer gone? raise --timeout)",
			l->c->oob.peer, l->c->o->timeout);
		return -1;
	}
	return 0;
}

/*
 * Reap send completions without waiting on the critical path: a completion
 * can trail the peer's answer (its ACK may come later), so only wait when
 * GDR_LAT_MAX_OUTSTANDING sends are unreaped.
 */
static int reap_sends(struct gdr_lat *l, bool drain)
{
	struct gdr_xcqe e;

	while (l->outstanding) {
		int n = gdr_lat_reap(l, GDR_XCQ_SEND, &e, 1);

		if (n < 0)
			return -1; /* printed */
		if (n > 0) {
			l->outstanding--;
			continue;
		}
		if (!drain && l->outstanding < GDR_LAT_MAX_OUTSTANDING)
			return 0;
		if (wait_cq(l, GDR_XCQ_SEND, &e))
			return -1;
		l->outstanding--;
	}
	return 0;
}

/*
 * Wait for the peer's message: last byte == v (polling) or a receive
 * completion. The caller re-posts the receive (repost) once off the
 * critical path: after replying (server) or after taking t1 (client).
 */
static int wait_peer(struct gdr_lat *l, uint8_t v, bool *stop)
{
	struct gdr_xcqe e;

	*stop = false;
	if (l->poll_byte) {
		volatile uint8_t *p = gdr_rx(l->c, l->p) + l->size - 1;
		uint64_t start = 0;
		bool drive = gdr_xp_manual(l->c); /* the peer's write lands while we poll the CQ */

		for (uint32_t spin = 0;; spin++) {
			uint8_t b = *p;

			if (b == v)
				return 0;
			if (b == STOP_BYTE) {
				*stop = true;
				return 0;
			}
			if (drive && l->c->xp->poll(l->c->xd, GDR_XCQ_SEND, &e, 0) < 0)
				return -1; /* printed */
			if ((spin & 4095) == 4095 && gdr_lat_idle(l, &start))
				return -1;
		}
	}
	if (wait_cq(l, GDR_XCQ_RECV, &e))
		return -1;
	if ((e.flags & GDR_XCQE_DATA) && e.data == GDR_IMM_LAST)
		*stop = true;
	return 0;
}

static int repost(struct gdr_lat *l)
{
	return l->poll_byte ? 0 : gdr_post_rx(l->c, l->p, 0, 1, l->c->recv_len);
}

/*
 * Staged path, through the size's copier: test memory -> bounce before sending,
 * bounce -> test memory after receiving; one copy per message, waited for.
 */
static int stage_out(struct gdr_lat *l)
{
	if (!l->staged)
		return 0;
	return gdr_copier_submit(l->cp, GDR_TO_HOST, 0, gdr_tx(l->p), l->size) ||
	       gdr_copier_drain(l->cp, GDR_TO_HOST);
}

static int stage_in(struct gdr_lat *l)
{
	struct gdr_conn *c = l->c;

	if (!l->staged)
		return 0;
	return gdr_copier_submit(l->cp, GDR_FROM_HOST, c->region_len, gdr_rx(c, l->p), l->size) ||
	       gdr_copier_drain(l->cp, GDR_FROM_HOST);
}

/* Send one ping (or pong, or the STOP marker). */
static int ping(struct gdr_lat *l, uint8_t v, bool stop)
{
	/* Signal one send in GDR_LAT_SIGNAL_EVERY (and the last): fewer completions to reap. */
	bool signal = stop || ++l->unsignaled >= GDR_LAT_SIGNAL_EVERY;

	if (signal)
		l->unsignaled = 0;
	if (l->poll_byte)
		gdr_tx(l->p)[l->size - 1] = stop ? STOP_BYTE : v;
	return post(l, signal, stop);
}

static uint8_t seq(uint64_t i)
{
	return (uint8_t)(i % 254 + 1); /* 1..254: never 0 (cleared) nor STOP_BYTE */
}

/* Long loops only: a heartbeat between samples once the peer could otherwise give up. */
static int keepalive(struct gdr_lat *l, uint64_t start, uint64_t now)
{
	if (gdr_peer_check(l->c, now))
		return -1;
	return now - start >= l->hb_after_ns ? gdr_heartbeat(l->c, now) : 0;
}

/* Read: one read in flight, from post to its completion. */
static int read_once(struct gdr_lat *l, uint64_t *t1)
{
	struct gdr_xcqe e;

	if (post(l, true, false) || wait_cq(l, GDR_XCQ_SEND, &e) || stage_in(l))
		return -1;
	*t1 = gdr_now_ns();
	l->outstanding--;
	return 0;
}

/* Write/send: ping, wait for the pong; the receive is re-posted after t1. */
static int pingpong(struct gdr_lat *l, uint8_t v, uint64_t *t1)
{
	bool stop;

	if (stage_out(l) || ping(l, v, false) || wait_peer(l, v, &stop) || stage_in(l))
		return -1;
	*t1 = gdr_now_ns();
	if (stop) {
		gdr_err("protocol error: the server stopped early");
		return -1;
	}
	return repost(l) || reap_sends(l, false) ? -1 : 0;
}

/* The client's side: measure. Records sample i via gdr_lat_record. */
int gdr_lat_client(struct gdr_lat *l)
{
	bool read = gdr_verb_fetches(l->c->o->verb);
	uint64_t start = gdr_now_ns();
	uint64_t deadline = l->duration_ns ? start + l->duration_ns : 0;

	gdr_lat_build_op(l);
	if (gdr_lat_prep(l))
		return -1;
	for (uint64_t i = 0;; i++) {
		uint8_t v = seq(i);
		uint64_t t0, t1 = 0;

		if (deadline ? (i >= l->warmup && gdr_now_ns() >= deadline)
			     : i >= l->warmup + l->iters)
			break;
		if (gdr_interrupted(l->c, l->stop_at, i > l->warmup ? i - l->warmup : 0,
				    deadline ? 0 : l->iters))
			return -1;
		/* between t0 and t1: the post and the poll (and the copies of --staged) */
		t0 = gdr_now_ns();
		if (read ? read_once(l, &t1) : pingpong(l, v, &t1))
			return -1;
		if (i >= l->warmup)
			gdr_lat_record(l, (double)(t1 - t0) * 1e-3 / l->divisor);
		if (keepalive(l, start, t1))
			return -1;
	}
	if (!read && (ping(l, 0, true) || reap_sends(l, true)))
		return -1;
	return 0;
}

/* The server's side of write/send: answer every ping until STOP, then re-post. */
int gdr_lat_server(struct gdr_lat *l)
{
	gdr_lat_build_op(l);
	if (gdr_lat_prep(l))
		return -1;
	for (uint64_t i = 0;; i++) {
		bool stop;

		if (wait_peer(l, seq(i), &stop))
			return -1;
		if (stop)
			break;
		if (stage_in(l) || stage_out(l) || ping(l, seq(i), false) || repost(l) ||
		    reap_sends(l, false))
			return -1;
	}
	return reap_sends(l, true) || repost(l) ? -1 : 0;
}
