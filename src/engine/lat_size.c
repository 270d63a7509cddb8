/* SPDX-License-Identifier: MIT */
/* One size of a latency test on both sides: prepare, barrier, ping-pong, statistics. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "atomic.h"
#include "clock.h"
#include "lat.h"
#include "log.h"
#include "session.h"
#include "staging.h"
#include "verb.h"

/* Write latency polls host memory; GPU memory on either side needs the immediate. */
bool gdr_lat_polls_byte(const struct gdr_conn *c, const struct gdr_path *p)
{
	return c->role.def->op == GDR_OP_WRITE && !c->o->use_imm && !p->staged && !p->proxy &&
	       !gdr_mem_on_device(&c->data) && !strcmp(p->remote.mem_kind, "host");
}

/*
 * Write latency without polling: the immediate's receive completions (not
 * gpu-proxy's, whose kernels watch the last byte: plain writes).
 */
bool gdr_lat_needs_imm(const struct gdr_conn *c, const struct gdr_path *p)
{
	return c->role.def->lat == GDR_LAT_WRITE_PINGPONG && !gdr_lat_polls_byte(c, p) && !p->proxy;
}

/* Does this side receive payload it can validate? */
static bool receives(const struct gdr_conn *c)
{
	return c->role.data_in;
}

static int check(struct gdr_conn *c, void *arg, char *note, size_t n)
{
	const struct gdr_lat *l = arg;
	/* last byte: sequence marker */
	size_t len = l->poll_byte || l->ping ? l->size - 1 : l->size;
	size_t bad = 0, at = c->region_len + gdr_rx_off(c->o);
	int r =
	    len ? gdr_mem_check_pattern(gdr_test_mem(c, l->p), at, 0, len, (uint32_t)l->size, &bad)
		: 0;

	if (!r)
		return 0;
	if (r == -2) {
		struct gdr_mem *m = gdr_test_mem(c, l->p);

		snprintf(note, n, "data not checked: %s",
			 m->fail[0] ? m->fail : "its memory could not be read back");
		return -1;
	}
	snprintf(note, n, "validation failed: byte %zu of a %llu-byte message differs from "
		 "what was sent", bad - at, (unsigned long long)l->size);
	return -1;
}

static int prepare(struct gdr_conn *c, struct gdr_lat *l)
{
	const struct gdr_verb_ops *vo = gdr_verb_ops_of(c->o->verb);

	if (c->o->validate) {
		if (gdr_mem_fill_pattern(gdr_test_mem(c, l->p), 0, l->size, (uint32_t)l->size) ||
		    gdr_mem_fill_byte(gdr_test_mem(c, l->p), c->region_len,
				      l->size + gdr_rx_off(c->o), 0))
			return -1;
		if (vo->target_zero && c->is_server && vo->target_zero(c, l->p))
			return -1;
	} else if (l->poll_byte) {
		gdr_rx(c, l->p)[l->size - 1] = 0;
	} else if (l->ping &&
		   gdr_mem_fill_byte(gdr_test_mem(c, l->p),
				     c->region_len + gdr_rx_off(c->o) + l->size - 1, 1, 0)) {
		return -1; /* the kernel's marker byte, in GPU memory */
	}
	if (c->is_server)
		return 0;
	if (l->duration_ns) {
		l->hist = gdr_hist_new();
		if (!l->hist) {
			gdr_err("out of memory for the latency histogram");
			return -1;
		}
	} else {
		l->cap = l->iters;
		l->samples = malloc(l->cap * sizeof(*l->samples));
		if (!l->samples) {
			gdr_err("-n %llu: cannot hold that many latency samples in memory; use -D",
				(unsigned long long)l->iters);
			return -1;
		}
		/* prefault: no page fault inside the timed loop */
		memset(l->samples, 0, l->cap * sizeof(*l->samples));
	}
	return 0;
}

static void write_samples(FILE *fp, const struct gdr_lat *l)
{
	if (!fp || !l->samples)
		return;
	for (uint64_t i = 0; i < l->nsamples; i++)
		fprintf(fp, "%llu,%llu,%.3f\n", (unsigned long long)l->size, (unsigned long long)i,
			l->samples[i]);
	fflush(fp);
}

static int exchange(struct gdr_conn *c, struct gdr_lat *l, uint64_t dur_ns)
{
	struct gdr_result_wire mine = {
		.bytes = l->size,
		.iters = l->nsamples,
		.duration_s = (double)dur_ns * 1e-9,
	}, peer;
	/* atomic: the operations of an iteration run */
	struct gdr_atomic_run ops = {.p = l->p, .ops = c->o->warmup + c->o->iters};
	const struct gdr_verb_ops *vo = gdr_verb_ops_of(c->o->verb);

	if (vo->target_check) {
		if (gdr_session_results(c, &mine, &peer,
					c->o->validate && c->is_server ? vo->target_check : NULL, &ops))
			return -1;
	} else if (gdr_session_results(c, &mine, &peer,
				       c->o->validate && receives(c) ? check : NULL, l)) {
		return -1;
	}
	if (c->is_server)
		l->nsamples = peer.iters;
	return 0;
}

int gdr_lat_size(struct gdr_conn *c, struct gdr_path *p, uint64_t size, struct gdr_staging *stg,
		 FILE *samples, struct gdr_stop_at *stop, struct gdr_result *res)
{
	const struct gdr_opts *o = c->o;
	struct gdr_lat l = {
		.c = c,
		.p = p,
		.stop_at = stop,
		.size = size,
		.iters = o->iters,
		.warmup = o->warmup,
		.duration_ns = (uint64_t)(o->duration * 1e9),
		.timeout_ns = (uint64_t)(o->timeout * 1e9),
		.hb_after_ns = (uint64_t)(o->timeout * 1e9) / 2,
		.divisor = c->role.def->fetches ? 1.0 : 2.0,
		.poll_byte = gdr_lat_polls_byte(c, p),
		.staged = p->staged,
		.ping = p->proxy && !c->role.def->fetches,
	};
	uint64_t t0, t1, cpu0;
	int ret = -1;

	if (l.staged)
		l.cp = &stg->cp;
	if (prepare(c, &l))
		goto out;
	if (l.staged && c->is_server && c->role.def->fetches && gdr_staged_stage_tx(c, l.cp, size))
		goto out;
	c->hb_last_ns = gdr_now_ns();
	if (c->is_server ? gdr_sync_send(c, GDR_STEP_READY, size) ||
				   gdr_sync_expect(c, GDR_STEP_GO, NULL)
			 : gdr_sync_expect(c, GDR_STEP_READY, NULL) ||
				   gdr_sync_send(c, GDR_STEP_GO, size))
		goto out;
	cpu0 = gdr_cpu_ns();
	t0 = gdr_now_ns();
	if (p->proxy) { /* gpu-proxy: read's server is passive */
		if ((l.ping || !c->is_server) && gdr_lat_proxy(&l))
			goto out;
	} else if (c->is_server ? (!c->role.def->fetches && gdr_lat_server(&l))
				: gdr_lat_client(&l)) {
		goto out;
	}
	t1 = gdr_now_ns();
	res->cpu_pct = gdr_cpu_pct(cpu0, gdr_cpu_ns(), t0, t1);
	if (exchange(c, &l, t1 - t0))
		goto out;
	res->bytes = size;
	res->iters = l.nsamples;
	res->duration_s = (double)(t1 - t0) * 1e-9;
	res->lat_kind = l.divisor == 2.0 ? "half round trip" : "round trip";
	if (!c->is_server && l.nsamples) {
		res->has_lat = true;
		if (l.samples) {
			write_samples(samples, &l);
			ret = gdr_stats_compute(l.samples, l.nsamples, o->pct, o->npct, &res->lat);
		} else {
			ret = gdr_hist_compute(l.hist, o->pct, o->npct, &res->lat);
		}
		if (ret)
			gdr_err("no latency samples at %llu bytes", (unsigned long long)size);
	} else {
		ret = 0;
	}
out:
	free(l.samples);
	if (l.hist)
		gdr_hist_free(l.hist);
	return ret;
}
