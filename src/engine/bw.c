/* SPDX-License-Identifier: MIT */
/*
 * Bandwidth tests (write, read, send): a requester keeps up to tx_depth work
 * requests in flight per QP, signalling one in cq_mod; a receiver (send)
 * keeps rx_depth receives posted. One loop serves both roles so -b runs both
 * at once. Memory use does not depend on the number of iterations.
 *
 * Timing: from the first post to the last completion (requester), or from
 * GO to the last completion (receiver), on CLOCK_MONOTONIC. In duration mode
 * the measurement ends at the last completion before the deadline; the queue
 * drained after it is not counted.
 * BW peak: the highest rate over windows of at least max(tx_depth, cq_mod)
 * messages and 10 ms that tile the time the average covers (see gdr_peak;
 * a shorter run is its own one window); BW average: all bytes over the
 * whole time.
 * Out-of-band traffic (heartbeats) only in loops running longer than half
 * of --timeout: a shorter timed loop carries none.
 */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "bw.h"
#include "bw_kv.h"
#include "bw_ring.h"
#include "clock.h"
#include "log.h"
#include "session.h"
#include "stop.h"

#define CLOCK_EVERY 16 /* empty polls between clock reads */
#define EVENT_WAIT_MS 10 /* -e: longest sleep, so deadlines and heartbeats stay on time */

int gdr_bw_poll_send(struct gdr_bw_state *s, uint64_t *msgs)
{
	const struct gdr_xport_ops *xp = s->c->xp;
	struct gdr_xcqe e[64];
	int n = xp->poll(s->c->xd, GDR_XCQ_SEND, e, 64);

	uint64_t now = s->kv && n > 0 ? gdr_now_ns() : 0; /* a KV row: each batch's end */

	if (n < 0)
		return -1;
	*msgs = 0;
	for (int i = 0; i < n; i++) {
		uint32_t q = (uint32_t)(e[i].ctx & ((1u << GDR_BW_QP_BITS) - 1));
		uint64_t covered = e[i].ctx >> GDR_BW_QP_BITS;

		if (e[i].status)
			return xp->cqe_error(s->c->xd, &e[i], "send");
		if (s->kv)
			gdr_bw_kv_done(s->kv, q, now);
		s->qp[q].completed += covered;
		*msgs += covered;
	}
	s->tx_done += *msgs;
	return n;
}

/* Reap receive completions and re-post as many receives. Returns the count or -1. */
static int poll_recv(struct gdr_bw_state *s)
{
	const struct gdr_xport_ops *xp = s->c->xp;
	struct gdr_xcqe e[64];
	uint32_t repost[GDR_MAX_QPS] = { 0 };
	int n = xp->poll(s->c->xd, GDR_XCQ_RECV, e, 64);

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (e[i].status)
			return xp->cqe_error(s->c->xd, &e[i], "receive");
		repost[e[i].ctx]++; /* the QP its receive was posted on (gdr_post_rx) */
		s->rx_done++;
		s->rx_all++;
		if ((e[i].flags & GDR_XCQE_DATA) && e[i].data == GDR_IMM_LAST)
			s->rx_lasts++;
	}
	if (n > 0)
		for (uint32_t q = 0; q < s->c->nqp; q++)
			if (repost[q] && gdr_post_rx(s->c, s->p, q, repost[q], s->recv_len))
				return -1;
	return n;
}

uint64_t gdr_bw_posted(const struct gdr_bw_state *s)
{
	uint64_t n = 0;

	for (uint32_t q = 0; q < s->c->nqp; q++)
		n += s->qp[q].posted;
	return n;
}

/* Unreliable receiver: the sender's count came and every message arrived, or the grace ran out. */
static bool rx_finished(const struct gdr_bw_state *s, uint64_t now)
{
	uint64_t since;

	if (!s->unreliable)
		return s->rx_lasts >= s->c->nqp;
	if (s->peer_sent == UINT64_MAX)
		return false;
	since = s->t_last_rx > s->t_sent ? s->t_last_rx : s->t_sent;
	return s->rx_all >= s->peer_sent || now - since >= GDR_UNRELIABLE_GRACE_NS;
}

/* Unreliable receiver: read what the peer sent out of band, without waiting. */
static int read_sent(struct gdr_bw_state *s, uint64_t now)
{
	struct gdr_conn *c = s->c;
	struct gdr_msg m;

	s->t_oob_check = now;
	while (gdr_oob_ready(&c->oob)) {
		if (gdr_oob_recv(&c->oob, &m, -1))
			return -1;
		s->progress_ns = now;
		if (m.type == GDR_MSG_SYNC && m.u.sync.step == GDR_STEP_HEARTBEAT)
			continue;
		if (m.type == GDR_MSG_SYNC && m.u.sync.step == GDR_STEP_SENT) {
			s->peer_sent = m.u.sync.value;
			s->t_sent = now;
			return 0;
		}
		if (m.type == GDR_MSG_REJECT) {
			m.u.reason[sizeof(m.u.reason) - 1] = 0;
			gdr_err("%s: %s", c->is_server ? "client" : "server", m.u.reason);
		} else {
			gdr_err("protocol error: expected the sent count from %s, got %s",
				c->oob.peer, gdr_msg_type_name(m.type));
		}
		return -1;
	}
	return 0;
}

static bool tx_finished(const struct gdr_bw_state *s)
{
	for (uint32_t q = 0; q < s->c->nqp; q++) {
		const struct gdr_bw_qp *p = &s->qp[q];

		if (p->completed < p->posted || p->final_pending)
			return false;
		if (!s->stop && p->posted < s->per_qp)
			return false;
	}
	return true;
}

/*
 * The deadline: stop posting (but each QP's LAST marker) and keep what was
 * measured before it; the completions just reaped (new_tx, new_rx messages)
 * were seen after it, so they are not counted.
 */
static void stop_at_deadline(struct gdr_bw_state *s, uint64_t new_tx, uint64_t new_rx)
{
	s->stop = true;
	for (uint32_t q = 0; q < s->c->nqp; q++)
		s->qp[q].final_pending = true;
	s->stop_tx_done = s->tx_done - new_tx;
	s->stop_t_tx = s->t_last_tx;
	s->stop_rx_done = s->rx_done - new_rx;
	s->stop_t_rx = s->t_last_rx;
}

/* Completions were reaped at `now`: stamp them (end time, liveness, peak windows). */
static void stamp(struct gdr_bw_state *s, uint64_t now, int ntx, int nrx)
{
	bool peak = !s->stop && !s->c->o->no_peak; /* -N: no windows tracked */

	s->progress_ns = now;
	if (ntx) {
		s->t_last_tx = now;
		if (peak)
			gdr_peak_update(&s->peak, now, s->tx_done);
	}
	if (nrx) {
		s->t_last_rx = now;
		if (!s->tx_active && peak)
			gdr_peak_update(&s->peak, now, s->rx_done);
	}
}

static int run(struct gdr_bw_state *s)
{
	struct gdr_conn *c = s->c;
	uint64_t timeout_ns = (uint64_t)(c->o->timeout * 1e9);
	uint64_t now = gdr_now_ns();
	uint64_t deadline = 0;
	uint32_t idle = 0;
	bool events = gdr_xp_events(c);

	s->progress_ns = now;
	s->t_go = now;
	s->pace.t0_ns = now;
	/* No out-of-band traffic in a timed loop unless it runs long enough for the peer to need it. */
	s->hb_after_ns = timeout_ns / 2;
	if (!s->tx_active)
		gdr_peak_start(&s->peak, s->size, s->peak.min, now);
	gdr_progress_start(&s->prog, c->o->interval, s->size, c->o->report_gbits, now);
	if (c->o->duration > 0)
		deadline = now + (uint64_t)(c->o->duration * 1e9);
	for (;;) {
		bool tx_done = !s->tx_active || tx_finished(s);
		bool rx_done = !s->rx_active || rx_finished(s, now);

		/* unreliable: the receiver learns at once how many messages to wait for */
		if (s->unreliable && s->tx_active && tx_done && !s->sent_told) {
			if (gdr_sync_send(c, GDR_STEP_SENT, gdr_bw_posted(s)))
				return -1;
			s->sent_told = true;
		}
		if (tx_done && rx_done)
			break;
		/*
		 * Each QP's queue filled before the completions are polled (as perftest
		 * does): at --post_list 1 one post call per message, not a poll per post.
		 */
		if (s->tx_active && !tx_done)
			for (uint32_t q = 0; q < c->nqp; q++) {
				int posted;

				while ((posted = gdr_bw_post(s, q)) > 0)
					;
				if (posted < 0)
					return -1;
			}
		uint64_t new_tx = 0;
		int ntx = 0, nrx = 0;

		if (s->tx_active && (ntx = gdr_bw_poll_send(s, &new_tx)) < 0)
			return -1;
		if (s->rx_active && (nrx = poll_recv(s)) < 0)
			return -1;
		/* -e: nothing reaped, sleep until an event (pacing: a post may be due sooner) */
		if (events && !ntx && !nrx && c->xp->wait(c->xd, s->pace.on ? 1 : EVENT_WAIT_MS))
			return -1;
		/* the clock is read after a completion, or once in CLOCK_EVERY empty polls */
		else if (!events && !ntx && !nrx && ++idle < CLOCK_EVERY)
			continue;
		idle = 0;
		now = gdr_now_ns();
		if (gdr_interrupted(c, s->stop_at, s->tx_active ? s->tx_done : s->rx_done,
				    s->per_qp == UINT64_MAX ? 0 : s->per_qp * c->nqp))
			return -1;
		if (!s->stop && ((deadline && now >= deadline) ||
				 (c->o->run_infinitely && s->tx_active && gdr_stop_requested())))
			stop_at_deadline(s, new_tx, (uint64_t)nrx);
		if (ntx || nrx)
			stamp(s, now, ntx, nrx);
		if (s->unreliable && s->rx_active && s->peer_sent == UINT64_MAX &&
		    now - s->t_oob_check >= 1000000 && read_sent(s, now))
			return -1;
		if (now - s->progress_ns > timeout_ns) {
			gdr_err("no completion for %g s (peer gone? raise --timeout for slow links)",
				c->o->timeout);
			return -1;
		}
		if (!s->stop)
			gdr_progress_tick(&s->prog, now, s->tx_active ? s->tx_done : s->rx_done);
		if (gdr_peer_check(c, now) ||
		    (now - s->t_go >= s->hb_after_ns && gdr_heartbeat(c, now)))
			return -1;
	}
	if (deadline || c->o->run_infinitely) {
		s->tx_done = s->stop_tx_done;
		s->t_last_tx = s->stop_t_tx;
		s->rx_done = s->stop_rx_done;
		s->t_last_rx = s->stop_t_rx;
	}
	/* the windows end where the average ends: peak >= average */
	if (s->tx_active)
		gdr_peak_finish(&s->peak, s->t_last_tx, s->tx_done);
	else
		gdr_peak_finish(&s->peak, s->t_last_rx, s->rx_done);
	return 0;
}

int gdr_bw_loop(struct gdr_bw_state *s)
{
	int ret;

	if (s->tx_active && gdr_bw_ring_build(s))
		return -1;
	ret = run(s);
	gdr_bw_ring_free(s);
	return ret;
}
