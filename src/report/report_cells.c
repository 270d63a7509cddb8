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
#include "verdict.h"

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

static struct gdr_cell *add(struct gdr_cells *cs, const char *name, const char *unit)
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

void gdr_cells_str(struct gdr_cells *cs, const char *name, const char *s)
{
	struct gdr_cell *c = add(cs, name, NULL);

	if (!cs->names_only && s) {
		c->type = GDR_CELL_STR;
		c->s = s;
	}
}

void gdr_cells_u64(struct gdr_cells *cs, const char *name, const char *unit, uint64_t v)
{
	struct gdr_cell *c = add(cs, name, unit);

	if (!cs->names_only) {
		c->type = GDR_CELL_U64;
		c->u = v;
	}
}

void gdr_cells_i64(struct gdr_cells *cs, const char *name, const char *unit, int64_t v)
{
	struct gdr_cell *c = add(cs, name, unit);

	if (!cs->names_only) {
		c->type = GDR_CELL_I64;
		c->i = v;
	}
}

/* A number, or empty when it does not apply or is not finite. */
void gdr_cells_num(struct gdr_cells *cs, const char *name, const char *unit, bool applies, double v)
{
	struct gdr_cell *c = add(cs, name, unit);

	if (!cs->names_only && applies && isfinite(v)) {
		c->type = GDR_CELL_NUM;
		c->d = v;
	}
}

void gdr_cells_bool(struct gdr_cells *cs, const char *name, bool v)
{
	struct gdr_cell *c = add(cs, name, NULL);

	if (!cs->names_only) {
		c->type = GDR_CELL_BOOL;
		c->b = v;
	}
}

int gdr_cells_run(const struct gdr_run_info *ri, struct gdr_cell *c, int max)
{
	struct gdr_cells cs = {.c = c, .max = max};

	gdr_cells_u64(&cs, "schema_version", NULL, GDR_CSV_SCHEMA);
	gdr_cells_str(&cs, "timestamp", ri->timestamp);
	gdr_cells_str(&cs, "tool_version", ri->tool_version);
	gdr_cells_str(&cs, "test", ri->test);
	gdr_cells_str(&cs, "verb", gdr_verb_name(ri->verb));
	gdr_cells_str(&cs, "kind", gdr_kind_name(ri->kind));
	gdr_cells_str(&cs, "role", ri->role);
	gdr_cells_str(&cs, "local_host", ri->local_host);
	gdr_cells_str(&cs, "remote_host", ri->remote_host);
	/* schema 8: the transport and ofi's provider as opened (empty: none) */
	gdr_cells_str(&cs, "transport", ri->xport[0] ? ri->xport : NULL);
	gdr_cells_str(&cs, "provider", ri->provider[0] ? ri->provider : NULL);
	gdr_cells_str(&cs, "rdma_dev", ri->rdma_dev);
	gdr_cells_i64(&cs, "ib_port", NULL, ri->ib_port);
	gdr_cells_str(&cs, "link_layer", ri->link_layer);
	if (ri->gid_index >= 0)
		gdr_cells_i64(&cs, "gid_index", NULL, ri->gid_index);
	else
		gdr_cells_str(&cs, "gid_index", NULL);
	if (ri->mtu)
		gdr_cells_u64(&cs, "mtu", "bytes", ri->mtu);
	else
		gdr_cells_str(&cs, "mtu", NULL);
	gdr_cells_u64(&cs, "num_qps", NULL, ri->num_qps);
	gdr_cells_u64(&cs, "tx_depth", NULL, ri->tx_depth);
	gdr_cells_bool(&cs, "bidirectional", ri->bidir);
	gdr_cells_bool(&cs, "rdma_cm", ri->rdma_cm);
	gdr_cells_str(&cs, "mem_kind", ri->mem_kind);
	gdr_cells_str(&cs, "gpu_name", ri->gpu_name);
	gdr_cells_str(&cs, "gpu_pci", ri->gpu_pci);
	/* schema 5: --matrix, the cell's PCIe relation of GPU and NIC (empty elsewhere) */
	gdr_cells_str(&cs, "topology", ri->topo[0] ? ri->topo : NULL);
	/* schema 6: --matrix, the cell's direction and where its packets turn (empty elsewhere) */
	gdr_cells_str(&cs, "direction", ri->direction[0] ? ri->direction : NULL);
	gdr_cells_str(&cs, "loopback", ri->loopback);
	gdr_cells_str(&cs, "reg_method", ri->reg_method);
	gdr_cells_str(&cs, "cpu_placement", ri->cpu_placement);
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

/* The path r's ratio divides direct by. */
static bool of_is(const struct gdr_result *r, const char *path)
{
	return r->ratio_of && !strcmp(r->ratio_of, path);
}

int gdr_cells_result(const struct gdr_run_info *ri, const struct gdr_result *r, struct gdr_cell *c,
		     int max)
{
	static const struct gdr_result none;
	struct gdr_cells cs = {.c = c, .max = max, .names_only = !r};
	const double *q;
	bool bw, lat;
	int i, nq;
	static _Thread_local char cnt_text[2048]; /* the cell points here until the next row */

	if (!r)
		r = &none;
	if (r->cnt)
		gdr_counters_format(r->cnt, r->ncnt, cnt_text, sizeof(cnt_text));
	bw = ri->kind == GDR_KIND_BW;
	lat = r->has_lat;
	gdr_cells_str(&cs, "path", r->path);
	gdr_cells_u64(&cs, "bytes", "bytes", r->bytes);
	gdr_cells_u64(&cs, "iterations", NULL, r->iters);
	gdr_cells_num(&cs, "duration_s", "s", true, r->duration_s);
	gdr_cells_num(&cs, "bw_peak_MiBps", "MiB/s", bw, gdr_to_mibps(r->bw_peak_Bps));
	gdr_cells_num(&cs, "bw_avg_MiBps", "MiB/s", bw, gdr_to_mibps(r->bw_avg_Bps));
	gdr_cells_num(&cs, "bw_peak_Gbps", "Gb/s", bw, gdr_to_gbps(r->bw_peak_Bps));
	gdr_cells_num(&cs, "bw_avg_Gbps", "Gb/s", bw, gdr_to_gbps(r->bw_avg_Bps));
	gdr_cells_num(&cs, "msg_rate_Mpps", "Mpps", bw, r->msg_rate_pps / 1e6);
	gdr_cells_str(&cs, "lat_kind", lat ? r->lat_kind : NULL);
	gdr_cells_num(&cs, "t_min_us", "us", lat, r->lat.min);
	gdr_cells_num(&cs, "t_max_us", "us", lat, r->lat.max);
	gdr_cells_num(&cs, "t_median_us", "us", lat, r->lat.median);
	gdr_cells_num(&cs, "t_avg_us", "us", lat, r->lat.avg);
	gdr_cells_num(&cs, "t_stdev_us", "us", lat, r->lat.stdev);
	nq = gdr_report_pcts(ri, &q);
	for (i = 0; i < nq && i < GDR_MAX_PCT; i++) {
		char name[32];
		double v = 0;
		bool have = lat && find_pct(r, q[i], &v);

		snprintf(name, sizeof(name), "t_p%g_us", q[i]);
		gdr_cells_num(&cs, name, "us", have, v);
	}
	/* each ratio in the column named for what it divides (schema 6: gpu-proxy's its own) */
	gdr_cells_num(&cs, "direct_over_staged", "ratio", r->speedup > 0 && of_is(r, "staged"),
		      r->speedup);
	gdr_cells_num(&cs, "direct_over_gpu_proxy", "ratio",
		      r->speedup > 0 && of_is(r, "gpu-proxy"), r->speedup);
	/* schema 6: --repeat, the runs a row is the median of, and the spread over them */
	gdr_cells_u64(&cs, "repeats", NULL, r->repeats > 1 ? r->repeats : 1);
	gdr_cells_num(&cs, "cv", "ratio", r->repeats > 1, r->fig_cv);
	gdr_cells_num(&cs, "bw_avg_min_MiBps", "MiB/s", bw && r->repeats > 1,
		      gdr_to_mibps(r->fig_min));
	gdr_cells_num(&cs, "bw_avg_max_MiBps", "MiB/s", bw && r->repeats > 1,
		      gdr_to_mibps(r->fig_max));
	gdr_cells_num(&cs, "t_median_min_us", "us", lat && r->repeats > 1, r->fig_min);
	gdr_cells_num(&cs, "t_median_max_us", "us", lat && r->repeats > 1, r->fig_max);
	gdr_cells_num(&cs, "ratio_min", "ratio", r->speedup > 0 && r->repeats > 1, r->speedup_min);
	gdr_cells_num(&cs, "ratio_max", "ratio", r->speedup > 0 && r->repeats > 1, r->speedup_max);
	if (r->stage_chunk) {
		gdr_cells_u64(&cs, "stage_chunk_bytes", "bytes", r->stage_chunk);
		gdr_cells_u64(&cs, "stage_ring_bytes", "bytes", r->stage_ring);
		gdr_cells_u64(&cs, "stage_streams", NULL, r->stage_streams);
		gdr_cells_str(&cs, "stage_copy", r->stage_copy[0] ? r->stage_copy : NULL);
	} else {
		gdr_cells_str(&cs, "stage_chunk_bytes", NULL);
		gdr_cells_str(&cs, "stage_ring_bytes", NULL);
		gdr_cells_str(&cs, "stage_streams", NULL);
		gdr_cells_str(&cs, "stage_copy", NULL);
	}
	gdr_cells_num(&cs, "copy_MiBps", "MiB/s", r->copy_Bps > 0, gdr_to_mibps(r->copy_Bps));
	gdr_cells_num(&cs, "model_MiBps", "MiB/s", r->model_Bps > 0, gdr_to_mibps(r->model_Bps));
	gdr_cells_num(&cs, "efficiency", "ratio", r->efficiency > 0, r->efficiency);
	gdr_cells_num(&cs, "cpu_util_pct", "%", r->cpu_pct > 0, r->cpu_pct);
	/* schema 3: -c UD/UC send_bw, what the receiver got (empty elsewhere) */
	if (r->has_delivery)
		gdr_cells_u64(&cs, "delivered_iterations", NULL, r->delivered);
	else
		gdr_cells_str(&cs, "delivered_iterations", NULL);
	gdr_cells_num(&cs, "delivered_MiBps", "MiB/s", r->has_delivery,
		      gdr_to_mibps(r->delivered_Bps));
	gdr_cells_num(&cs, "delivered_Gbps", "Gb/s", r->has_delivery,
		      gdr_to_gbps(r->delivered_Bps));
	if (r->has_delivery)
		gdr_cells_u64(&cs, "lost_messages", NULL, r->lost);
	else
		gdr_cells_str(&cs, "lost_messages", NULL);
	gdr_cells_num(&cs, "loss_pct", "%", r->has_delivery && r->sent_total,
		      r->sent_total ? 100.0 * (double)r->lost / (double)r->sent_total : 0);
	gdr_cells_str(&cs, "staged_note",
		      r->target_copy_untimed ? "target copy outside timing"
		      : r->eff_over > 0	     ? "above its model: efficiency not shown"
					     : NULL);
	/* schema 4: the row's ceiling, what sets it, the row's fraction of it, its caveats */
	gdr_cells_num(&cs, "ceiling_Gbps", "Gb/s", r->ceiling_Bps > 0, gdr_to_gbps(r->ceiling_Bps));
	gdr_cells_str(&cs, "limit", r->ceil_limit[0] ? r->ceil_limit : NULL);
	gdr_cells_num(&cs, "of_ceiling", "ratio", r->ceiling_Bps > 0,
		      r->ceiling_Bps > 0 ? r->bw_avg_Bps / r->ceiling_Bps : 0);
	gdr_cells_str(&cs, "ceiling_note", r->ceil_limit[0] ? r->ceil_note : NULL);
	/* schema 7: a KV-cache-shaped row (--block, docs/kv.md); empty elsewhere */
	if (r->kv_batch) {
		gdr_cells_u64(&cs, "kv_batch", "blocks", r->kv_batch);
		gdr_cells_u64(&cs, "kv_pool_bytes", "bytes", r->kv_pool);
		/* schema 9: the pool's memory regions (--regions) and a region's bytes */
		gdr_cells_u64(&cs, "kv_regions", "regions", r->kv_regions ? r->kv_regions : 1);
		gdr_cells_u64(&cs, "kv_region_bytes", "bytes", r->kv_region_bytes);
		/* schema 9: blocks a work request (--sge), its scatter/gather entries */
		gdr_cells_u64(&cs, "kv_sge", "blocks", r->kv_sge ? r->kv_sge : 1);
	} else {
		gdr_cells_str(&cs, "kv_batch", NULL);
		gdr_cells_str(&cs, "kv_pool_bytes", NULL);
		gdr_cells_str(&cs, "kv_regions", NULL);
		gdr_cells_str(&cs, "kv_region_bytes", NULL);
		gdr_cells_str(&cs, "kv_sge", NULL);
	}
	gdr_cells_str(&cs, "kv_place", r->kv_batch ? r->kv_place : NULL);
	gdr_cells_num(&cs, "kv_blocks_per_s", "blocks/s", r->kv_blocks_ps > 0, r->kv_blocks_ps);
	if (r->kv_batches)
		gdr_cells_u64(&cs, "kv_batches_timed", "batches", r->kv_batches);
	else
		gdr_cells_str(&cs, "kv_batches_timed", NULL);
	gdr_cells_num(&cs, "kv_batch_median_us", "us", r->kv_batches > 0, r->kv_batch_med_us);
	gdr_cells_num(&cs, "kv_batch_p99_us", "us", r->kv_batches > 0, r->kv_batch_p99_us);
	gdr_cells_num(&cs, "kv_contig_Gbps", "Gb/s", r->kv_contig_Bps > 0,
		      gdr_to_gbps(r->kv_contig_Bps));
	gdr_cells_num(&cs, "kv_efficiency", "ratio", r->kv_eff > 0, r->kv_eff);
	gdr_cells_num(&cs, "kv_floor", "ratio", r->kv_floor > 0, r->kv_floor);
	/* acceptance: -w/-y/--expect-bw verdict, -W counter deltas */
	gdr_cells_num(&cs, "limit_Gbps", "Gb/s", r->limit_Bps > 0, gdr_to_gbps(r->limit_Bps));
	gdr_cells_num(&cs, "limit_Mpps", "Mpps", r->limit_pps > 0, r->limit_pps / 1e6);
	gdr_cells_str(&cs, "verdict", gdr_verdict_name(r->verdict));
	gdr_cells_str(&cs, "verdict_reason", r->why[0] ? r->why : NULL);
	gdr_cells_str(&cs, "counter_deltas", r->cnt ? cnt_text : NULL);
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
