/* SPDX-License-Identifier: MIT */
/*
 * Text reporter: a run header, then a perftest-shaped table whose rows are
 * printed (and flushed) as each result arrives, so long sweeps show progress.
 * The table header is printed with the first row: its percentile columns
 * and the path/direct-over-staged columns follow what the results carry.
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmp_verdict.h"
#include "log.h"
#include "report_priv.h"
#include "verdict.h"

#define RULE	 "-----------------------------------------------------------------------------------"
#define MAX_COLS (21 + GDR_MAX_PCT)
#define LIMIT_W	 24 /* "copy engine both ways", "NIC PCIe Gen5 x16" */

struct text {
	FILE *out;
	char line[1024];
	size_t len;
	int nrows;
	int ncols;
	int width[MAX_COLS];
	bool path_col;
	bool speedup_col;
	bool chunk_col; /* staged rows: chunk; --compare bandwidth: copy, model, efficiency */
	bool copy_col; /* staged rows: stage_copy, the copier of each side */
	bool model_cols;
	bool cpu_col; /* -e: this side's CPU use per row */
	bool delivery_cols; /* -c UD/UC send_bw: what the receiver got, and the loss */
	bool ceil_cols;	    /* bandwidth: the row's ceiling (the table's unit), fraction, limit */
	bool spread_cols;   /* --repeat: the key figure's cv and range over the repeats */
	bool untimed_note;  /* a staged read row was marked: explain it under the table */
	bool rail_col;	    /* --rails: each row's rail (DEV:PORT, or all) and verdict */
	int judged, failed; /* rows with a verdict (-w, -y, --expect-bw), and those below */
	struct gdr_cmp_summary cmp[2]; /* --compare: direct vs staged, direct vs gpu-proxy */
};

/* Appends s padded to width w to the current line. */
static void put(struct text *t, int w, const char *s)
{
	int n;

	if (t->len >= sizeof(t->line))
		return;
	/* a cell as wide as its column (w >= 12) still leaves a blank before the next one */
	n = snprintf(t->line + t->len, sizeof(t->line) - t->len, "%-*s%s", w, s,
		     w > 1 && (int)strlen(s) >= w ? " " : "");
	if (n > 0)
		t->len += (size_t)n;
	if (t->len >= sizeof(t->line))
		t->len = sizeof(t->line) - 1;
}

/* Prints the current line without trailing blanks. */
static void flush_line(struct text *t)
{
	while (t->len && t->line[t->len - 1] == ' ')
		t->len--;
	t->line[t->len] = '\0';
	fprintf(t->out, "%s\n", t->line);
	t->len = 0;
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* The paths' lines (gdr_run_info.paths, one a line) under one label. */
static void print_paths(FILE *f, const char *paths)
{
	const char *label = " Paths         : ";

	while (*paths) {
		size_t n = strcspn(paths, "\n");

		fprintf(f, "%s%.*s\n", label, (int)n, paths);
		label = "                 ";
		paths += n + (paths[n] == '\n');
	}
}

static void print_header(struct text *t, const struct gdr_run_info *ri)
{
	const char *what = ri->kind == GDR_KIND_LAT ? "latency" : "bandwidth";
	FILE *f = t->out;

	fprintf(f, "%s\n", RULE);
	fprintf(f, " gdrperf %s: RDMA %s %s test (%s), %s\n", or_dash(ri->tool_version),
		gdr_verb_name(ri->verb), what, or_dash(ri->test), or_dash(ri->role));
	fprintf(f, " Hosts         : local %s, remote %s\n", or_dash(ri->local_host),
		or_dash(ri->remote_host));
	if (ri->opts && ri->opts->rails) /* rdma_dev: the rails, DEV:PORT each */
		fprintf(f, " Devices       : rails %s, link layer %s, ", or_dash(ri->rdma_dev),
			or_dash(ri->link_layer));
	else
		fprintf(f, " Device        : %s port %d, link layer %s, ", or_dash(ri->rdma_dev),
			ri->ib_port, or_dash(ri->link_layer));
	if (ri->gid_index >= 0)
		fprintf(f, "GID index %d, ", ri->gid_index);
	else
		fprintf(f, "no GID, ");
	fprintf(f, "MTU %u bytes\n", ri->mtu);
	if (ri->transport[0])
		fprintf(f, " Transport     : %s\n", ri->transport);
	fprintf(f, " Connection    : %u QP%s, TX depth %u, %s, %s\n", ri->num_qps,
		ri->num_qps == 1 ? "" : "s", ri->tx_depth,
		ri->bidir ? "bidirectional" : "unidirectional",
		ri->rdma_cm ? "connected by rdma_cm" : "connected by TCP exchange");
	fprintf(f, " Memory        : %s", or_dash(ri->mem_kind));
	if (ri->gpu_name[0] || ri->gpu_pci[0])
		fprintf(f, " (%s at %s)", or_dash(ri->gpu_name), or_dash(ri->gpu_pci));
	fprintf(f, ", registration %s\n", or_dash(ri->reg_method));
	fprintf(f, " CPU placement : %s\n", or_dash(ri->cpu_placement));
	if (ri->buffers_numa[0])
		fprintf(f, " Buffer NUMA   : %s\n", ri->buffers_numa);
	if (ri->nic_settings[0])
		fprintf(f, " NIC settings  : %s\n", ri->nic_settings);
	if (ri->qp_attrs[0])
		fprintf(f, " QP attributes : %s\n", ri->qp_attrs);
	if (ri->paths[0])
		print_paths(f, ri->paths);
	if (ri->staged[0])
		fprintf(f, " Staged path   : %s\n", ri->staged);
	if (ri->stage_copy[0])
		fprintf(f, " Stage copy    : %s\n", ri->stage_copy);
	if (ri->verdict[0])
		fprintf(f, " Verdict       : %s\n", ri->verdict);
	if (ri->opts && ri->opts->events)
		fprintf(f, " Completions   : events (-e, sleeps on a completion channel); "
			   "CPU[%%] = this side's user+sys time / wall time in the loop\n");
	if (ri->opts && ri->opts->compare && ri->opts->repeat > 1)
		fprintf(
		    f,
		    " Repeats       : %u runs of each size's paths, interleaved; each figure is "
		    "their median, cv = stdev/mean of the %s over them, min-max its range; "
		    "ratio: the median [range] of each run's own\n",
		    ri->opts->repeat, ri->kind == GDR_KIND_LAT ? "t_median" : "BW average");
	if (ri->clock_res_ns > 0)
		fprintf(f, " Clock         : resolution %g ns\n", ri->clock_res_ns);
	else
		fprintf(f, " Clock         : resolution unknown\n");
	if (ri->kind == GDR_KIND_LAT)
		fprintf(f, " Units         : usec = microseconds, bytes\n");
	else if (ri->report_gbits)
		fprintf(f,
			" Units         : Gb/sec = 10^9 bits/s, Mpps = 10^6 messages/s, bytes\n");
	else if (ri->opts && ri->opts->perftest_header)
		fprintf(f, " Units         : MB/sec as perftest = 2^20 bytes/s (MiB/s), "
			   "Mpps = 10^6 messages/s, bytes\n");
	else
		fprintf(f,
			" Units         : MiB/sec = 2^20 bytes/s, Mpps = 10^6 messages/s, bytes\n");
	fprintf(f, " Started       : %s\n", or_dash(ri->timestamp));
	fprintf(f, "%s\n", RULE);
}

static int text_begin(void *ctx, const struct gdr_run_info *ri)
{
	struct text *t = ctx;

	t->nrows = 0;
	t->untimed_note = false;
	memset(t->cmp, 0, sizeof(t->cmp));
	t->judged = t->failed = 0;
	if (!(ri->opts && ri->opts->quiet))
		print_header(t, ri);
	fflush(t->out);
	return 0;
}

/* Prints one column label, remembering its width (at least 10, plus a space). */
static void col(struct text *t, const char *label)
{
	int w = (int)strlen(label) + 2;

	if (w < 12)
		w = 12;
	if (t->ncols < MAX_COLS)
		t->width[t->ncols++] = w;
	put(t, w, label);
}

/* A column whose label carries the unit: "BW peak[MiB/sec]". */
static void col_unit(struct text *t, const char *what, const char *unit)
{
	char label[64];

	snprintf(label, sizeof(label), "%s[%s]", what, unit);
	col(t, label);
}

static void table_header(struct text *t, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	bool pt = ri->opts && ri->opts->perftest_header; /* perftest's words, same figures */
	const char *unit = ri->report_gbits ? "Gb/sec" : pt ? "MB/sec" : "MiB/sec";
	char label[40];
	int i;

	t->path_col = (r->path && strcmp(r->path, "host") != 0) || ri->staged_path || ri->ref_path;
	t->speedup_col = ri->ratio_col || r->speedup > 0;
	t->chunk_col = !r->has_lat && (ri->staged_path || r->stage_chunk);
	t->copy_col = ri->staged_path || r->stage_copy[0];
	t->model_cols = !r->has_lat && (ri->ref_path || r->model_Bps > 0);
	t->cpu_col = ri->opts && (ri->opts->events || ri->opts->cpu_util);
	t->delivery_cols = r->has_delivery;
	t->ceil_cols = !r->has_lat; /* in the table's unit, whichever it is */
	t->spread_cols = r->repeats > 1 || (ri->opts && ri->opts->compare && ri->opts->repeat > 1);
	t->rail_col = ri->opts && ri->opts->rails;
	t->ncols = 0;
	if (r->has_lat)
		fprintf(t->out, " t_* are %s times in usec\n", or_dash(r->lat_kind));
	put(t, 1, " ");
	if (t->rail_col)
		col(t, "#rail");
	col(t, "#bytes");
	col(t, "#iterations");
	if (r->has_lat) {
		col(t, "t_min[usec]");
		col(t, "t_max[usec]");
		col(t, pt ? "t_typical[usec]" : "t_median[usec]");
		col(t, "t_avg[usec]");
		col(t, "t_stdev[usec]");
		for (i = 0; i < r->lat.npct && i < GDR_MAX_PCT; i++) {
			if (pt)
				snprintf(label, sizeof(label), "%g%% percentile[usec]",
					 r->lat.pct_q[i]);
			else
				snprintf(label, sizeof(label), "%.2f%%[usec]", r->lat.pct_q[i]);
			col(t, label);
		}
		if (t->spread_cols) {
			col(t, "cv[%]");
			col(t, "t_median min-max[usec]");
		}
	} else {
		col_unit(t, "BW peak", unit);
		col_unit(t, "BW average", unit);
		col(t, "MsgRate[Mpps]");
		if (t->spread_cols) {
			col(t, "cv[%]");
			col_unit(t, "BW avg min-max", unit);
		}
	}
	if (t->path_col)
		col(t, "path");
	if (t->chunk_col)
		col(t, "chunk[bytes]");
	if (t->copy_col)
		col(t, "stage_copy");
	if (t->model_cols) {
		col_unit(t, "copy", unit);
		col_unit(t, "model", unit);
		col(t, "efficiency");
	}
	if (t->cpu_col)
		col(t, "CPU[%]");
	if (t->delivery_cols) {
		col_unit(t, "delivered", unit);
		col(t, "lost[msgs]");
		col(t, "loss[%]");
	}
	if (t->ceil_cols) {
		col_unit(t, "ceiling", unit);
		col(t, "of_ceiling");
		if (t->ncols < MAX_COLS)
			t->width[t->ncols++] = LIMIT_W;
		put(t, LIMIT_W, "limit");
	}
	if (t->rail_col)
		col(t, "verdict");
	/* each cell names the ratio it holds: > 1 means direct is faster */
	if (t->speedup_col)
		put(t, 0, r->has_lat ? "ratio (PATH/direct, usec)" : "ratio (direct/PATH, BW)");
	flush_line(t);
}

static void cell(struct text *t, int *i, int prec, double v)
{
	char s[48];

	if (isfinite(v))
		snprintf(s, sizeof(s), "%.*f", prec, v);
	else
		snprintf(s, sizeof(s), "-");
	put(t, *i < t->ncols ? t->width[*i] : 12, s);
	(*i)++;
}

/* --repeat: the key figure's cv and range (conv: bandwidth to the table's unit; NULL usec). */
static void spread(struct text *t, int *i, const struct gdr_result *r, double (*conv)(double))
{
	char s[64];

	if (!t->spread_cols)
		return;
	cell(t, i, 1, r->repeats > 1 ? 100 * r->fig_cv : NAN);
	if (r->repeats > 1)
		snprintf(s, sizeof(s), "%.2f-%.2f", conv ? conv(r->fig_min) : r->fig_min,
			 conv ? conv(r->fig_max) : r->fig_max);
	else
		snprintf(s, sizeof(s), "-");
	put(t, *i < t->ncols ? t->width[*i] : 12, s);
	(*i)++;
}

/* The ratio, named for what it divides: "direct/staged 1.51x [1.20-2.64]". */
static void ratio_cell(struct text *t, const struct gdr_result *r)
{
	const char *of = or_dash(r->ratio_of);
	char s[96];
	int n;

	if (r->has_lat)
		n = snprintf(s, sizeof(s), "%s/direct %.2fx", of, r->speedup);
	else
		n = snprintf(s, sizeof(s), "direct/%s %.2fx", of, r->speedup);
	if (r->repeats > 1 && n > 0 && (size_t)n < sizeof(s))
		snprintf(s + n, sizeof(s) - (size_t)n, " [%.2f-%.2f]", r->speedup_min,
			 r->speedup_max);
	put(t, 0, s);
}

static int text_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct text *t = ctx;
	char s[48];
	int i = 0, k;

	if (t->nrows++ == 0)
		table_header(t, ri, r);
	put(t, 1, " ");
	if (t->rail_col) {
		char rail[80];

		snprintf(rail, sizeof(rail), ri->ib_port > 0 ? "%s:%d" : "%s", or_dash(ri->rdma_dev),
			 ri->ib_port);
		put(t, t->width[i++], rail);
	}
	snprintf(s, sizeof(s), "%llu", (unsigned long long)r->bytes);
	put(t, t->width[i++], s);
	snprintf(s, sizeof(s), "%llu", (unsigned long long)r->iters);
	put(t, t->width[i++], s);
	if (r->has_lat) {
		cell(t, &i, 2, r->lat.min);
		cell(t, &i, 2, r->lat.max);
		cell(t, &i, 2, r->lat.median);
		cell(t, &i, 2, r->lat.avg);
		cell(t, &i, 2, r->lat.stdev);
		for (k = 0; k < r->lat.npct && k < GDR_MAX_PCT; k++)
			cell(t, &i, 2, r->lat.pct_v[k]);
		spread(t, &i, r, NULL);
	} else {
		double (*conv)(double) = ri->report_gbits ? gdr_to_gbps : gdr_to_mibps;

		if (isfinite(r->bw_peak_Bps))
			cell(t, &i, 2, conv(r->bw_peak_Bps));
		else
			put(t, t->width[i++], "n/a"); /* run shorter than one peak window */
		cell(t, &i, 2, conv(r->bw_avg_Bps));
		cell(t, &i, 6, r->msg_rate_pps / 1e6);
		spread(t, &i, r, conv);
	}
	if (t->path_col && r->target_copy_untimed) {
		snprintf(s, sizeof(s), "%s*", or_dash(r->path));
		put(t, i < t->ncols ? t->width[i++] : 12, s);
		t->untimed_note = true;
	} else if (t->path_col) {
		put(t, i < t->ncols ? t->width[i++] : 12, or_dash(r->path));
	}
	if (t->chunk_col) {
		snprintf(s, sizeof(s), "%llu", (unsigned long long)r->stage_chunk);
		put(t, i < t->ncols ? t->width[i++] : 12, r->stage_chunk ? s : "-");
	}
	if (t->copy_col)
		put(t, i < t->ncols ? t->width[i++] : 12, r->stage_copy[0] ? r->stage_copy : "-");
	if (t->model_cols) {
		double cp = ri->report_gbits ? gdr_to_gbps(r->copy_Bps) : gdr_to_mibps(r->copy_Bps);
		double md = ri->report_gbits ? gdr_to_gbps(r->model_Bps) : gdr_to_mibps(r->model_Bps);

		cell(t, &i, 2, r->copy_Bps > 0 ? cp : NAN);
		cell(t, &i, 2, r->model_Bps > 0 ? md : NAN);
		cell(t, &i, 2, r->efficiency > 0 ? r->efficiency : NAN);
	}
	if (t->cpu_col)
		cell(t, &i, 1, r->cpu_pct > 0 ? r->cpu_pct : NAN);
	if (t->delivery_cols) {
		double (*conv)(double) = ri->report_gbits ? gdr_to_gbps : gdr_to_mibps;

		cell(t, &i, 2, r->has_delivery ? conv(r->delivered_Bps) : NAN);
		snprintf(s, sizeof(s), "%llu", (unsigned long long)r->lost);
		put(t, i < t->ncols ? t->width[i++] : 12, r->has_delivery ? s : "-");
		cell(t, &i, 2,
		     r->has_delivery && r->sent_total
			 ? 100.0 * (double)r->lost / (double)r->sent_total
			 : NAN);
	}
	if (t->ceil_cols) {
		double (*conv)(double) = ri->report_gbits ? gdr_to_gbps : gdr_to_mibps;

		cell(t, &i, 2, r->ceiling_Bps > 0 ? conv(r->ceiling_Bps) : NAN);
		cell(t, &i, 2, r->ceiling_Bps > 0 ? r->bw_avg_Bps / r->ceiling_Bps : NAN);
		put(t, i < t->ncols ? t->width[i++] : LIMIT_W, or_dash(r->ceil_limit));
	}
	if (t->rail_col)
		put(t, i < t->ncols ? t->width[i++] : 12,
		    r->verdict == GDR_VERDICT_FAIL   ? "FAIL"
		    : r->verdict == GDR_VERDICT_PASS ? "PASS"
						     : "-");
	if (t->speedup_col && r->speedup > 0) {
		ratio_cell(t, r);
		for (k = 0; k < 2; k++)
			if (!t->cmp[k].of || (r->ratio_of && !strcmp(t->cmp[k].of, r->ratio_of))) {
				gdr_cmp_add(&t->cmp[k], r);
				break;
			}
	}
	if (gdr_verdict_name(r->verdict)) { /* a floor is set: the row's verdict, last */
		snprintf(s, sizeof(s), " %s", gdr_verdict_name(r->verdict));
		if (!t->rail_col) /* the rails' verdict column has it */
			put(t, 0, s);
		t->judged++;
		t->failed += r->verdict == GDR_VERDICT_FAIL;
	}
	flush_line(t);
	if (r->eff_over > 0) /* the invariant efficiency <= 1, broken: not shown, said */
		fprintf(t->out,
			"   note: %llu bytes, %s: above its model (staged/model %.2f > 1): a leg "
			"of the model measured low; efficiency not shown\n",
			(unsigned long long)r->bytes, or_dash(r->path), r->eff_over);
	if (t->rail_col && r->why[0]) /* a rail's failure: why, under its row */
		fprintf(t->out, "   %s: %s\n", r->verdict == GDR_VERDICT_FAIL ? "FAIL" : "note",
			r->why);
	if (r->cnt) { /* -W: one line per row */
		char moved[2048];

		gdr_counters_format(r->cnt, r->ncnt, moved, sizeof(moved));
		/* read around the whole size, not at the timed run's edges (issue 34.10) */
		fprintf(t->out, "   counters %s (whole size%s): %s\n", or_dash(r->cnt_dev),
			ri->opts && ri->opts->duration > 0 ? ", the drain after -D too" : "",
			r->ncnt ? moved : "none moved");
	}
	fflush(t->out);
	return ferror(t->out) ? -1 : 0;
}

static int text_end(void *ctx, const struct gdr_run_info *ri)
{
	struct text *t = ctx;

	if (!t->nrows && ri->kind == GDR_KIND_LAT && ri->role && !strcmp(ri->role, "server"))
		fprintf(t->out, " latency is measured and printed by the client (%s)\n",
			ri->remote_host[0] ? ri->remote_host : "the other side");
	else if (!t->nrows)
		fprintf(t->out, " no results\n");
	if (t->rail_col && t->failed) /* a rail that could not run fails with no floor */
		fprintf(t->out,
			" verdict: FAIL (%d of %d judged rows: below a floor or a rail "
			"failed, each row's reason under it)\n",
			t->failed, t->judged);
	else if (t->judged && t->failed)
		fprintf(t->out, " verdict: FAIL (%d of %d judged rows below their floor)\n",
			t->failed, t->judged);
	else if (t->judged)
		fprintf(t->out, " verdict: PASS (%d of %d judged rows at or above their floor)\n",
			t->judged, t->judged);
	for (int k = 0; k < 2; k++) {
		char lines[2048];
		const char *l = lines;

		gdr_cmp_lines(&t->cmp[k], lines, sizeof(lines));
		while (*l) {
			size_t n = strcspn(l, "\n");

			fprintf(t->out, " %.*s\n", (int)n, l);
			l += n + (l[n] == '\n');
		}
	}
	if (t->untimed_note)
		fprintf(t->out,
			" * staged read latency: the target's device->host copy is outside "
			"the timing (its ring is staged once, before the clock), so the row "
			"is not compared with direct\n");
	fprintf(t->out, "%s\n", RULE);
	if (fflush(t->out) != 0 || ferror(t->out)) {
		gdr_err("cannot write the results table (is the output closed or the disk full?)");
		return -1;
	}
	return 0;
}

static void text_destroy(void *ctx)
{
	free(ctx);
}

static const struct gdr_reporter_ops text_ops = {
    .name = "text",
    .begin = text_begin,
    .row = text_row,
    .end = text_end,
    .destroy = text_destroy,
};

int gdr_report_text_new(struct gdr_reporter *r, FILE *out)
{
	struct text *t = calloc(1, sizeof(*t));

	if (!t) {
		gdr_err("out of memory");
		return -1;
	}
	t->out = out;
	r->ops = &text_ops;
	r->ctx = t;
	return 0;
}

FILE *gdr_text_stream(const struct gdr_report_files *f)
{
	return (f->json && strcmp(f->json, "-") == 0) || f->output ? stderr : stdout;
}

static int text_open(struct gdr_reporter *r, const struct gdr_report_files *f)
{
	if (f->output || f->no_text) /* --output: the number reporter writes stdout instead */
		return 0;
	return gdr_report_text_new(r, gdr_text_stream(f)) < 0 ? -1 : 1;
}

const struct gdr_reporter_kind gdr_reporter_text = {"text", text_open};
