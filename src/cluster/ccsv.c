/* SPDX-License-Identifier: MIT */
/*
 * The cluster run's long-format CSV, and the same rows as JSON Lines (one
 * object a line): one row per pair, size and path (or per failure/skip).
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "cluster_int.h"
#include "fabric_sched.h"
#include "log.h"
#include "report_priv.h"

void gdr_ccsv_header(FILE *f)
{
	fputs("run_id,round,pattern,test,bytes,path,host_a,rail_a,nic_a,gpu_a,host_b,rail_b,"
	      "nic_b,gpu_b,status,bw_gbps,lat_median_us,lat_p99_us,iterations,seconds,error,"
	      "tool_version,started,slow_rule,command,counters,blame,route\n",
	      f);
}

/* One row in progress: CSV cells, or the members of a JSON object (JSON Lines). */
struct out {
	struct gdr_sbuf *b;
	bool json;
	int n;	     /* cells so far */
	char *route; /* room for a route cell (2 * GDR_FAB_ROUTE_TEXT); NULL: none */
};

static void key(struct out *o, const char *k)
{
	if (o->json) {
		gdr_sbuf_puts(o->b, o->n ? ",\"" : "{\"");
		gdr_sbuf_puts(o->b, k);
		gdr_sbuf_puts(o->b, "\":");
	} else if (o->n) {
		gdr_sbuf_putc(o->b, ',');
	}
	o->n++;
}

static void str(struct out *o, const char *k, const char *s)
{
	key(o, k);
	if (!s)
		gdr_sbuf_puts(o->b, o->json ? "null" : "");
	else if (o->json)
		gdr_json_str(o->b, s);
	else
		gdr_csv_put_field(o->b, s);
}

/* A number, or an empty cell (null) when it does not apply. */
static void num(struct out *o, const char *k, double v)
{
	key(o, k);
	if (v > 0)
		gdr_sbuf_printf(o->b, "%.3f", v);
	else if (o->json)
		gdr_sbuf_puts(o->b, "null");
}

/* A count, or an empty cell (null) when it does not apply; with zero: 0 is a value. */
static void count(struct out *o, const char *k, int64_t v, bool zero)
{
	key(o, k);
	if (v > 0 || (zero && v == 0))
		gdr_sbuf_printf(o->b, "%lld", (long long)v);
	else if (o->json)
		gdr_sbuf_puts(o->b, "null");
}

static void end(struct out *o, const struct gdr_place *p, bool a)
{
	str(o, a ? "host_a" : "host_b", p ? p->host : NULL);
	count(o, a ? "rail_a" : "rail_b", p ? p->rail : -1, true);
	str(o, a ? "nic_a" : "nic_b", p ? p->nic : NULL);
	str(o, a ? "gpu_a" : "gpu_b", p ? p->gpu : NULL);
}

static void row(struct out *o, const struct gdr_ccsv *cx, const struct gdr_crow *r, bool first)
{
	o->n = 0;
	str(o, "run_id", cx->run_id);
	count(o, "round", r->round, true);
	str(o, "pattern", r->retest ? "topology-retest" : cx->pattern);
	str(o, "test", cx->test);
	count(o, "bytes", (int64_t)r->bytes, false);
	str(o, "path", r->path);
	end(o, &cx->pl[r->a], true);
	end(o, r->b >= 0 ? &cx->pl[r->b] : NULL, false);
	str(o, "status", gdr_cstatus_name(r->status));
	num(o, "bw_gbps", r->bw_gbps);
	num(o, "lat_median_us", r->lat_med_us);
	num(o, "lat_p99_us", r->lat_p99_us);
	count(o, "iterations", (int64_t)r->iters, false);
	num(o, "seconds", r->seconds);
	str(o, "error", r->err);
	str(o, "tool_version", cx->version);
	str(o, "started", cx->started);
	str(o, "slow_rule", cx->slow_rule);
	str(o, "command", first ? cx->command : NULL);
	str(o, "counters", gdr_ctexts_get(cx->cnt, r->cnt));
	str(o, "blame", gdr_ctexts_get(cx->blame, r->blame));
	str(o, "route",
	    cx->fab && o->route && r->b >= 0
		? gdr_fab_job_route(cx->fab, (enum gdr_fab_flow)cx->flow, r->a, r->b, o->route,
				    2 * GDR_FAB_ROUTE_TEXT)
		: NULL);
	gdr_sbuf_puts(o->b, o->json ? "}\n" : "\n");
}

static void rows(FILE *f, bool json, const struct gdr_ccsv *cx, const struct gdr_crow *r, size_t n,
		 bool first)
{
	struct gdr_sbuf b = {0};
	struct out o = {&b, json, 0, NULL};

	if (cx->fab) {
		o.route = malloc(2 * GDR_FAB_ROUTE_TEXT);
		if (!o.route)
			gdr_err("--topology: out of memory for the route cells: left empty");
	}
	for (size_t i = 0; i < n; i++) {
		b.len = 0;
		row(&o, cx, &r[i], first && !i);
		if (!b.oom)
			fwrite(b.p, 1, b.len, f);
	}
	free(o.route);
	gdr_sbuf_free(&b);
}

void gdr_ccsv_rows(FILE *f, const struct gdr_ccsv *cx, const struct gdr_crow *r, size_t n,
		   bool first)
{
	rows(f, false, cx, r, n, first);
}

void gdr_cjson_rows(FILE *f, const struct gdr_ccsv *cx, const struct gdr_crow *r, size_t n,
		    bool first)
{
	rows(f, true, cx, r, n, first);
}

void gdr_slow_rule(char *buf, size_t len, double slow_pct, double expect_gbps, double expect_us)
{
	int k = snprintf(buf, len, "slow-pct=%g", slow_pct);

	if (expect_gbps > 0 && k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " expect-bw=%g", expect_gbps);
	if (expect_us > 0 && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, " expect-lat=%g", expect_us);
}

void gdr_shell_line(char *buf, size_t len, int argc, char *const *argv)
{
	struct gdr_sbuf b = {0};

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		bool plain = *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					     "0123456789_./:=,+-@%") == strlen(w);

		if (i)
			gdr_sbuf_putc(&b, ' ');
		if (plain) {
			gdr_sbuf_puts(&b, w);
			continue;
		}
		gdr_sbuf_putc(&b, '\'');
		for (; *w; w++)
			gdr_sbuf_puts(&b, *w == '\'' ? "'\\''" : (char[]){*w, '\0'});
		gdr_sbuf_putc(&b, '\'');
	}
	snprintf(buf, len, "%s", b.p && !b.oom ? b.p : "");
	gdr_sbuf_free(&b);
}

int gdr_ccsv_rewrite(const char *path, bool json, const struct gdr_ccsv *cx,
		     const struct gdr_crow *r, size_t n)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		gdr_err("cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	if (!json)
		gdr_ccsv_header(f);
	rows(f, json, cx, r, n, true);
	if (fclose(f) || rename(tmp, path)) {
		gdr_err("cannot write %s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}
