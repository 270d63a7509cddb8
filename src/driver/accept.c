/* SPDX-License-Identifier: MIT */
/* -w, -y, --expect-bw, --kv-floor and -W around each size: see accept.h. */
#include "config.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "accept.h"
#include "ceil_row.h"
#include "clock.h"
#include "counters.h"
#include "log.h"
#include "verdict.h"

struct gdr_accept_state {
	bool verdict;
	bool counters; /* -W and the first read worked */
	double port_Bps;
	double payload_frac; /* of port_Bps, at the active MTU (gdr_wire_payload) */
	char dev[96];	     /* "rxe0 port 1" */
	char name[64];
	char gpu[32]; /* the GPU's PCI address with GPU memory, else "" */
	int port;
	struct gdr_cnt_snap before, after;
	uint64_t before_ns; /* when before was read */
	struct gdr_cnt_delta d[GDR_CNT_MAX];
};

static double ceiling(const struct gdr_conn *c)
{
	return c->link.rate_gbps * 1e9 / 8 * (c->o->bidir ? 2 : 1); /* the transport's word */
}

/*
 * The path --compare judges: this side's memory, neither staged nor gpu-proxy
 * (the others are references).
 */
static bool under_test(const struct gdr_conn *c, const struct gdr_path *p)
{
	return !c->o->compare || (!p->staged && !p->proxy && p->mem == &c->data);
}

/* The wire this side's packets cross, as its transport tells it: active MTU, overhead. */
static struct gdr_wire wire(const struct gdr_conn *c)
{
	return (struct gdr_wire){
	    .mtu = c->link.mtu, .overhead = c->link.wire_overhead, .parts = c->link.wire};
}

/* The header's verdict line: the path judged, each limit and auto's arithmetic. */
static void describe(const struct gdr_accept_state *s, const struct gdr_conn *c, char *buf,
		     size_t len)
{
	const struct gdr_opts *o = c->o;
	const char *judged = NULL;
	char arith[200];
	struct gdr_wire w = wire(c);
	size_t k;

	for (uint32_t i = 0; i < c->npaths; i++)
		if (under_test(c, &c->path[i]))
			judged = c->path[i].name;
	k = 0;
	if (o->kv_floor > 0) /* every KV row, each path against its own contiguous reference */
		k = (size_t)snprintf(buf, len,
				     "--kv-floor %g: each KV row's kv_efficiency, on every path",
				     o->kv_floor);
	if (k >= len || !gdr_verdict_bw_wanted(o))
		return;
	k += (size_t)snprintf(
	    buf + k, len - k, "%seach size of the %s path%s", k ? "; " : "", judged ? judged : "-",
	    o->compare ? " (--compare's other rows are references, not judged)" : "");
	if (k < len && o->limit_bw > 0)
		k += (size_t)snprintf(buf + k, len - k, "; -w %g %s", o->limit_bw,
				      o->report_gbits ? "Gb/s" : "MiB/s");
	if (k < len && o->limit_msgrate > 0)
		k += (size_t)snprintf(buf + k, len - k, "; -y %g Mpps", o->limit_msgrate);
	if (k < len && o->expect_bw > 0 && !o->cluster)
		k += (size_t)snprintf(buf + k, len - k, "; --expect-bw %g Gb/s", o->expect_bw);
	if (k >= len || o->expect_pct <= 0)
		return;
	gdr_wire_payload(&w, arith, sizeof(arith));
	if (s->port_Bps <= 0)
		snprintf(buf + k, len - k, "; --expect-bw=auto: the port reports no rate");
	else
		snprintf(buf + k, len - k,
			 "; --expect-bw=auto: %g%% of %.2f Gb/s = %.2f Gb/s (port %g Gb/s%s%s)",
			 o->expect_pct, gdr_to_gbps(s->port_Bps * s->payload_frac),
			 gdr_to_gbps(s->port_Bps * s->payload_frac * o->expect_pct / 100),
			 gdr_to_gbps(s->port_Bps), arith[0] ? "; " : "", arith);
}

/* The NIC port's counters and AER, and the GPU's AER with GPU memory: 0, or -1 (none readable). */
static int read_all(struct gdr_accept_state *s, struct gdr_cnt_snap *snap)
{
	int rc = gdr_counters_read(snap, s->name, s->port);

	if (s->gpu[0])
		gdr_counters_read_gpu(snap, s->gpu);
	return rc;
}

int gdr_accept_init(struct gdr_accept *a, const struct gdr_conn *c, struct gdr_run_info *ri)
{
	struct gdr_wire w = wire(c);
	struct gdr_accept_state *s;
	bool verdict = !c->is_server && gdr_verdict_wanted(c->o);

	*a = (struct gdr_accept){0};
	if (!verdict && !c->o->report_counters && !c->o->prom_file)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s) {
		gdr_err("out of memory");
		return -1;
	}
	a->s = s;
	s->verdict = verdict;
	s->port_Bps = c->o->kind == GDR_KIND_BW ? ceiling(c) : 0;
	s->payload_frac = gdr_wire_payload(&w, NULL, 0);
	if (verdict)
		describe(s, c, ri->verdict, sizeof(ri->verdict));
	snprintf(s->name, sizeof(s->name), "%s", c->dev_name);
	s->port = c->port;
	snprintf(s->dev, sizeof(s->dev), "%s port %d", c->dev_name, c->port);
	snprintf(s->gpu, sizeof(s->gpu), "%s", c->data.gpu_pci);
	for (char *p = s->gpu; *p; p++) /* sysfs names PCI functions in lower case */
		*p = (char)tolower((unsigned char)*p);
	if (!c->o->report_counters)
		return 0;
	if (!c->dev_name[0]) {
		gdr_warn("-W: no RDMA device name on this side; going on without counters");
		return 0;
	}
	s->counters = read_all(s, &s->before) == 0;
	if (s->before.unreadable[0])
		gdr_warn("-W: %s: cannot read %s; going on without %s", s->dev,
			 s->before.unreadable, s->counters ? "those" : "counters");
	return 0;
}

int gdr_accept_check_list(const struct gdr_conn *c)
{
	struct gdr_cnt_snap *s;
	char miss[256];
	int n = 0;

	if (!c->o->counters_list || !c->dev_name[0])
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s) {
		gdr_err("out of memory");
		return -1;
	}
	gdr_counters_read(s, c->dev_name, c->port);
	n = gdr_counters_missing(s, c->o->counters_list, miss, sizeof(miss));
	if (n)
		gdr_err("-W %s: %s port %d has no %s", c->o->counters_list, c->dev_name, c->port,
			miss);
	free(s);
	return n ? -1 : 0;
}

void gdr_accept_before(struct gdr_accept *a)
{
	if (a->s && a->s->counters) {
		a->s->before_ns = gdr_now_ns();
		read_all(a->s, &a->s->before);
	}
}

double gdr_accept_row_events(uint64_t bytes, uint64_t iters, double duration_s, uint32_t mtu,
			     double secs)
{
	double per = mtu && bytes > mtu ? ceil((double)bytes / mtu) : 1;

	if (!(duration_s > 0) || !(secs > 0))
		return 0;
	return 2 * per * (double)iters / duration_s * secs;
}

void gdr_accept_after(struct gdr_accept *a, const struct gdr_conn *c, const struct gdr_path *p,
		      struct gdr_result *r)
{
	struct gdr_accept_state *s = a->s;

	if (!s)
		return;
	if (s->counters) {
		double secs = (double)(gdr_now_ns() - s->before_ns) / 1e9;
		/* the smallest MTU when unknown: the most packets */
		uint32_t mtu = c->link.mtu ? c->link.mtu : 256;

		read_all(s, &s->after);

		r->ncnt = gdr_counters_delta_list(&s->before, &s->after, c->o->counters_list, s->d,
						  GDR_CNT_MAX);
		gdr_counters_wrap_risk(
		    s->d, r->ncnt,
		    gdr_accept_row_events(r->bytes, r->iters, r->duration_s, mtu, secs));
		r->cnt = s->d;
		r->cnt_dev = s->dev;
	}
	if (r->has_lat)
		return;
	r->port_Bps = s->port_Bps;
	r->payload_frac = s->payload_frac;
	r->reference = !under_test(c, p);
	if (!s->verdict)
		return;
	gdr_verdict_judge(c->o, r);
	if (r->verdict == GDR_VERDICT_FAIL) {
		a->failed++;
		if (!c->o->cluster) /* cluster mode: the pair's row is SLOW, with this reason */
			gdr_err("FAIL: %llu bytes%s%s: %s", (unsigned long long)r->bytes,
				r->path ? ", " : "", r->path ? r->path : "", r->why);
	}
}

int gdr_accept_end(struct gdr_accept *a)
{
	int failed = a->failed;

	free(a->s);
	a->s = NULL;
	return failed;
}
