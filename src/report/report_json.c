/* SPDX-License-Identifier: MIT */
/*
 * JSON reporter (--json=FILE, "-" = stdout): one document per run,
 *   {"schema_version", "tool": {name, version}, "run": {..., "units": {}},
 *    "results": [ {...}, ... ]}
 * The document is built in memory and written at end(): to FILE.tmp, then
 * renamed over FILE, so an interrupted run never leaves an invalid file.
 * Fields that do not apply and non-finite numbers are null.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log.h"
#include "report_priv.h"

struct json {
	char *path; /* NULL: stdout */
	struct gdr_sbuf doc;
	int nresults;
};

void gdr_json_str(struct gdr_sbuf *b, const char *s)
{
	gdr_sbuf_putc(b, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '"':
			gdr_sbuf_puts(b, "\\\"");
			break;
		case '\\':
			gdr_sbuf_puts(b, "\\\\");
			break;
		case '\n':
			gdr_sbuf_puts(b, "\\n");
			break;
		case '\r':
			gdr_sbuf_puts(b, "\\r");
			break;
		case '\t':
			gdr_sbuf_puts(b, "\\t");
			break;
		default:
			if (ch < 0x20 || ch == 0x7f)
				gdr_sbuf_printf(b, "\\u%04x", ch);
			else
				gdr_sbuf_putc(b, (char)ch);
		}
	}
	gdr_sbuf_putc(b, '"');
}

static const struct gdr_cell_style json_style = {
    .none = "null", .str = gdr_json_str, .yes = "true", .no = "false"};

/* Members "name": value, each on its own line at the given indent. */
void gdr_json_members(struct gdr_sbuf *b, const struct gdr_cell *c, int n, const char *ind,
			bool more)
{
	int i;

	for (i = 0; i < n; i++) {
		gdr_sbuf_puts(b, ind);
		gdr_json_str(b, c[i].name);
		gdr_sbuf_puts(b, ": ");
		gdr_put_cell(b, &c[i], &json_style);
		gdr_sbuf_puts(b, i + 1 < n || more ? ",\n" : "\n");
	}
}

static void put_units(struct gdr_sbuf *b, const struct gdr_cell *c, int n, bool *first)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!c[i].unit)
			continue;
		gdr_sbuf_puts(b, *first ? "\n      " : ",\n      ");
		*first = false;
		gdr_json_str(b, c[i].name);
		gdr_sbuf_puts(b, ": ");
		gdr_json_str(b, c[i].unit);
	}
}

static int json_begin(void *ctx, const struct gdr_run_info *ri)
{
	struct json *js = ctx;
	struct gdr_sbuf *b = &js->doc;
	struct gdr_cell c[GDR_MAX_CELLS];
	const double *q;
	char num[40];
	bool first = true;
	int i, n, nq;

	gdr_sbuf_printf(b, "{\n  \"schema_version\": %d,\n", GDR_CSV_SCHEMA);
	gdr_sbuf_puts(b, "  \"tool\": {\"name\": ");
	gdr_json_str(b, PACKAGE_NAME);
	gdr_sbuf_puts(b, ", \"version\": ");
	gdr_json_str(b, ri->tool_version ? ri->tool_version : PACKAGE_VERSION);
	gdr_sbuf_puts(b, "},\n  \"run\": {\n");
	/* the run columns of the CSV, less schema_version (above) */
	n = gdr_cells_run(ri, c, GDR_MAX_CELLS);
	gdr_json_members(b, c + 1, n - 1, "    ", true);
	gdr_sbuf_puts(b, "    \"clock_res_ns\": ");
	if (ri->clock_res_ns > 0) {
		gdr_fmt_double(num, sizeof(num), ri->clock_res_ns);
		gdr_sbuf_puts(b, num);
	} else {
		gdr_sbuf_puts(b, "null");
	}
	gdr_sbuf_printf(b, ",\n    \"report_gbits\": %s,\n    \"percentiles\": [",
			ri->report_gbits ? "true" : "false");
	nq = gdr_report_pcts(ri, &q);
	for (i = 0; i < nq && i < GDR_MAX_PCT; i++) {
		gdr_fmt_double(num, sizeof(num), q[i]);
		gdr_sbuf_printf(b, "%s%s", i ? ", " : "", num);
	}
	gdr_sbuf_puts(b, "],\n    \"units\": {");
	put_units(b, c, n, &first);
	n = gdr_cells_result(ri, NULL, c, GDR_MAX_CELLS);
	put_units(b, c, n, &first);
	gdr_sbuf_puts(b, ",\n      \"clock_res_ns\": \"ns\"\n    },\n"
			 "    \"unit_definitions\": {\n"
			 "      \"bytes\": \"bytes\",\n"
			 "      \"s\": \"seconds\",\n"
			 "      \"ns\": \"nanoseconds\",\n"
			 "      \"us\": \"microseconds\",\n"
			 "      \"MiB/s\": \"2^20 bytes per second\",\n"
			 "      \"Gb/s\": \"10^9 bits per second\",\n"
			 "      \"Mpps\": \"10^6 messages per second\",\n"
			 "      \"blocks/s\": \"KV blocks (operations of --block bytes) per "
			 "second\",\n"
			 "      \"%\": \"percent: cpu_util_pct of one CPU core (user+sys CPU time / "
			 "wall time); loss_pct of the messages sent\",\n"
			 "      \"ratio\": \"direct_over_staged (direct_over_gpu_proxy): how many "
			 "times direct beats staged (gpu-proxy), > 1: direct faster, direct/staged "
			 "bandwidth, staged/direct latency; ratio_min, ratio_max: its range over the "
			 "repeats; cv: stdev/mean of bw_avg (t_median) over the repeats; "
			 "efficiency: staged/model, at most 1; kv_efficiency: scattered/contiguous "
			 "bandwidth, not clamped\"\n"
			 "    }\n  },\n  \"results\": [");
	return 0;
}

/*
 * --matrix: a row's own cell's facts (the run object describes the matrix): its GPU, its
 * NIC port and their PCIe relation, the direction and where its packets turn (schema 6), and
 * what that port and GPU ran with.
 */
static void cell_facts(struct gdr_sbuf *b, const struct gdr_run_info *ri)
{
	static const char *const names[] = {"rdma_dev", "ib_port",   "link_layer", "gid_index",
					    "mtu",	"gpu_name",  "gpu_pci",	   "topology",
					    "reg_method", "cpu_placement", "direction", "loopback"};
	struct gdr_cell c[GDR_MAX_CELLS], pick[GDR_MAX_CELLS];
	int n = gdr_cells_run(ri, c, GDR_MAX_CELLS), k = 0;

	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < sizeof(names) / sizeof(names[0]); j++)
			if (!strcmp(c[i].name, names[j]))
				pick[k++] = c[i];
	gdr_json_members(b, pick, k, "      ", true);
}

static int json_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct json *js = ctx;
	struct gdr_cell c[GDR_MAX_CELLS];
	int n;

	gdr_sbuf_puts(&js->doc, js->nresults++ ? ",\n    {\n" : "\n    {\n");
	if (ri->opts && ri->opts->matrix) /* --matrix: every row is a cell of its own */
		cell_facts(&js->doc, ri);
	n = gdr_cells_result(ri, r, c, GDR_MAX_CELLS);
	gdr_json_members(&js->doc, c, n, "      ", false);
	gdr_sbuf_puts(&js->doc, "    }");
	return 0;
}

static int write_all(FILE *f, const struct gdr_sbuf *b)
{
	return fwrite(b->p, 1, b->len, f) == b->len ? 0 : -1;
}

static int write_file(struct json *js)
{
	size_t len = strlen(js->path) + 5;
	char *tmp = malloc(len);
	FILE *f;
	int ret = -1;

	if (!tmp) {
		gdr_err("--json=%s: out of memory", js->path);
		return -1;
	}
	snprintf(tmp, len, "%s.tmp", js->path);
	f = fopen(tmp, "w");
	if (!f) {
		gdr_err("--json=%s: cannot create %s: %s", js->path, tmp, strerror(errno));
		goto out;
	}
	if (write_all(f, &js->doc) < 0 || fflush(f) != 0 || fsync(fileno(f)) < 0) {
		gdr_err("--json=%s: cannot write %s: %s (check free space)", js->path, tmp,
			strerror(errno));
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) != 0 || rename(tmp, js->path) < 0) {
		gdr_err("--json=%s: cannot put %s in place: %s", js->path, tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	return ret;
}

static int json_end(void *ctx, const struct gdr_run_info *ri)
{
	struct json *js = ctx;

	gdr_sbuf_puts(&js->doc, js->nresults ? "\n  ]" : "]");
	if (ri && ri->stopped[0]) { /* the results above are the sizes that completed */
		gdr_sbuf_puts(&js->doc, ",\n  \"interrupted\": ");
		gdr_json_str(&js->doc, ri->stopped);
	}
	gdr_sbuf_puts(&js->doc, "\n}\n");
	if (js->doc.oom) {
		gdr_err("--json=%s: out of memory building the document",
			js->path ? js->path : "-");
		return -1;
	}
	if (js->path)
		return write_file(js);
	if (write_all(stdout, &js->doc) < 0 || fflush(stdout) != 0) {
		gdr_err("--json=-: cannot write to stdout: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void json_destroy(void *ctx)
{
	struct json *js = ctx;

	gdr_sbuf_free(&js->doc);
	free(js->path);
	free(js);
}

static const struct gdr_reporter_ops json_ops = {
    .name = "json",
    .begin = json_begin,
    .row = json_row,
    .end = json_end,
    .destroy = json_destroy,
};

static int probe_tmp(const char *path)
{
	size_t len = strlen(path) + 5;
	char *tmp = malloc(len);
	FILE *f;

	if (!tmp) {
		gdr_err("--json=%s: out of memory", path);
		return -1;
	}
	snprintf(tmp, len, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		gdr_err("--json=%s: cannot create %s: %s (choose a writable directory)", path, tmp,
			strerror(errno));
		free(tmp);
		return -1;
	}
	fclose(f);
	unlink(tmp);
	free(tmp);
	return 0;
}

int gdr_report_json_new(struct gdr_reporter *r, const char *path)
{
	struct json *js = calloc(1, sizeof(*js));

	if (!js) {
		gdr_err("--json: out of memory");
		return -1;
	}
	if (strcmp(path, "-") != 0) {
		js->path = strdup(path);
		if (!js->path) {
			gdr_err("--json=%s: out of memory", path);
			free(js);
			return -1;
		}
		/* fail now, not after the run, if FILE.tmp cannot be created */
		if (probe_tmp(js->path) < 0) {
			json_destroy(js);
			return -1;
		}
	}
	r->ops = &json_ops;
	r->ctx = js;
	return 0;
}

static int json_open(struct gdr_reporter *r, const struct gdr_report_files *f)
{
	if (!f->json)
		return 0;
	return gdr_report_json_new(r, f->json) < 0 ? -1 : 1;
}

const struct gdr_reporter_kind gdr_reporter_json = {"json", json_open};
