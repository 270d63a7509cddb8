/* SPDX-License-Identifier: MIT */
/*
 * One side of one cluster pair: the single-pair driver (gdr_run) over the
 * MPI out-of-band channel, its rows caught by a sink reporter. Whatever
 * happens becomes rows; nothing here ends the process.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "clock.h"
#include "cluster_mpi.h"
#include "log.h"
#include "oob_mpi.h"
#include "run.h"

struct sink {
	struct gdr_crow *rows;
	size_t n, cap;
	const struct gdr_crow *tmpl;
	char *gpu_used;
	size_t gpu_len;
};

/* Note the GPU this side's memory is on (cuda:auto, rocm:auto become the one picked). */
static int sink_begin(void *ctx, const struct gdr_run_info *ri)
{
	struct sink *s = ctx;

	if (s->gpu_used && ri->mem_kind && strcmp(ri->mem_kind, "host") && ri->gpu_pci[0] &&
	    strcmp(ri->gpu_pci, "?"))
		snprintf(s->gpu_used, s->gpu_len, "%s:%s", ri->mem_kind, ri->gpu_pci);
	return 0;
}

static double p99(const struct gdr_lat_stats *l)
{
	for (int i = 0; i < l->npct; i++)
		if (l->pct_q[i] == 99.0)
			return l->pct_v[i];
	return l->npct ? l->pct_v[0] : 0;
}

static int sink_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct sink *s = ctx;
	struct gdr_crow *w;

	if (s->n >= s->cap)
		return 0;
	w = &s->rows[s->n++];
	*w = *s->tmpl;
	w->status = GDR_CS_OK;
	snprintf(w->path, sizeof(w->path), "%s", r->path);
	w->bytes = r->bytes;
	w->iters = r->iters;
	w->seconds = r->duration_s;
	w->bw_gbps = r->has_lat ? 0 : r->bw_avg_Bps * 8 / 1e9;
	w->lat_med_us = r->has_lat ? r->lat.median : 0;
	w->lat_p99_us = r->has_lat ? p99(&r->lat) : 0;
	if (r->verdict == GDR_VERDICT_FAIL) { /* --expect-bw=auto: below PCT% of the port */
		w->status = GDR_CS_SLOW;
		snprintf(w->err, sizeof(w->err), "%s", r->why);
	}
	(void)ri;
	return 0;
}

static int sink_end(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx;
	(void)ri;
	return 0;
}

static void sink_destroy(void *ctx)
{
	(void)ctx;
}

static const struct gdr_reporter_ops sink_ops = {
    .name = "cluster",
    .begin = sink_begin,
    .row = sink_row,
    .end = sink_end,
    .destroy = sink_destroy,
};

size_t gdr_cluster_pair(const struct gdr_cpair *p, struct gdr_crow *rows, size_t cap)
{
	bool server = p->me == p->a;
	int peer = server ? p->b : p->a;
	struct gdr_crow tmpl = {
	    .round = p->round, .a = p->a, .b = p->b, .rail = p->rail, .from_server = server};
	/* the client's rows carry the measurement; one slot is kept for a failure */
	struct sink s = {rows, 0, server || !cap ? 0 : cap - 1, &tmpl, p->gpu_used, p->gpu_len};
	struct gdr_reporter rep = {&sink_ops, &s};
	struct gdr_oob oob;
	struct gdr_run_hooks h = {.oob = &oob, .is_server = server, .sink = &rep};
	struct gdr_opts o = *p->o;
	char name[160], why[256];
	uint64_t t0 = gdr_now_ns();
	struct gdr_cwatch *w = NULL;
	size_t k;

	snprintf(name, sizeof(name), "rank %d (%s)", peer, p->pl[peer].host);
	if (o.rdma_cm) { /* server rank N listens on its port's address, port -p + N */
		const char *listen, *dst, *src;

		gdr_cm_addrs(p->pl, p->a, p->me, &listen, &dst, &src);
		o.port = (uint16_t)(p->o->port + p->a);
		o.bind_addr = (char *)listen;
		o.server = (char *)dst;
		o.source_ip = (char *)src; /* the client leaves through its own rail */
	}
	if (p->cnt_text && p->cnt_len) { /* -W: around the whole pair, not each size */
		p->cnt_text[0] = '\0';
		if (o.dev_name)
			w = gdr_cwatch_start(o.dev_name, o.ib_port, why, sizeof(why));
	}
	o.report_counters = false;
	gdr_clear_error();
	if (gdr_oob_mpi_attach(&oob, p->comm, peer, p->round + 1, name,
			       (int)(p->o->timeout * 1000)) == 0 &&
	    gdr_run(&o, p->t, &h) == 0) {
		gdr_cwatch_end(w, p->cnt_text, p->cnt_len);
		return s.n;
	}
	gdr_cwatch_end(w, p->cnt_text, p->cnt_len);
	k = s.n;
	rows[k] = tmpl;
	snprintf(rows[k].err, sizeof(rows[k].err), "%s%s", server ? "server side: " : "",
		 gdr_last_error()[0] ? gdr_last_error() : "failed (no error text)");
	rows[k].status = strstr(rows[k].err, "timed out") ? GDR_CS_TIMEOUT : GDR_CS_FAIL;
	snprintf(rows[k].path, sizeof(rows[k].path), "-");
	rows[k].bytes =
	    p->nsizes ? p->sizes[(k / p->npaths) < p->nsizes ? k / p->npaths : p->nsizes - 1] : 0;
	rows[k].seconds = (double)(gdr_now_ns() - t0) / 1e9;
	/* tell the peer at once, or it waits out --timeout (unread if it already gave up) */
	if (gdr_oob_mpi_attach(&oob, p->comm, peer, p->round + 1, name, 1000) == 0) {
		gdr_oob_reject(&oob, "rank %d failed: %s", p->me, rows[k].err);
		gdr_oob_close(&oob);
	}
	return k + 1;
}
