/* SPDX-License-Identifier: MIT */
/* One run of a test: the session, the sizes, and each size's paths. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "accept.h"
#include "admit.h"
#include "ceil_row.h"
#include "bw.h"
#include "bw_kv.h"
#include "staging.h"
#include "conn.h"
#include "lat.h"
#include "log.h"
#include "nic_env.h"
#include "repeat.h"
#include "report.h"
#include "path_setup.h"
#include "path_xport.h"
#include "run.h"
#include "run_header.h"
#include "floor.h"
#include "session.h"
#include "stop.h"
#include "verbs_api.h"
#include "xport_fit.h"
#include "xport_pick.h"
#include "cm.h"

/*
 * A path's row carries a ratio when it is compared with the direct path:
 * not a staged read latency row (its target's copy is untimed), and not
 * when the path it is compared with is not GPUDirect (host memory on both
 * sides: that row is "host", and the run says it has no direct row).
 */
static bool cmp_ratio_ok(const struct gdr_conn *c, const struct gdr_path *p, bool bw)
{
	if (p->ref < 0 || (p->staged && c->role.def->fetches && !bw))
		return false;
	return !strcmp(c->path[p->ref].name, "direct");
}

/* --compare: direct/staged for bandwidth, staged/direct for latency (> 1: direct wins). */
static double speedup(const struct gdr_result *d, const struct gdr_result *s)
{
	if (d->has_lat && s->has_lat)
		return d->lat.median > 0 ? s->lat.median / d->lat.median : 0;
	return s->bw_avg_Bps > 0 ? d->bw_avg_Bps / s->bw_avg_Bps : 0;
}

/* One run of path k of a size into *r (the ratio is set by the caller). */
static int run_path(struct gdr_run *run, struct gdr_accept *acc, uint32_t k, uint64_t size,
		    struct gdr_staging *stg, struct gdr_result *r)
{
	struct gdr_conn *c = &run->c;
	struct gdr_path *p = &c->path[k];
	bool bw = c->o->kind == GDR_KIND_BW;

	if (stg && gdr_staging_path(stg, p->staged)) /* a kernel copier: staged path only */
		return -1;
	*r = (struct gdr_result){.path = p->name};
	gdr_accept_before(acc);
	if (bw && c->o->kv_nblocks) { /* a KV-cache-shaped cell (engine/bw_kv_size.c) */
		if (gdr_bw_kv_size(c, p, size, c->size_index, stg, &run->stop.at, r))
			return -1;
	} else if (bw ? gdr_bw_size(c, p, size, stg, &run->stop.at, r)
		      : gdr_lat_size(c, p, size, stg, run->samples, &run->stop.at, r)) {
		return -1;
	}
	if (p->staged)
		gdr_staging_row(stg, r);
	return 0;
}

/*
 * How many of a size's nrep repeats path p runs: all, but the gpu-proxy
 * latency row once (the last): repeated on one connection, the kernels'
 * ping-pong of write_lat stalled in its third run in the VM (e2e
 * gpu2_cmp.write_lat: the server's kernel waited for the peer's message 99;
 * not understood yet), so that row has one run and no spread.
 */
static uint32_t repeats_of(const struct gdr_conn *c, const struct gdr_path *p, uint32_t nrep)
{
	return p->proxy && c->o->kind != GDR_KIND_BW ? 1 : nrep;
}

/* What a size's paths share: its copy rate, its repeats' results (nrep x GDR_MAX_PATHS). */
struct size_runs {
	const struct gdr_ceil_rows *cr;
	struct gdr_staging *stg;
	double copy;
	uint32_t nrep;
	struct gdr_result *rep;
	struct gdr_result r[GDR_MAX_PATHS]; /* each path's row, the medians of its repeats */
};

/*
 * Path k's row, once its last repeat has run: the medians of its repeats, its
 * acceptance (-W: the counters read around that last run alone), model,
 * ceiling; then the reporters.
 */
static int finish_row(struct gdr_run *run, struct gdr_reports *rs, struct gdr_accept *acc,
		      struct size_runs *z, uint32_t k)
{
	struct gdr_conn *c = &run->c;
	struct gdr_path *p = &c->path[k];
	bool bw = c->o->kind == GDR_KIND_BW;
	struct gdr_result col[GDR_MAX_REPEAT], *r = &z->r[k];
	uint32_t n = repeats_of(c, p, z->nrep), first = z->nrep - n;

	for (uint32_t i = 0; i < n; i++)
		col[i] = z->rep[(size_t)(first + i) * GDR_MAX_PATHS + k];
	gdr_result_repeats(col, n, r);
	if (r->speedup > 0)
		r->ratio_of = p->name;
	gdr_accept_after(acc, c, p, r);
	if (p->staged)
		gdr_staging_model(z->r, k, z->copy);
	if (bw)
		gdr_ceil_row_copier(z->cr, gdr_mem_on_device(p->mem), p->staged, z->copy,
				    z->stg ? gdr_ceil_copier_name(r->stage_copy) : NULL, r);
	/* staged read latency: the target's copy is untimed, no fair ratio (labelled) */
	if (p->staged && c->role.def->fetches && !bw)
		r->target_copy_untimed = true;
	if (c->o->kind == GDR_KIND_LAT && c->is_server) {
		gdr_info("%llu bytes, %s: %llu iterations answered (latency is "
			 "reported by the client)",
			 (unsigned long long)r->bytes, r->path, (unsigned long long)r->iters);
		return 0;
	}
	return gdr_reports_row(rs, &run->ri, r);
}

/*
 * The paths of one size; stg: the size's staging state (NULL: no staged
 * path). --compare runs them --repeat times, interleaved (host, direct,
 * staged, gpu-proxy, host, direct, ...); each row is the medians of its
 * repeats, its ratio the median of each repeat's own (repeat.h), and is
 * reported as soon as its path's last repeat has run.
 */
static int run_paths(struct gdr_run *run, struct gdr_reports *rs, struct gdr_accept *acc,
		     const struct gdr_ceil_rows *cr, uint64_t size, struct gdr_staging *stg)
{
	struct gdr_conn *c = &run->c;
	bool bw = c->o->kind == GDR_KIND_BW;
	struct size_runs *z;
	int rc = -1;

	z = calloc(1, sizeof(*z));
	if (!z) {
		gdr_err("out of memory");
		return -1;
	}
	*z = (struct size_runs){
	    .cr = cr, .stg = stg, .nrep = c->o->compare && c->o->repeat > 1 ? c->o->repeat : 1};
	z->rep = calloc((size_t)z->nrep * GDR_MAX_PATHS, sizeof(*z->rep));
	if (!z->rep) {
		gdr_err("out of memory");
		goto out;
	}
	/* both sides' copiers of the size, then (--compare) its copier alone at its chunk */
	if (stg && gdr_staging_exchange_copier(c, stg))
		goto out;
	if (gdr_paths_plan(c->o, false).ref && bw && gdr_staging_copy_rate(c, stg, &z->copy))
		goto out;
	for (uint32_t i = 0; i < z->nrep; i++) {
		struct gdr_result *ri = &z->rep[(size_t)i * GDR_MAX_PATHS];

		for (uint32_t k = 0; k < c->npaths; k++) {
			const struct gdr_path *p = &c->path[k];

			if (i + repeats_of(c, p, z->nrep) < z->nrep)
				continue; /* runs in the last repeats only */
			if (run_path(run, acc, k, size, stg, &ri[k]))
				goto out;
			/* the ratio within the repeat: direct over this path */
			if (cmp_ratio_ok(c, p, bw))
				ri[k].speedup = speedup(&ri[p->ref], &ri[k]);
			if (i + 1 == z->nrep && finish_row(run, rs, acc, z, k))
				goto out;
		}
	}
	rc = 0;
out:
	free(z->rep);
	free(z);
	return rc;
}

static int run_sizes(struct gdr_run *run, struct gdr_reports *rs, struct gdr_accept *acc)
{
	struct gdr_conn *c = &run->c;
	struct gdr_ceil_rows cr = {.scale = 1};

	if (c->o->kind == GDR_KIND_BW) /* this side's facts, once: each row's ceiling */
		gdr_ceil_rows_init(&cr, c);
	for (size_t i = 0; i < run->req.nsizes; i++) {
		struct gdr_staging stg, *st = NULL;
		int rc;

		gdr_oob_phase(&c->oob, "during the %llu-byte test",
			      (unsigned long long)run->req.sizes[i]);
		run->stop.size = run->req.sizes[i];
		c->size_index = (uint32_t)i;
		run->stop.sizes_done = i;
		if (run->hooks && run->hooks->before_size &&
		    run->hooks->before_size(run->hooks->ctx, run->req.sizes[i]))
			return -1;
		/* the staged path's state of this size, built once for the probe and the paths */
		if (gdr_paths_plan(c->o, false).staged) {
			/* a KV cell stages a batch a run: its plan is of the batch's bytes */
			uint64_t bytes =
			    run->req.sizes[i] * (c->o->kv_nblocks ? gdr_opts_kv_batch(c->o, i) : 1);

			if (gdr_staging_begin(&stg, c, bytes, run->stage_copy.kind[i]))
				return -1;
			st = &stg;
		}
		rc = run_paths(run, rs, acc, &cr, run->req.sizes[i], st);
		if (st)
			gdr_staging_end(st);
		if (rc || i + 1 == run->req.nsizes)
			gdr_staging_close_run(); /* the run's copiers, opened once (staging/run_copier.c) */
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * A client stopped by SIGINT/SIGTERM during the sizes (a loop or a wait saw
 * gdr_stop_requested and printed nothing): say where, and end the outputs so
 * the sizes that completed are kept (the JSON file is written, and says
 * where the run stopped). Always -1: the run did not complete.
 */
static int stopped_mid_run(struct gdr_run *r, struct gdr_reports *rs)
{
	struct gdr_conn *c = &r->c;
	char where[160], done[80] = "";
	size_t n = r->stop.sizes_done;

	if (c->is_server || !gdr_stop_requested())
		return -1;
	if (r->stop.at.in_loop && r->stop.at.total)
		snprintf(done, sizeof(done), " after %llu of %llu iterations",
			 (unsigned long long)r->stop.at.done, (unsigned long long)r->stop.at.total);
	else if (r->stop.at.in_loop)
		snprintf(done, sizeof(done), " after %llu iterations",
			 (unsigned long long)r->stop.at.done);
	snprintf(where, sizeof(where), "during the %llu-byte test%s",
		 (unsigned long long)r->stop.size, done);
	snprintf(r->ri.stopped, sizeof(r->ri.stopped),
		 "interrupted by %s %s; %zu of %zu sizes completed", gdr_stop_signal_name(), where,
		 n, r->req.nsizes);
	r->stop.reported = true;
	if (n)
		gdr_err(
		    "interrupted by %s %s: %zu of %zu sizes completed (their rows are above and "
		    "in the CSV/JSON files)",
		    gdr_stop_signal_name(), where, n, r->req.nsizes);
	else
		gdr_err("interrupted by %s %s: no size completed (the JSON file says where the run "
			"stopped; the CSV has no rows)",
			gdr_stop_signal_name(), where);
	gdr_reports_end(rs, &r->ri);
	return -1;
}

static int session(struct gdr_run *run, const struct gdr_test *t, struct gdr_reports *rs)
{
	struct gdr_conn *c = &run->c;
	struct gdr_opts *o = c->o;
	struct gdr_accept acc;
	struct gdr_msg m;
	int rc;

	if (c->is_server) {
		if (c->oob.ops) { /* a launcher's channel (cluster mode): one peer, no listening */
			struct gdr_msg hello;

			if (gdr_session_expect(c, &hello, GDR_MSG_HELLO) || gdr_admit(run, &hello))
				return -1;
		} else {
			int r = gdr_await_client(run);

			if (r)
				return r;
			run->admitted = true;
		}
		if (o->rdma_cm) {
			gdr_verbs_close(c); /* the CM brings its own device context */
			gdr_paths_free(c);  /* and memory near it (gdr_connect_paths) */
			memset(c->dev_name, 0, sizeof(c->dev_name));
			if (gdr_cm_listen(c)) {
				gdr_session_reject(c, "the server cannot listen with rdma_cm");
				return -1;
			}
		}
		if (gdr_session_accept(c))
			return -1;
	} else {
		if (!c->oob.ops &&
		    gdr_oob_tcp_connect(&c->oob, o->source_ip, o->server, o->port,
					gdr_ms(o->connect_timeout), gdr_ms(o->timeout)))
			return -1;
		c->oob.role = "server";
		gdr_oob_phase(&c->oob, "while setting up the test");
		run->req.client_gpu = gdr_mem_on_device(&c->data); /* HELLO's GPU flag */
		if (gdr_session_client_hello(c, &run->req))
			return -1;
		c->nqp = o->num_qps;
		gdr_size_buffers(c, &run->req);
	}
	if (gdr_connect_paths(c, &run->req))
		return -1;
	gdr_header_numa(run);
	/* the staged path's copier per size, chosen once (auto: probed), before the header */
	if (gdr_paths_plan(o, false).staged &&
	    gdr_staging_choose(c, run->req.sizes, run->req.nsizes, &run->stage_copy))
		return -1;
	gdr_header_fill(run, t);
	gdr_paths_header(run); /* each path's own lines and columns, from its row */
	if (gdr_accept_init(&acc, c, &run->ri))
		return -1;
	rc = gdr_reports_begin(rs, &run->ri) ? -1 : 0;
	run->sizes_started = !rc;
	if (!rc && run_sizes(run, rs, &acc))
		rc = stopped_mid_run(run, rs); /* -1; a Ctrl-C'd client says where and keeps rows */
	if (gdr_accept_end(&acc) && !rc && !o->cluster) /* -w/-y/--expect-bw, printed */
		rc = -4;
	if (rc == -1)
		return -1;
	gdr_oob_phase(&c->oob, "at the end of the run");
	if (c->is_server) {
		if (gdr_session_expect(c, &m, GDR_MSG_BYE))
			return -1;
	} else {
		m.type = GDR_MSG_BYE;
		if (gdr_oob_send(&c->oob, &m))
			return -1;
	}
	return gdr_reports_end(rs, &run->ri) ? -1 : rc;
}

/*
 * The client's queues on its own device (the server checks its own at
 * admission): a request beyond max_cqe etc. fails here, before the network.
 * Its buffer's size is known after the HELLO: the MR size is not checked here.
 */
static int client_fits(struct gdr_conn *c)
{
	char why[360];

	if (!gdr_dev_fits(c, gdr_paths_plan_on(c, gdr_mem_on_device(&c->data)).n, 0, why,
			  sizeof(why)))
		return 0;
	gdr_err("%s", why);
	return -1;
}

/* Output files and memory are checked before any network wait; rs NULL: a launcher's sink. */
static int open_outputs(struct gdr_run *r, struct gdr_reports *rs)
{
	const struct gdr_opts *o = &r->o;
	struct gdr_report_files rf = gdr_run_report_files(o);

	if (rs && gdr_reports_open(rs, &rf))
		return -1;
	if (o->samples_file && !r->c.is_server) {
		r->samples = fopen(o->samples_file, "w");
		if (!r->samples) {
			gdr_err("--samples: cannot write %s: %s", o->samples_file, strerror(errno));
			return -1;
		}
		fprintf(r->samples, "bytes,iteration,usec\n");
	}
	return 0;
}

/*
 * One run, from the device up. 0; -1 the run failed; -2 no client came within
 * --listen_timeout (not printed); -3 this side cannot run at all (device,
 * memory, output files, listening port); -5 a floor the port cannot carry.
 */
int gdr_run_once(struct gdr_run *r, const struct gdr_test *t, struct gdr_reports *rs,
		 const struct gdr_run_hooks *h)
{
	struct gdr_conn *c = &r->c;
	struct gdr_opts *o = &r->o;
	struct gdr_mem_cfg mc;

	*o = *r->base; /* this side's own options; a server adds the client's test (gdr_admit) */
	c->o = o;
	c->inline_explicit = gdr_opts_is_set(o, &o->inline_size);
	mc = gdr_run_mem_cfg(o);
	gdr_role_fill(&c->role, o, c->is_server); /* the server's again after the HELLO */
	if (gdr_xport_pick(o->transport, &c->xp)) /* checked by gdr_run: it has one */
		return -3;
	/* Files, device and memory first: bad input fails before any network wait. */
	/* The files first: from here every failure leaves its mark in them (--prom). */
	if (h && h->sink)
		*rs = (struct gdr_reports){.n = 1, .r = {*h->sink}};
	if ((!h || !h->sink || h->samples) && open_outputs(r, h && h->sink ? NULL : rs))
		return -3;
	/* The device (-R client: the one rdma_cm resolves to) places threads and memory. */
	if (!(o->rdma_cm && !c->is_server) &&
	    (gdr_xpath_on(c) ? gdr_xpath_open(c) : gdr_dev_open(c)))
		return -3;
	/* the options again against what the opened device can do (ofi: the provider's FI_HMEM) */
	if (gdr_xpath_on(c) && gdr_xport_fit(o, c->xp, &c->link, c->is_server))
		return -3;
	/* -c UD (never with -R): every size within this port's MTU, before the network */
	if (!c->is_server && o->conn == GDR_CONN_UD &&
	    gdr_ud_fit_sizes(r->req.sizes, &r->req.nsizes, c->link.mtu, o->all_sizes,
			     o->sizes_set || gdr_opts_is_set(o, &o->size)))
		return -3;
	if (o->rdma_cm && !c->is_server && (gdr_cm_probe_device(c) || gdr_place(c, c->dev_name)))
		return -3;
	if (!c->is_server && gdr_floor_check(c)) /* a floor the port cannot carry: before traffic */
		return -5;
	if (gdr_accept_check_list(c)) /* -W LIST names counters of this port */
		return -3;
	if (gdr_mem_init(&c->data, &mc, c->dev_name[0] ? c->dev_name : NULL))
		return -3;
	/* a --stage_copy that cannot run on this memory at all: before any network step */
	if (gdr_paths_plan(o, false).staged && gdr_staging_precheck(o->stage_copy, &c->data))
		return -3;
	if (!c->is_server && !o->rdma_cm && client_fits(c)) /* queues within its device's limits */
		return -3;
	/* Before any QP exists. */
	gdr_scatter_to_cqe(gdr_mem_on_device(&c->data), r->scatter_desc, sizeof(r->scatter_desc));
	if (c->is_server && r->lfd < 0 && !c->oob.ops) {
		r->lfd = gdr_oob_tcp_listen(o->bind_addr, o->port);
		if (r->lfd < 0)
			return -3;
		gdr_announce(c, gdr_prog());
	}
	return session(r, t, rs);
}

/* Release what one run holds; the listening socket stays for the next. */
void gdr_run_end(struct gdr_run *r, struct gdr_reports *rs)
{
	struct gdr_conn *c = &r->c;

	gdr_busy_stop(&r->busy);
	gdr_reports_close(rs);
	if (r->samples)
		fclose(r->samples);
	r->samples = NULL;
	if (gdr_xpath_on(c))
		gdr_xpath_close(c);
	else
		gdr_verbs_close(c);
	gdr_paths_free(c); /* the memory path setup allocated, once its MRs are gone */
	gdr_oob_close(&c->oob);
}
