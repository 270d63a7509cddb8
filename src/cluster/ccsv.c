/* SPDX-License-Identifier: MIT */
/* The cluster run's long-format CSV: one row per pair, size and path (or per failure/skip). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cluster_int.h"
#include "log.h"
#include "report_priv.h"

void gdr_ccsv_header(FILE *f)
{
	fputs("run_id,round,pattern,test,bytes,path,host_a,rail_a,nic_a,gpu_a,host_b,rail_b,"
	      "nic_b,gpu_b,status,bw_gbps,lat_median_us,lat_p99_us,iterations,seconds,error\n",
	      f);
}

static void field(struct gdr_sbuf *b, const char *s)
{
	gdr_csv_put_field(b, s);
	gdr_sbuf_putc(b, ',');
}

static void end(struct gdr_sbuf *b, const struct gdr_place *p)
{
	if (p) {
		field(b, p->host);
		gdr_sbuf_printf(b, "%d,", p->rail);
		field(b, p->nic);
		field(b, p->gpu);
	} else {
		gdr_sbuf_puts(b, ",,,,");
	}
}

/* A number, or an empty cell when it does not apply. */
static void num(struct gdr_sbuf *b, double v)
{
	if (v > 0)
		gdr_sbuf_printf(b, "%.3f", v);
	gdr_sbuf_putc(b, ',');
}

/* A count, or an empty cell when it does not apply. */
static void count(struct gdr_sbuf *b, uint64_t v)
{
	if (v)
		gdr_sbuf_printf(b, "%llu", (unsigned long long)v);
	gdr_sbuf_putc(b, ',');
}

static void row(struct gdr_sbuf *b, const struct gdr_ccsv *cx, const struct gdr_crow *r)
{
	field(b, cx->run_id);
	gdr_sbuf_printf(b, "%d,", r->round);
	field(b, cx->pattern);
	field(b, cx->test);
	count(b, r->bytes);
	field(b, r->path);
	end(b, &cx->pl[r->a]);
	end(b, r->b >= 0 ? &cx->pl[r->b] : NULL);
	field(b, gdr_cstatus_name(r->status));
	num(b, r->bw_gbps);
	num(b, r->lat_med_us);
	num(b, r->lat_p99_us);
	count(b, r->iters);
	num(b, r->seconds);
	gdr_csv_put_field(b, r->err);
	gdr_sbuf_putc(b, '\n');
}

void gdr_ccsv_rows(FILE *f, const struct gdr_ccsv *cx, const struct gdr_crow *rows, size_t n)
{
	struct gdr_sbuf b = {0};

	for (size_t i = 0; i < n; i++) {
		b.len = 0;
		row(&b, cx, &rows[i]);
		if (!b.oom)
			fwrite(b.p, 1, b.len, f);
	}
	gdr_sbuf_free(&b);
}

int gdr_ccsv_rewrite(const char *path, const struct gdr_ccsv *cx, const struct gdr_crow *rows,
		     size_t n)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		gdr_err("cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	gdr_ccsv_header(f);
	gdr_ccsv_rows(f, cx, rows, n);
	if (fclose(f) || rename(tmp, path)) {
		gdr_err("cannot write %s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}
