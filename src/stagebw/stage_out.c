/* SPDX-License-Identifier: MIT */
/*
 * The multi-GPU run's output: a text table on stdout, and --csv / --json
 * with one row per GPU and one aggregate row per size and direction, built
 * from the reporters' cells (the same quoting, numbers and nulls).
 */
#include "config.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "report_priv.h"
#include "stage_multi.h"

struct stage_out {
	const struct stage_multi *mu;
	FILE *csv;
	struct gdr_sbuf json; /* the document, written at close */
	int nrows;
};

/* The row's cells, or with r == NULL the names only (the CSV header). */
static int row_cells(const struct stage_out *so, const struct stage_row *r, struct gdr_cell *c)
{
	static const struct stage_row none;
	struct gdr_cells cs = {.c = c, .max = GDR_MAX_CELLS, .names_only = !r};
	const struct stage_gpu *g;
	bool gpu, agg;

	if (!r)
		r = &none;
	g = r->g;
	gpu = g != NULL;
	agg = !cs.names_only && !gpu;
	gdr_cells_u64(&cs, "schema_version", NULL, GDR_STAGE_SCHEMA);
	gdr_cells_str(&cs, "tool_version", PACKAGE_VERSION);
	gdr_cells_str(&cs, "row", gpu ? "gpu" : "aggregate");
	gdr_cells_u64(&cs, "gpus", NULL, so->mu->n);
	if (gpu) {
		gdr_cells_i64(&cs, "gpu_index", NULL, g->index);
		gdr_cells_str(&cs, "gpu_name", g->b.m.gpu_name);
		gdr_cells_str(&cs, "gpu_pci", g->b.m.gpu_pci);
	} else {
		gdr_cells_str(&cs, "gpu_index", NULL);
		gdr_cells_str(&cs, "gpu_name", NULL);
		gdr_cells_str(&cs, "gpu_pci", NULL);
	}
	gdr_cells_num(&cs, "gpu_numa", NULL, gpu && g->numa >= 0, gpu ? g->numa : 0);
	gdr_cells_num(&cs, "buffer_numa", NULL, gpu && g->buf_numa >= 0, gpu ? g->buf_numa : 0);
	gdr_cells_str(&cs, "cpus", gpu ? g->cpus : NULL);
	gdr_cells_u64(&cs, "bytes", "bytes", r->size);
	gdr_cells_str(&cs, "dir", cs.names_only ? NULL : stage_dir_name(r->dir));
	gdr_cells_str(&cs, "host_mem", so->mu->o->pageable ? "pageable" : "pinned");
	gdr_cells_u64(&cs, "streams", NULL, (uint64_t)so->mu->ns);
	gdr_cells_u64(&cs, "iters", NULL, r->iters);
	gdr_cells_u64(&cs, "bytes_moved", "bytes", r->bytes);
	gdr_cells_num(&cs, "start_s", "s", true, r->start_s);
	gdr_cells_num(&cs, "end_s", "s", true, r->end_s);
	gdr_cells_num(&cs, "gbps", "GB/s", true, r->gbps);
	gdr_cells_num(&cs, "usec_per_copy", "us", gpu,
		      (r->end_s - r->start_s) / (double)r->iters * 1e6);
	gdr_cells_num(&cs, "host_memcpy_traffic_gbps", "GB/s", agg && r->memcpy_gbps > 0,
		      r->memcpy_gbps);
	return cs.n;
}

static int csv_line(struct stage_out *so, const struct stage_row *r)
{
	struct gdr_cell c[GDR_MAX_CELLS];
	struct gdr_sbuf b = {0};
	int n = row_cells(so, r, c), rc = 0;

	gdr_csv_cells(&b, c, n, !r);
	gdr_sbuf_putc(&b, '\n');
	if (b.oom || fwrite(b.p, 1, b.len, so->csv) != b.len) {
		gdr_err("--csv=%s: %s", so->mu->o->csv_file,
			b.oom ? "out of memory" : strerror(errno));
		rc = -1;
	}
	gdr_sbuf_free(&b);
	return rc;
}

static void json_row(struct stage_out *so, const struct stage_row *r)
{
	struct gdr_cell c[GDR_MAX_CELLS];
	int n = row_cells(so, r, c);

	gdr_sbuf_puts(&so->json, so->nrows ? ",\n    {\n" : "\n    {\n");
	gdr_json_members(&so->json, c + 1, n - 1, "      ", false); /* less schema_version */
	gdr_sbuf_puts(&so->json, "    }");
}

static void text_row(const struct stage_out *so, const struct stage_row *r)
{
	char gpu[16], numa[16], usec[24], vs[64] = "";

	if (r->g) {
		snprintf(gpu, sizeof(gpu), "%d", r->g->index);
		if (r->g->numa >= 0)
			snprintf(numa, sizeof(numa), "%d", r->g->numa);
		else
			snprintf(numa, sizeof(numa), "?");
		snprintf(usec, sizeof(usec), "%.2f",
			 (r->end_s - r->start_s) / (double)r->iters * 1e6);
	} else {
		snprintf(gpu, sizeof(gpu), "all(%zu)", so->mu->n);
		snprintf(numa, sizeof(numa), "-");
		snprintf(usec, sizeof(usec), "-");
		if (r->memcpy_gbps > 0)
			snprintf(vs, sizeof(vs), "  %.0f%% of the host memcpy probe's traffic",
				 100.0 * r->gbps / r->memcpy_gbps);
	}
	printf("%-12llu %-6s %-8s %-5s %-15.2f %-10s %-9.3f %.3f%s\n", (unsigned long long)r->size,
	       stage_dir_name(r->dir), gpu, numa, r->gbps, usec, r->start_s * 1e3, r->end_s * 1e3,
	       vs);
	fflush(stdout);
}

struct stage_out *stage_out_open(const struct stage_multi *mu)
{
	const struct stage_opts *o = mu->o;
	struct stage_out *so = calloc(1, sizeof(*so));

	if (!so) {
		gdr_err("out of memory");
		return NULL;
	}
	so->mu = mu;
	if (o->csv_file) {
		so->csv = fopen(o->csv_file, "w");
		if (!so->csv || csv_line(so, NULL)) {
			if (!so->csv)
				gdr_err("--csv=%s: %s", o->csv_file, strerror(errno));
			stage_out_close(so);
			return NULL;
		}
	}
	if (o->json_file) {
		gdr_sbuf_printf(&so->json, "{\n  \"schema_version\": %d,\n  \"tool\": {\"name\": ",
				GDR_STAGE_SCHEMA);
		gdr_json_str(&so->json, "gdr_stage_bw");
		gdr_sbuf_puts(&so->json, ", \"version\": ");
		gdr_json_str(&so->json, PACKAGE_VERSION);
		gdr_sbuf_puts(&so->json, "},\n  \"rows\": [");
	}
	printf("%-12s %-6s %-8s %-5s %-15s %-10s %-9s %s\n", "#bytes", "dir", "gpu", "numa",
	       "GB/s(10^9 B/s)", "usec/copy", "start_ms", "end_ms");
	return so;
}

int stage_out_row(struct stage_out *so, const struct stage_row *r)
{
	text_row(so, r);
	if (so->csv && csv_line(so, r))
		return -1;
	if (so->mu->o->json_file)
		json_row(so, r);
	so->nrows++;
	return 0;
}

/* The JSON document to its file, through FILE.tmp and a rename. */
static int json_write(struct stage_out *so)
{
	const char *path = so->mu->o->json_file;
	size_t n = strlen(path) + 5;
	char *tmp = malloc(n);
	FILE *f;
	int rc = -1;

	gdr_sbuf_puts(&so->json, so->nrows ? "\n  ]\n}\n" : "]\n}\n");
	if (!tmp || so->json.oom) {
		gdr_err("--json=%s: out of memory", path);
		free(tmp);
		return -1;
	}
	snprintf(tmp, n, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (f) {
		bool written = fwrite(so->json.p, 1, so->json.len, f) == so->json.len;

		/* closed once, whatever the write did; renamed only when all of it went out */
		if (!fclose(f) && written)
			rc = rename(tmp, path) ? -1 : 0;
	}
	if (rc) {
		gdr_err("--json=%s: %s", path, strerror(errno));
		remove(tmp);
	}
	free(tmp);
	return rc;
}

int stage_out_close(struct stage_out *so)
{
	int rc = 0;

	if (so->csv && fclose(so->csv)) {
		gdr_err("--csv=%s: %s", so->mu->o->csv_file, strerror(errno));
		rc = -1;
	}
	if (so->mu->o->json_file && so->json.len && json_write(so))
		rc = -1;
	gdr_sbuf_free(&so->json);
	free(so);
	return rc;
}
