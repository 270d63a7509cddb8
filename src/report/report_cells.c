/* SPDX-License-Identifier: MIT */
/*
 * The column model: every CSV column and JSON field, its name, unit and
 * value, in one place, and how a value is written. CSV writes the cells as
 * one row, JSON as objects.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report_priv.h"

static const double default_pcts[] = {99.0, 99.9};

int gdr_report_pcts(const struct gdr_run_info *ri, const double **q)
{
	if (ri->opts) {
		*q = ri->opts->pct;
		return ri->opts->npct;
	}
	*q = default_pcts;
	return 2;
}

/* Appends cells; a full table is a programming error caught by the tests. */
struct cells {
	struct gdr_cell *c;
	int n;
	int max;
	bool names_only;
};

static struct gdr_cell *add(struct cells *cs, const char *name, const char *unit)
{
	static struct gdr_cell spare;
	struct gdr_cell *c;

	if (cs->n >= cs->max) {
		memset(&spare, 0, sizeof(spare));
		return &spare;
	}
	c = &cs->c[cs->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->unit = unit;
	return c;
}

static void add_str(struct cells *cs, const char *name, const char *s)
{
	struct gdr_cell *c = add(cs, name, NULL);

	if (!cs->names_only && s) {
		c->type = GDR_CELL_STR;
		c->s = s;
	}
}

static void add_u64(struct cells *cs, const char *name, const char *unit, uint64_t v)
{
	struct gdr_cell *c = add(cs, name, unit);

	if (!cs->names_only) {
		c->type = GDR_CELL_U64;
		c->u = v;
	}
}

static void add_i64(struct cells *cs, const char *name, const char *unit, int64_t v)
{
	struct gdr_cell *c = add(cs, name, unit);

	if (!cs->names_only) {
		c->type = GDR_CELL_I64;
		c->i = v;
	}
}

/* A number, or empty when it does not apply or is not finite. */
static void add_num(struct cells *cs, const char *name, const char *unit, bool applies, double v)
{
	struct gdr_cell *c = add(cs, name, unit);

	if (!cs->names_only && applies && isfinite(v)) {
		c->type = GDR_CELL_NUM;
		c->d = v;
	}
}

static void add_bool(struct cells *cs, const char *name, bool v)
{
	struct gdr_cell *c = add(cs, name, NULL);

	if (!cs->names_only) {
		c->type = GDR_CELL_BOOL;
		c->b = v;
	}
}

int gdr_cells_run(const struct gdr_run_info *ri, struct gdr_cell *c, int max)
{
	struct cells cs = {.c = c, .max = max};

	add_u64(&cs, "schema_version", NULL, GDR_CSV_SCHEMA);
	add_str(&cs, "timestamp", ri->timestamp);
	add_str(&cs, "tool_version", ri->tool_version);
	add_str(&cs, "test", ri->test);
	add_str(&cs, "verb", gdr_verb_name(ri->verb));
	add_str(&cs, "kind", gdr_kind_name(ri->kind));
	add_str(&cs, "role", ri->role);
	add_str(&cs, "local_host", ri->local_host);
	add_str(&cs, "remote_host", ri->remote_host);
	add_str(&cs, "rdma_dev", ri->rdma_dev);
	add_i64(&cs, "ib_port", NULL, ri->ib_port);
	add_str(&cs, "link_layer", ri->link_layer);
	if (ri->gid_index >= 0)
		add_i64(&cs, "gid_index", NULL, ri->gid_index);
	else
		add_str(&cs, "gid_index", NULL);
	if (ri->mtu)
		add_u64(&cs, "mtu", "bytes", ri->mtu);
	else
		add_str(&cs, "mtu", NULL);
	add_u64(&cs, "num_qps", NULL, ri->num_qps);
	add_u64(&cs, "tx_depth", NULL, ri->tx_depth);
	add_bool(&cs, "bidirectional", ri->bidir);
	add_bool(&cs, "rdma_cm", ri->rdma_cm);
	add_str(&cs, "mem_kind", ri->mem_kind);
	add_str(&cs, "gpu_name", ri->gpu_name);
	add_str(&cs, "gpu_pci", ri->gpu_pci);
	add_str(&cs, "reg_method", ri->reg_method);
	add_str(&cs, "cpu_placement", ri->cpu_placement);
	return cs.n;
}

/* Value of percentile q in r->lat, if it was computed. */
static bool find_pct(const struct gdr_result *r, double q, double *v)
{
	int i;

	for (i = 0; i < r->lat.npct && i < GDR_MAX_PCT; i++) {
		if (fabs(r->lat.pct_q[i] - q) < 1e-9) {
			*v = r->lat.pct_v[i];
			return true;
		}
	}
	return false;
}

int gdr_cells_result(const struct gdr_run_info *ri, const struct gdr_result *r, struct gdr_cell *c,
		     int max)
{
	static const struct gdr_result none;
	struct cells cs = {.c = c, .max = max, .names_only = !r};
	const double *q;
	bool bw, lat;
	int i, nq;

	if (!r)
		r = &none;
	bw = ri->kind == GDR_KIND_BW;
	lat = r->has_lat;
	add_str(&cs, "path", r->path);
	add_u64(&cs, "bytes", "bytes", r->bytes);
	add_u64(&cs, "iterations", NULL, r->iters);
	add_num(&cs, "duration_s", "s", true, r->duration_s);
	add_num(&cs, "bw_peak_MiBps", "MiB/s", bw, gdr_to_mibps(r->bw_peak_Bps));
	add_num(&cs, "bw_avg_MiBps", "MiB/s", bw, gdr_to_mibps(r->bw_avg_Bps));
	add_num(&cs, "bw_peak_Gbps", "Gb/s", bw, gdr_to_gbps(r->bw_peak_Bps));
	add_num(&cs, "bw_avg_Gbps", "Gb/s", bw, gdr_to_gbps(r->bw_avg_Bps));
	add_num(&cs, "msg_rate_Mpps", "Mpps", bw, r->msg_rate_pps / 1e6);
	add_str(&cs, "lat_kind", lat ? r->lat_kind : NULL);
	add_num(&cs, "t_min_us", "us", lat, r->lat.min);
	add_num(&cs, "t_max_us", "us", lat, r->lat.max);
	add_num(&cs, "t_median_us", "us", lat, r->lat.median);
	add_num(&cs, "t_avg_us", "us", lat, r->lat.avg);
	add_num(&cs, "t_stdev_us", "us", lat, r->lat.stdev);
	nq = gdr_report_pcts(ri, &q);
	for (i = 0; i < nq && i < GDR_MAX_PCT; i++) {
		char name[32];
		double v = 0;
		bool have = lat && find_pct(r, q[i], &v);

		snprintf(name, sizeof(name), "t_p%g_us", q[i]);
		add_num(&cs, name, "us", have, v);
	}
	add_num(&cs, "speedup", "ratio", r->speedup > 0, r->speedup);
	if (r->stage_chunk) {
		add_u64(&cs, "stage_chunk_bytes", "bytes", r->stage_chunk);
		add_u64(&cs, "stage_ring_bytes", "bytes", r->stage_ring);
		add_u64(&cs, "stage_streams", NULL, r->stage_streams);
	} else {
		add_str(&cs, "stage_chunk_bytes", NULL);
		add_str(&cs, "stage_ring_bytes", NULL);
		add_str(&cs, "stage_streams", NULL);
	}
	add_num(&cs, "copy_MiBps", "MiB/s", r->copy_Bps > 0, gdr_to_mibps(r->copy_Bps));
	add_num(&cs, "model_MiBps", "MiB/s", r->model_Bps > 0, gdr_to_mibps(r->model_Bps));
	add_num(&cs, "efficiency", "ratio", r->efficiency > 0, r->efficiency);
	add_num(&cs, "cpu_util_pct", "%", r->cpu_pct > 0, r->cpu_pct);
	return cs.n;
}

void gdr_put_cell(struct gdr_sbuf *b, const struct gdr_cell *c, const struct gdr_cell_style *st)
{
	char num[40];

	switch (c->type) {
	case GDR_CELL_NONE:
		gdr_sbuf_puts(b, st->none);
		break;
	case GDR_CELL_STR:
		st->str(b, c->s);
		break;
	case GDR_CELL_U64:
		gdr_sbuf_printf(b, "%llu", (unsigned long long)c->u);
		break;
	case GDR_CELL_I64:
		gdr_sbuf_printf(b, "%lld", (long long)c->i);
		break;
	case GDR_CELL_NUM:
		gdr_fmt_double(num, sizeof(num), c->d);
		gdr_sbuf_puts(b, num);
		break;
	case GDR_CELL_BOOL:
		gdr_sbuf_puts(b, c->b ? st->yes : st->no);
		break;
	}
}
