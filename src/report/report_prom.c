/* SPDX-License-Identifier: MIT */
/*
 * Prometheus reporter (--prom=FILE): every row of the run as gdr_* gauges,
 * labelled by host, device, GPU, test, size and path, written at the end of
 * the run in one rename (node_exporter's textfile collector reads *.prom).
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "exitcode.h"
#include "log.h"
#include "prom.h"
#include "report_priv.h"
#include "verdict.h"

struct prom {
	char *path;
	struct gdr_result *rows;
	char (*dev)[80]; /* each row's device label: its run's device (--rails: DEV:PORT, all) */
	char (*dir)[8];	 /* each row's direction label (--matrix: d2h, h2d; "" none) */
	/* each row's path label, a copy: the caller may free its rows (--matrix, after a cell) */
	char (*path_of)[24];
	char (*gpu)[32]; /* each row's GPU label: its run's (--matrix: its cell's GPU) */
	int n, cap;
	const struct gdr_run_info *ri;
	int lock; /* path.lock held while the run may write the file */
};

static int prom_begin(void *ctx, const struct gdr_run_info *ri)
{
	((struct prom *)ctx)->ri = ri;
	return 0;
}

/* Keeps a copy of the row (and of its counter deltas, which the driver reuses). */
static int prom_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct prom *p = ctx;
	struct gdr_result *c;

	p->ri = ri;
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 16;
		struct gdr_result *m = realloc(p->rows, (size_t)cap * sizeof(*m));

		if (!m) {
			gdr_err("--prom=%s: out of memory", p->path);
			return -1;
		}
		p->rows = m;
		char(*dv)[80] = realloc(p->dev, (size_t)cap * sizeof(*dv));

		if (!dv) {
			gdr_err("--prom=%s: out of memory", p->path);
			return -1;
		}
		p->dev = dv;
		char(*dr)[8] = realloc(p->dir, (size_t)cap * sizeof(*dr));

		if (!dr) {
			gdr_err("--prom=%s: out of memory", p->path);
			return -1;
		}
		p->dir = dr;
		char(*pa)[24] = realloc(p->path_of, (size_t)cap * sizeof(*pa));

		if (!pa) {
			gdr_err("--prom=%s: out of memory", p->path);
			return -1;
		}
		p->path_of = pa;
		char(*gp)[32] = realloc(p->gpu, (size_t)cap * sizeof(*gp));

		if (!gp) {
			gdr_err("--prom=%s: out of memory", p->path);
			return -1;
		}
		p->gpu = gp;
		p->cap = cap;
	}
	if (ri->opts && ri->opts->rails && ri->ib_port > 0)
		snprintf(p->dev[p->n], sizeof(p->dev[p->n]), "%s:%d", ri->rdma_dev, ri->ib_port);
	else
		snprintf(p->dev[p->n], sizeof(p->dev[p->n]), "%s", ri->rdma_dev);
	snprintf(p->dir[p->n], sizeof(p->dir[p->n]), "%s", ri->direction);
	snprintf(p->path_of[p->n], sizeof(p->path_of[p->n]), "%s", r->path ? r->path : "");
	snprintf(p->gpu[p->n], sizeof(p->gpu[p->n]), "%s", ri->gpu_pci[0] ? ri->gpu_pci : "none");
	c = &p->rows[p->n];
	*c = *r;
	c->cnt = NULL;
	c->path = c->lat_kind = c->cnt_dev = NULL; /* the caller's: labels() takes path_of */
	if (r->cnt && r->ncnt) {
		struct gdr_cnt_delta *d = malloc((size_t)r->ncnt * sizeof(*d));

		if (!d) {
			gdr_err("--prom=%s: out of memory", p->path);
			return -1;
		}
		memcpy(d, r->cnt, (size_t)r->ncnt * sizeof(*d));
		c->cnt = d;
	}
	p->n++;
	return 0;
}

enum { L_HOST, L_DEV, L_XPORT, L_PROV, L_GPU, L_TEST, L_SIZE, L_PATH, L_DIR, L_EXTRA, L_N };

static void labels(const struct prom *p, const struct gdr_result *r, char *size,
		   struct gdr_prom_label *l)
{
	const struct gdr_run_info *ri = p->ri;

	snprintf(size, 24, "%llu", (unsigned long long)r->bytes);
	l[L_HOST] = (struct gdr_prom_label){"host", ri->local_host};
	l[L_DEV] = (struct gdr_prom_label){"device", p->dev[r - p->rows]};
	/* a transport other than verbs, and ofi's provider: the device alone does not say what
	 * ran (ofi's "lo" is tcp's and shm's); absent over verbs, its series as they were */
	l[L_XPORT] = (struct gdr_prom_label){
	    "transport", ri->xport[0] && strcmp(ri->xport, "verbs") ? ri->xport : NULL};
	l[L_PROV] = (struct gdr_prom_label){"provider", ri->provider[0] ? ri->provider : NULL};
	l[L_GPU] = (struct gdr_prom_label){"gpu", p->gpu[r - p->rows]};
	l[L_TEST] = (struct gdr_prom_label){"test", ri->test};
	l[L_SIZE] = (struct gdr_prom_label){"size", size};
	l[L_PATH] = (struct gdr_prom_label){"path", p->path_of[r - p->rows]};
	/* --matrix: the cell's direction; absent elsewhere (gdr_prom_gauge skips NULL) */
	l[L_DIR] = (struct gdr_prom_label){"direction",
					   p->dir[r - p->rows][0] ? p->dir[r - p->rows] : NULL};
}

/* One family: a sample per row for which value() applies. */
static void family(FILE *f, const struct prom *p, const char *name, const char *help,
		   bool (*value)(const struct gdr_result *r, double *v))
{
	bool head = false;

	for (int i = 0; i < p->n; i++) {
		struct gdr_prom_label l[L_N];
		char size[24];
		double v;

		if (!value(&p->rows[i], &v))
			continue;
		if (!head)
			gdr_prom_family(f, name, help);
		head = true;
		labels(p, &p->rows[i], size, l);
		gdr_prom_gauge(f, name, l, L_EXTRA, v);
	}
}

static bool v_bw(const struct gdr_result *r, double *v)
{
	*v = r->bw_avg_Bps;
	return !r->has_lat && r->duration_s > 0;
}
static bool v_rate(const struct gdr_result *r, double *v)
{
	*v = r->msg_rate_pps;
	return !r->has_lat && r->duration_s > 0;
}
static bool v_ceiling(const struct gdr_result *r, double *v)
{
	*v = r->ceiling_Bps;
	return r->ceiling_Bps > 0;
}
static bool v_limit(const struct gdr_result *r, double *v)
{
	*v = r->limit_Bps;
	return r->limit_Bps > 0;
}
static bool v_verdict(const struct gdr_result *r, double *v)
{
	*v = r->verdict == GDR_VERDICT_FAIL ? 2 : 0;
	return r->verdict != GDR_VERDICT_NONE;
}

/* Latency: one sample per statistic (stat="median", "p99" ...), in seconds. */
static void latency(FILE *f, const struct prom *p)
{
	const char *name = "gdr_latency_seconds";
	bool head = false;

	for (int i = 0; i < p->n; i++) {
		const struct gdr_result *r = &p->rows[i];
		const struct gdr_lat_stats *s = &r->lat;
		struct gdr_prom_label l[L_N];
		char size[24], q[24];
		const char *names[] = {"min", "median", "avg", "max"};
		double vals[] = {s->min, s->median, s->avg, s->max};

		if (!r->has_lat)
			continue;
		if (!head)
			gdr_prom_family(f, name,
					"latency of one message (stat: min, median, avg, max, "
					"pNN percentiles)");
		head = true;
		labels(p, r, size, l);
		for (int k = 0; k < 4; k++) {
			l[L_EXTRA] = (struct gdr_prom_label){"stat", names[k]};
			gdr_prom_gauge(f, name, l, L_N, vals[k] / 1e6);
		}
		for (int k = 0; k < s->npct && k < GDR_MAX_PCT; k++) {
			snprintf(q, sizeof(q), "p%g", s->pct_q[k]);
			l[L_EXTRA] = (struct gdr_prom_label){"stat", q};
			gdr_prom_gauge(f, name, l, L_N, s->pct_v[k] / 1e6);
		}
	}
}

static void counters(FILE *f, const struct prom *p)
{
	const char *name = "gdr_stat_delta";
	bool head = false;

	for (int i = 0; i < p->n; i++) {
		const struct gdr_result *r = &p->rows[i];
		struct gdr_prom_label l[L_N];
		char size[24];

		for (int k = 0; r->cnt && k < r->ncnt; k++) {
			if (!head)
				gdr_prom_family(f, name,
						"change of an RDMA port, hw or PCIe AER counter "
						"during the size (-W)");
			head = true;
			labels(p, r, size, l);
			l[L_EXTRA] = (struct gdr_prom_label){"stat", r->cnt[k].name};
			gdr_prom_gauge(f, name, l, L_N, (double)r->cnt[k].d);
		}
	}
}

/* The run's outcome: one sample per family, labelled host, device, GPU and test. */
static void outcome(FILE *f, const struct gdr_run_info *ri, const struct gdr_run_outcome *e)
{
	static const char *const words[] = {"pass", "fail", "error", "usage", "interrupted"};
	char host[64];
	struct timespec now;
	const char *st =
	    e->status >= 0 && e->status <= GDR_EXIT_INTERRUPTED ? words[e->status] : "error";
	struct gdr_prom_label l[6];

	if (ri && ri->local_host[0])
		snprintf(host, sizeof(host), "%s", ri->local_host);
	else if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	l[0] = (struct gdr_prom_label){"host", host};
	l[1] = (struct gdr_prom_label){"device", ri && ri->rdma_dev[0] ? ri->rdma_dev : e->dev};
	l[2] = (struct gdr_prom_label){"gpu", ri && ri->gpu_pci[0] ? ri->gpu_pci : "none"};
	l[3] = (struct gdr_prom_label){"test", ri && ri->test ? ri->test : e->test};
	clock_gettime(CLOCK_REALTIME, &now);
	gdr_prom_family(f, "gdr_run_success",
			"1 = the run ended and every floor held (exit 0); 0 = below a floor, "
			"could not run, or interrupted");
	gdr_prom_gauge(f, "gdr_run_success", l, 4, e->status == GDR_EXIT_OK);
	gdr_prom_family(f, "gdr_run_exit_code",
			"the exit status: 0 pass, 1 below a floor, 2 could not run, 3 usage, "
			"4 interrupted");
	gdr_prom_gauge(f, "gdr_run_exit_code", l, 4, e->status);
	gdr_prom_family(f, "gdr_run_interrupted",
			"1 = stopped by SIGINT/SIGTERM before its end: only the sizes that "
			"completed have rows");
	gdr_prom_gauge(f, "gdr_run_interrupted", l, 4, e->interrupted);
	gdr_prom_family(f, "gdr_run_timestamp_seconds",
			"when the run ended and wrote this file (Unix time); alert when it "
			"grows old");
	gdr_prom_gauge(f, "gdr_run_timestamp_seconds", l, 4,
		       (double)now.tv_sec + now.tv_nsec / 1e9);
	l[4] = (struct gdr_prom_label){"status", st};
	l[5] = (struct gdr_prom_label){"reason", e->why ? e->why : ""};
	gdr_prom_family(f, "gdr_run_info", "the run's outcome in words (status, reason); always 1");
	gdr_prom_gauge(f, "gdr_run_info", l, 6, 1);
}

/* Every row's families, then (e: the run has ended) the run's outcome; one rename. */
static int commit(struct prom *p, const struct gdr_run_info *ri, const struct gdr_run_outcome *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f) {
		gdr_err("--prom=%s: out of memory", p->path);
		return -1;
	}
	family(f, p, "gdr_bandwidth_bytes_per_second", "average bandwidth of the size", v_bw);
	family(f, p, "gdr_message_rate_per_second", "messages per second of the size", v_rate);
	latency(f, p);
	family(f, p, "gdr_ceiling_bytes_per_second",
	       "the row's ceiling: least of the port's rate, PCIe links, copy rate (x2 with -b)",
	       v_ceiling);
	family(f, p, "gdr_limit_bytes_per_second", "bandwidth floor of -w or --expect-bw", v_limit);
	family(f, p, "gdr_verdict",
	       "0 = above the limits (-w, -y, --expect-bw, --kv-floor), 2 = below", v_verdict);
	counters(f, p);
	if (e)
		outcome(f, ri, e);
	if (fclose(f)) {
		free(text);
		gdr_err("--prom=%s: out of memory", p->path);
		return -1;
	}
	ret = gdr_prom_commit(p->path, "--prom", text, len);
	free(text);
	return ret;
}

static int prom_end(void *ctx, const struct gdr_run_info *ri)
{
	struct prom *p = ctx;

	p->ri = ri;
	return commit(p, ri, NULL);
}

/* Every run that opened the file leaves its outcome there, failed ones too. */
static int prom_finish(void *ctx, const struct gdr_run_info *ri, const struct gdr_run_outcome *e)
{
	struct prom *p = ctx;

	return commit(p, p->n ? p->ri : ri, e);
}

static void prom_destroy(void *ctx)
{
	struct prom *p = ctx;

	for (int i = 0; i < p->n; i++)
		free((void *)p->rows[i].cnt);
	free(p->rows);
	free(p->dev);
	free(p->dir);
	free(p->path_of);
	free(p->gpu);
	gdr_prom_unlock(p->path, p->lock);
	free(p->path);
	free(p);
}

static const struct gdr_reporter_ops prom_ops = {
    .name = "prom",
    .begin = prom_begin,
    .row = prom_row,
    .end = prom_end,
    .finish = prom_finish,
    .destroy = prom_destroy,
};

static int prom_open(struct gdr_reporter *r, const struct gdr_report_files *f)
{
	struct prom *p;

	if (!f->prom)
		return 0;
	if (gdr_prom_check(f->prom, "--prom"))
		return -1;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(f->prom))) {
		free(p);
		gdr_err("--prom=%s: out of memory", f->prom);
		return -1;
	}
	p->lock = gdr_prom_lock(p->path, "--prom");
	if (p->lock < 0) {
		free(p->path);
		free(p);
		return -1;
	}
	r->ops = &prom_ops;
	r->ctx = p;
	return 1;
}

const struct gdr_reporter_kind gdr_reporter_prom = {"prom", prom_open};
