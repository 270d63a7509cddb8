/* SPDX-License-Identifier: MIT */
/*
 * The rails' rows through the reporters a pair uses: each rail's rows with
 * its own run info (device, port), a failed row where a rail did not complete
 * a size, and per size an `all` row: every rail's bytes over the union of
 * their intervals [earliest start, latest end] (a rail's starts when the
 * barrier released it), its verdict the rails'.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "exitcode.h"
#include "path_setup.h"
#include "rails_int.h"
#include "report.h"
#include "session.h"

/* Facts every rail shares, for a rail that said nothing (it failed before its header). */
static void base_info(const struct gdr_opts *o, struct gdr_run_info *ri, char *test, size_t len)
{
	time_t now = time(NULL);

	*ri = (struct gdr_run_info){.gid_index = -1};
	snprintf(test, len, "%s_%s", gdr_verb_name(o->verb), gdr_kind_name(o->kind));
	strftime(ri->timestamp, sizeof(ri->timestamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	ri->test = test;
	ri->verb = o->verb;
	ri->kind = o->kind;
	ri->num_qps = o->num_qps;
	snprintf(ri->xport, sizeof(ri->xport), "%s",
		 o->transport ? o->transport : GDR_XPORT_DEFAULT);
	snprintf(ri->provider, sizeof(ri->provider), "%s", o->provider ? o->provider : "");
	ri->tx_depth = o->tx_depth;
	ri->bidir = o->bidir;
	ri->report_gbits = o->report_gbits;
	/* the paths' columns, as a rail's own header has them */
	ri->staged_path = gdr_paths_plan(o, false).staged;
	ri->ref_path = gdr_paths_plan(o, false).ref;
	gdr_hostname(ri->local_host, sizeof(ri->local_host));
}

/* r's run info with this process's pointers (what crossed the pipe has none). */
static void fix_info(const struct gdr_opts *o, struct rail *r, const struct gdr_run_info *base)
{
	if (!r->has_info) {
		r->ri = *base;
		snprintf(r->ri.rdma_dev, sizeof(r->ri.rdma_dev), "%s", r->id.dev);
		r->ri.ib_port = r->id.port;
		snprintf(r->ri.remote_host, sizeof(r->ri.remote_host), "%s",
			 o->server ? o->server : "127.0.0.1");
	} else {
		r->ri.test = r->test;
		r->ri.mem_kind = r->mem_kind;
	}
	r->ri.tool_version = PACKAGE_VERSION;
	r->ri.role = "client";
	r->ri.opts = o;
}

/* The most rows any rail wrote, and the rail that wrote them (its sizes and paths). */
static int most_rows(const struct rail *r, int n, int *who)
{
	int most = 0;

	*who = -1;
	for (int i = 0; i < n; i++)
		if (r[i].nrow > most) {
			most = r[i].nrow;
			*who = i;
		}
	return most;
}

/* Row k of a rail that did not write it: the size and path the others ran, FAIL and why. */
static void failed_row(const struct rail *r, const struct gdr_result *like, struct gdr_result *f)
{
	*f = (struct gdr_result){.path = like ? like->path : "-",
				 .bytes = like ? like->bytes : 0,
				 .has_lat = like && like->has_lat,
				 .verdict = GDR_VERDICT_FAIL};
	snprintf(f->why, sizeof(f->why), "rail %s failed: %s", r->name,
		 r->error[0]	 ? r->error
		 : r->status > 0 ? "its client exited with an error (see above)"
				 : "its client ended before this size");
}

/* Row k of the `all` row from the rails that have it; verdict from all of them. Rails without it.
 */
int gdr_rail_all_row(const struct rail *r, int n, int k, const struct gdr_result *like,
		     struct gdr_result *a)
{
	uint64_t t0 = 0, t1 = 0;
	double bytes = 0, msgs = 0;
	int missing = 0, failed = 0, judged = 0;

	*a =
	    (struct gdr_result){.path = like->path, .bytes = like->bytes, .has_lat = like->has_lat};
	for (int i = 0; i < n; i++) {
		const struct rail_row *w = k < r[i].nrow ? &r[i].rows[k] : NULL;
		uint64_t start, end;

		if (!w || !(w->r.iters > 0 && w->r.duration_s > 0)) {
			missing++; /* none, or one that timed nothing: no interval, no bytes */
			continue;
		}
		start = w->start_ns;
		end = start + (uint64_t)(w->r.duration_s * 1e9);
		t0 = !t0 || start < t0 ? start : t0;
		t1 = end > t1 ? end : t1;
		bytes += (double)w->r.bytes * (double)w->r.iters;
		msgs += (double)w->r.iters;
		a->iters += w->r.iters;
		judged += w->r.verdict != GDR_VERDICT_NONE;
		failed += w->r.verdict == GDR_VERDICT_FAIL;
	}
	a->duration_s = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
	a->bw_avg_Bps = a->duration_s > 0 ? bytes / a->duration_s : 0;
	a->bw_peak_Bps = a->bw_avg_Bps;
	a->msg_rate_pps = a->duration_s > 0 ? msgs / a->duration_s : 0;
	if (missing || failed) {
		a->verdict = GDR_VERDICT_FAIL;
		snprintf(a->why, sizeof(a->why), "%d of %d rails %s", missing + failed, n,
			 failed && missing ? "failed or below their floor"
			 : failed	   ? "below their floor"
					   : "failed");
	} else if (judged) {
		a->verdict = GDR_VERDICT_PASS;
	}
	return missing;
}

/* What crossed the pipe points nowhere here: the row's strings and counters, in place. */
static void fix_rows(struct rail *r)
{
	for (int k = 0; k < r->nrow; k++) {
		struct rail_row *w = &r->rows[k];

		w->r.path = w->path;
		w->r.lat_kind = w->lat_kind;
		w->r.cnt_dev = w->cnt_dev;
		w->r.cnt = w->r.ncnt >= 0 ? r->cnts[k] : NULL;
		if (w->r.ncnt < 0)
			w->r.ncnt = 0;
	}
}

void gdr_rail_fix(const struct gdr_opts *o, struct rail *r)
{
	static char test[32];
	struct gdr_run_info base;

	base_info(o, &base, test, sizeof(test));
	fix_info(o, r, &base);
	fix_rows(r);
}

int gdr_rails_status(const struct rail *r, int n, bool start_failed, const char *stopped)
{
	/* the worse of two: pass < below a floor < usage < could not run */
	static const int rank[] = {[GDR_EXIT_OK] = 0, [GDR_EXIT_FAIL] = 1, [GDR_EXIT_USAGE] = 2,
				   [GDR_EXIT_ERROR] = 3};
	int st = GDR_EXIT_OK;

	if (stopped[0])
		return GDR_EXIT_INTERRUPTED;
	if (start_failed)
		return GDR_EXIT_ERROR;
	for (int i = 0; i < n; i++) {
		int s = r[i].status;

		if (s != GDR_EXIT_OK && s != GDR_EXIT_FAIL && s != GDR_EXIT_USAGE)
			s = GDR_EXIT_ERROR; /* an error, a signal, an interrupted rail, never reaped */
		if (rank[s] > rank[st])
			st = s;
	}
	return st;
}

/* The outcome's reason: the stop, else the first rail that said why it failed. */
static void outcome_why(const struct rail *r, int n, const char *stopped, char *why, size_t len)
{
	why[0] = '\0';
	if (stopped[0]) {
		snprintf(why, len, "%s", stopped);
		return;
	}
	for (int i = 0; i < n; i++)
		if (r[i].status != GDR_EXIT_OK && r[i].error[0]) {
			snprintf(why, len, "rail %s: %s", r[i].name, r[i].error);
			return;
		}
}

int gdr_rails_report(const struct gdr_opts *o, struct gdr_reports *rs, struct rail *r, int n,
		     const char *stopped, int *status)
{
	struct gdr_run_outcome e;
	char why[400];
	struct gdr_run_info base, head, all;
	char test[32];
	int who, most = most_rows(r, n, &who), rows = most ? most : 1, rc = 0;

	base_info(o, &base, test, sizeof(test));
	for (int i = 0; i < n; i++) {
		fix_info(o, &r[i], &base);
		fix_rows(&r[i]);
	}
	head = who >= 0 ? r[who].ri : r[0].ri;
	head.rdma_dev[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t k = strlen(head.rdma_dev);

		snprintf(head.rdma_dev + k, sizeof(head.rdma_dev) - k, "%s%s", i ? "," : "",
			 r[i].name);
	}
	head.ib_port = 0;
	snprintf(head.stopped, sizeof(head.stopped), "%s", stopped);
	all = head;
	snprintf(all.rdma_dev, sizeof(all.rdma_dev), "all");
	rc |= gdr_reports_begin(rs, &head);
	for (int k = 0; k < rows; k++) {
		const struct gdr_result *like = who >= 0 ? &r[who].rows[k].r : NULL;
		struct gdr_result a;

		for (int i = 0; i < n; i++) {
			struct gdr_result f;

			if (k < r[i].nrow) {
				rc |= gdr_reports_row(rs, &r[i].ri, &r[i].rows[k].r);
				continue;
			}
			if (stopped[0]) /* a stop, not a failure, left it out */
				continue;
			failed_row(&r[i], like, &f);
			rc |= gdr_reports_row(rs, &r[i].ri, &f);
		}
		if (!like || like->has_lat) /* latency: no aggregate */
			continue;
		if (gdr_rail_all_row(r, n, k, like, &a) && stopped[0])
			continue; /* a size the stop cut short on some rails: no aggregate */
		rc |= gdr_reports_row(rs, &all, &a);
	}
	rc |= gdr_reports_end(rs, &head);
	if (rc && *status != GDR_EXIT_INTERRUPTED)
		*status = GDR_EXIT_ERROR;
	outcome_why(r, n, stopped, why, sizeof(why));
	e = (struct gdr_run_outcome){.status = *status,
				     .interrupted = *status == GDR_EXIT_INTERRUPTED,
				     .test = test,
				     .dev = head.rdma_dev,
				     .why = why};
	if (gdr_reports_finish(rs, &head, &e)) {
		rc = -1;
		if (*status != GDR_EXIT_INTERRUPTED)
			*status = GDR_EXIT_ERROR;
	}
	return rc ? -1 : 0;
}
