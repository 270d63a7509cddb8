/* SPDX-License-Identifier: MIT */
/*
 * One size of a bandwidth test, on both sides: prepare buffers, barrier,
 * run, exchange both sides' measurements, validate, combine.
 */
#include "config.h"
#include <math.h>
#include <string.h>
#include "atomic.h"
#include "bw.h"
#include "clock.h"
#include "log.h"
#include "session.h"
#include "staging.h"
#include "verb.h"

/* Does this side's rx region receive the payload? */
static bool data_receiver(const struct gdr_conn *c)
{
	return c->role.data_in;
}

static int fill_slots(struct gdr_conn *c, const struct gdr_path *p, size_t base, size_t nslots,
		      uint64_t size, uint32_t seed)
{
	for (size_t k = 0; k < nslots; k++)
		if (gdr_mem_fill_pattern(gdr_test_mem(c, p), base + k * size, size, seed))
			return -1;
	return 0;
}

struct slots_check {
	const struct gdr_path *p;
	size_t nslots;
	uint64_t size;
	uint32_t seed;
};

/* Check the slots that received data; on mismatch describe it in note. */
static int check_slots(struct gdr_conn *c, void *arg, char *note, size_t notelen)
{
	const struct slots_check *k = arg;

	for (size_t i = 0; i < k->nslots; i++) {
		size_t bad = 0, at = c->region_len + gdr_rx_off(c->o) + i * k->size;
		int r = gdr_mem_check_pattern(gdr_test_mem(c, k->p), at, 0, k->size, k->seed, &bad);

		if (r == -2) {
			struct gdr_mem *m = gdr_test_mem(c, k->p);

			snprintf(note, notelen, "data not checked: %s",
				 m->fail[0] ? m->fail : "its memory could not be read back");
			return -1;
		}
		if (r) {
			snprintf(note, notelen,
				 "validation failed: byte %zu of a %llu-byte message (buffer "
				 "slot %zu) differs from what was sent",
				 bad - at, (unsigned long long)k->size, i);
			return -1;
		}
	}
	return 0;
}

void gdr_bw_init_state(struct gdr_conn *c, struct gdr_path *p, struct gdr_bw_state *s,
		       uint64_t size, const struct gdr_staging *stg)
{
	const struct gdr_opts *o = c->o;

	memset(s, 0, sizeof(*s));
	s->c = c;
	s->p = p;
	s->verb = o->verb;
	s->size = size;
	if (p->staged)
		s->nslots = (size_t)stg->plan.data_msgs;
	else
		s->nslots = gdr_direct_slots(size, o->tx_depth, false);
	s->per_qp = o->duration > 0 || o->run_infinitely ? UINT64_MAX : o->iters;
	s->depth = o->tx_depth;
	s->cq_mod = o->cq_mod < o->tx_depth ? o->cq_mod : o->tx_depth;
	if (s->cq_mod == 0)
		s->cq_mod = 1;
	s->tx_active = c->role.requester;
	s->rx_active = c->role.def->target_recvs && data_receiver(c);
	s->tx_off = 0;
	s->rx_off = c->region_len;
	s->rtx_off = 0;
	s->rrx_off = p->remote.len / 2;
	s->recv_len = c->recv_len;
	s->peak.min = s->depth > s->cq_mod ? s->depth : s->cq_mod;
	s->unreliable = c->role.def->target_recvs && o->conn != GDR_CONN_RC && !p->staged;
	s->peer_sent = UINT64_MAX;
	if (s->tx_active) /* the clock starts with the loop (gdr_bw_loop) */
		gdr_pace_start(&s->pace, o->rate_limit, (enum gdr_rate_unit)o->rate_units, size, 0);
}

void gdr_bw_measure(const struct gdr_bw_state *s, struct gdr_result_wire *w)
{
	memset(w, 0, sizeof(*w));
	w->bytes = s->size;
	if (s->tx_active) {
		w->iters = s->tx_done;
		w->duration_s = (double)gdr_span_ns(s->t_start, s->t_last_tx) * 1e-9;
	} else if (s->rx_active) {
		w->iters = s->rx_done;
		w->duration_s = (double)gdr_span_ns(s->t_go, s->t_last_rx) * 1e-9;
	}
	if (w->iters && w->duration_s > 0) {
		w->bw_avg_Bps = (double)w->iters * (double)s->size / w->duration_s;
		w->msg_rate_pps = (double)w->iters / w->duration_s;
	}
	w->bw_peak_Bps = s->peak.Bps; /* 0: no window completed */
}

/* Both sides compute the same figures from the client's and the server's measurement. */
void gdr_bw_combine(const struct gdr_conn *c, const struct gdr_result_wire *cl,
		    const struct gdr_result_wire *sv, struct gdr_result *r)
{
	r->bytes = cl->bytes;
	if (c->o->bidir) {
		r->iters = cl->iters + sv->iters;
		r->duration_s = cl->duration_s > sv->duration_s ? cl->duration_s : sv->duration_s;
		r->bw_avg_Bps = cl->bw_avg_Bps + sv->bw_avg_Bps;
		r->bw_peak_Bps = gdr_peak_report(cl->bw_peak_Bps) + gdr_peak_report(sv->bw_peak_Bps);
		r->msg_rate_pps = cl->msg_rate_pps + sv->msg_rate_pps;
	} else {
		r->iters = cl->iters;
		r->duration_s = cl->duration_s;
		r->bw_avg_Bps = cl->bw_avg_Bps;
		r->bw_peak_Bps = gdr_peak_report(cl->bw_peak_Bps);
		r->msg_rate_pps = cl->msg_rate_pps;
	}
	if (c->o->no_peak) /* -N: this side reports no peak, whatever the peer tracked */
		r->bw_peak_Bps = NAN;
}

/* One side's own figure for --report-both: "45.12 MiB/s sent", or why it has none. */
static void side_figure(const struct gdr_conn *c, const struct gdr_result_wire *w, bool server,
			char *buf, size_t n)
{
	const struct gdr_opts *o = c->o;
	const char *what = o->bidir		    ? "its own posts, both directions running"
			   : server		    ? "received"
			   : gdr_verb_fetches(o->verb) ? "fetched"
						      : "sent";

	if (w->iters == 0 || w->duration_s <= 0) {
		snprintf(buf, n, "no figure of its own (its NIC answers without it)");
		return;
	}
	snprintf(buf, n, "%.2f %s %s",
		 o->report_gbits ? gdr_to_gbps(w->bw_avg_Bps) : gdr_to_mibps(w->bw_avg_Bps),
		 o->report_gbits ? "Gb/s" : "MiB/s", what);
}

/* --report-both: this side's and the peer's own figures, on either side. */
static void report_both(const struct gdr_conn *c, const struct gdr_result_wire *mine,
			const struct gdr_result_wire *peer)
{
	char me[96], other[96];

	side_figure(c, mine, c->is_server, me, sizeof(me));
	side_figure(c, peer, !c->is_server, other, sizeof(other));
	gdr_info("%llu bytes: %s %s; %s %s", (unsigned long long)mine->bytes,
		 c->is_server ? "server" : "client", me, c->is_server ? "client" : "server", other);
}

/*
 * -c UD/UC send: what each direction delivered. A receiver tells its sender
 * what arrived (all of it, and within its measured time); the sender's count
 * came during the loop (SENT). Both sides then hold the same figures.
 */
static int delivery(struct gdr_conn *c, const struct gdr_bw_state *s, struct gdr_result *r)
{
	uint64_t got = 0, meas = 0, ns = 0;
	uint64_t sent[2] = {0}, all[2] = {0}, in[2] = {0}, t[2] = {0};
	int n = 0;

	if (s->rx_active) {
		uint64_t my_ns = gdr_span_ns(s->t_go, s->t_last_rx);

		if (gdr_sync_send(c, GDR_STEP_RECEIVED, s->rx_all) ||
		    gdr_sync_send(c, GDR_STEP_RX_MEAS, s->rx_done) ||
		    gdr_sync_send(c, GDR_STEP_RX_NS, my_ns))
			return -1;
		sent[n] = s->peer_sent, all[n] = s->rx_all, in[n] = s->rx_done, t[n++] = my_ns;
	}
	if (s->tx_active) {
		if (gdr_sync_expect(c, GDR_STEP_RECEIVED, &got) ||
		    gdr_sync_expect(c, GDR_STEP_RX_MEAS, &meas) ||
		    gdr_sync_expect(c, GDR_STEP_RX_NS, &ns))
			return -1;
		sent[n] = gdr_bw_posted(s), all[n] = got, in[n] = meas, t[n++] = ns;
	}
	r->has_delivery = true;
	for (int i = 0; i < n; i++) {
		r->sent_total += sent[i];
		r->lost += sent[i] > all[i] ? sent[i] - all[i] : 0;
		r->delivered += in[i];
		if (t[i])
			r->delivered_Bps += (double)in[i] * (double)s->size / ((double)t[i] * 1e-9);
	}
	return 0;
}

int gdr_bw_barrier(struct gdr_conn *c, uint64_t size)
{
	uint64_t v = 0;

	c->hb_last_ns = gdr_now_ns();
	if (c->is_server)
		return gdr_sync_send(c, GDR_STEP_READY, size) ||
		       gdr_sync_expect(c, GDR_STEP_GO, NULL);
	if (gdr_sync_expect(c, GDR_STEP_READY, &v))
		return -1;
	if (v != size) {
		gdr_err("protocol error: server prepared %llu bytes, client %llu",
			(unsigned long long)v, (unsigned long long)size);
		return -1;
	}
	return gdr_sync_send(c, GDR_STEP_GO, size);
}

int gdr_bw_size(struct gdr_conn *c, struct gdr_path *p, uint64_t size, struct gdr_staging *stg,
		struct gdr_stop_at *stop, struct gdr_result *res)
{
	const struct gdr_opts *o = c->o;
	struct gdr_bw_state s;
	struct gdr_result_wire mine, peer;
	uint32_t seed = (uint32_t)size;
	size_t used;
	double cpu = 0;
	bool recv_data = data_receiver(c);
	const struct gdr_verb_ops *vo = gdr_verb_ops_of(o->verb);
	bool fetches = vo->def->fetches, read_target = fetches && c->role.target;
	bool own_check = vo->target_check != NULL; /* the verb checks the target's own state */
	/* --validate: an iteration run's operations */
	struct gdr_atomic_run atomic_ops = {.p = p, .ops = o->iters * c->nqp};
	gdr_check_fn check = NULL;
	struct gdr_result del = {0};

	gdr_bw_init_state(c, p, &s, size, stg);
	s.stop_at = stop;
	used = s.per_qp < s.nslots ? (size_t)s.per_qp : s.nslots;
	if (vo->def->op == GDR_OP_SEND && !p->staged)
		used = 1; /* every receive lands at the start of the rx region */
	if (o->validate && own_check) {
		check = c->is_server ? vo->target_check : NULL;
		if (c->is_server && vo->target_zero && vo->target_zero(c, p))
			return -1;
	} else if (o->validate) {
		check = recv_data ? check_slots : NULL;
		if ((s.tx_active && !fetches) || read_target)
			if (fill_slots(c, p, 0, s.nslots, size, seed))
				return -1;
		if (recv_data && gdr_mem_fill_byte(gdr_test_mem(c, p), c->region_len,
						   used * size + gdr_rx_off(o), 0))
			return -1;
	}
	struct slots_check chk = {.p = p, .nslots = used, .size = size, .seed = seed};

	if (p->staged && gdr_staged_prepare(c, p, stg))
		return -1;
	if (gdr_bw_barrier(c, size))
		return -1;
	/* this process's CPU (copy threads included on the staged path) / wall time */
	uint64_t cpu0 = gdr_cpu_ns(), t0 = gdr_now_ns();

	if (p->staged) {
		if (gdr_staged_bw(c, p, stg, stop, &mine))
			return -1;
	} else {
		if (p->proxy && s.tx_active) { /* gpu-proxy: its target runs the verbs loop */
			if (gdr_bw_proxy(&s))
				return -1;
		} else if ((s.tx_active || s.rx_active) && gdr_bw_loop(&s)) {
			return -1;
		}
		gdr_bw_measure(&s, &mine);
	}
	cpu = gdr_cpu_pct(cpu0, gdr_cpu_ns(), t0, gdr_now_ns());

	if (s.unreliable && delivery(c, &s, &del))
		return -1;
	if (gdr_session_results(c, &mine, &peer, check, own_check ? (void *)&atomic_ops : &chk))
		return -1;
	if (c->is_server)
		gdr_bw_combine(c, &peer, &mine, res);
	else
		gdr_bw_combine(c, &mine, &peer, res);
	if (o->report_both)
		report_both(c, &mine, &peer);
	res->cpu_pct = cpu;
	res->gp_kernel_rate = s.gp_kernel_rate; /* the client's; 0 elsewhere */
	if (s.unreliable) {
		res->has_delivery = true;
		res->delivered = del.delivered;
		res->delivered_Bps = del.delivered_Bps;
		res->sent_total = del.sent_total;
		res->lost = del.lost;
	}
	return 0;
}
