/* SPDX-License-Identifier: MIT */
/*
 * The multi-GPU run's output: a text table on stdout, and --csv / --json
 * with one row per GPU and one aggregate row per size and direction, built
 * from the reporters' cells (the same quoting, numbers and nulls).
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "affinity.h"
#include "ceiling.h"
#include "log.h"
#include "report_priv.h"
#include "stage_multi.h"

struct stage_out {
	const struct stage_multi *mu;
	FILE *csv;
	struct gdr_sbuf json; /* the document, written at close */
	int nrows;
	double *ceil;	 /* per GPU: its PCIe ceiling one way, GB/s; 0 unknown */
	double ceil_sum; /* all of them; 0 when one is unknown */
};

/* A CUDA PCI address (upper case) as sysfs writes it. */
static void lower_bdf(const char *gpu_pci, char *bdf, size_t n)
{
	size_t i;

	for (i = 0; gpu_pci[i] && i + 1 < n; i++)
		bdf[i] = (char)tolower((unsigned char)gpu_pci[i]);
	bdf[i] = '\0';
}

double stage_pcie_ceiling(const char *gpu_pci, char *how, size_t n)
{
	char root[PATH_MAX], bdf[TOPO_BDF_LEN];
	struct pcie_link l;
	struct topo_loc loc;
	struct pcie_hop h = {0};
	double gts, Bps, up;
	size_t k;

	lower_bdf(gpu_pci, bdf, sizeof(bdf));
	gdr_host_root(root, sizeof(root));
	if (pcie_link_read(root, bdf, &l)) {
		snprintf(how, n, "GPU %s: PCIe link not readable in sysfs: no PCIe fraction", bdf);
		return 0;
	}
	gts = pcie_speed_taken(&l, true);
	Bps = pcie_payload_Bps(gts, l.width, l.mps);
	snprintf(how, n,
		 "GPU %s: PCIe Gen%d x%d%s, MPS %d B%s: ceiling %.1f GB/s each way "
		 "(GT/s x lanes x line encoding / 8 x MPS / (MPS + 24))",
		 bdf, pcie_gen(gts), l.width, gts > l.gts ? " (its maximum; idle now)" : "",
		 l.mps ? l.mps : CEIL_MPS_ASSUMED, l.mps ? "" : " assumed", Bps / 1e9);
	/* the copies cross every link up to the root port: the narrowest above the slot */
	if (!topo_locate(root, bdf, &loc))
		pcie_narrowest(root, &loc, 0, loc.depth - 1, &h);
	up = pcie_payload_Bps(h.gts, h.width, l.mps);
	if (up > 0 && up < Bps) {
		Bps = up;
		k = strlen(how);
		snprintf(how + k, n - k,
			 "; its path to the root port narrows to Gen%d x%d at %s: %.1f GB/s",
			 pcie_gen(h.gts), h.width, h.at, Bps / 1e9);
	}
	return Bps / 1e9;
}

/* The row's PCIe ceiling in GB/s (both ways for bidir), 0 unknown. */
static double row_ceiling(const struct stage_out *so, const struct stage_row *r)
{
	double c;

	if (!so->ceil)
		return 0;
	c = r->g ? so->ceil[r->g - so->mu->g] : so->ceil_sum;
	return r->dir == STAGE_BIDIR ? 2 * c : c;
}

/* The row's cells, or with r == NULL the names only (the CSV header). */
static int row_cells(const struct stage_out *so, const struct stage_row *r, struct gdr_cell *c)
{
	static const struct stage_row none;
	struct gdr_cells cs = {.c = c, .max = GDR_MAX_CELLS, .names_only = !r};
	const struct stage_gpu *g;
	bool gpu, agg;
	double ceil;

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
	ceil = cs.names_only ? 0 : row_ceiling(so, r);
	gdr_cells_num(&cs, "pcie_ceiling_gbps", "GB/s", ceil > 0, ceil);
	gdr_cells_num(&cs, "pcie_fraction", NULL, ceil > 0, ceil > 0 ? r->gbps / ceil : 0);
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
	char gpu[16], numa[16], usec[24], vs[64] = "", frac[16] = "-";
	double ceil = row_ceiling(so, r);

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
	if (ceil > 0)
		snprintf(frac, sizeof(frac), "%.2f", r->gbps / ceil);
	printf("%-12llu %-6s %-8s %-5s %-15.2f %-10s %-9.3f %-9.3f %s%s\n",
	       (unsigned long long)r->size, stage_dir_name(r->dir), gpu, numa, r->gbps, usec,
	       r->start_s * 1e3, r->end_s * 1e3, frac, vs);
	fflush(stdout);
}

/* GPUs under a bridge whose link carries less than their sum: the aggregate's ceiling is it. */
static void shared_uplinks(struct stage_out *so)
{
	const struct stage_multi *mu = so->mu;
	char root[PATH_MAX], at[TOPO_BDF_LEN], (*bdf)[TOPO_BDF_LEN] = calloc(mu->n, sizeof(*bdf));
	const char **list = calloc(mu->n, sizeof(*list));
	double *each = calloc(mu->n, sizeof(*each)), sum;

	if (bdf && list && each) {
		for (size_t i = 0; i < mu->n; i++) {
			lower_bdf(mu->g[i].b.m.gpu_pci, bdf[i], sizeof(bdf[i]));
			list[i] = bdf[i];
			each[i] = so->ceil[i] * 1e9;
		}
		gdr_host_root(root, sizeof(root));
		sum = pcie_shared_sum(root, list, each, (int)mu->n, at, sizeof(at)) / 1e9;
		if (at[0] && sum < so->ceil_sum) {
			gdr_info("the GPUs share the PCIe link at %s: the aggregate's ceiling is "
				 "%.1f GB/s each way, not the sum of theirs (%.1f)",
				 at, sum, so->ceil_sum);
			so->ceil_sum = sum;
		}
	}
	free(bdf);
	free(list);
	free(each);
}

/* Each GPU's PCIe ceiling (said on stderr) and their sum. 0, or -1 out of memory. */
static int ceilings(struct stage_out *so)
{
	const struct stage_multi *mu = so->mu;
	bool all = true;

	so->ceil = calloc(mu->n, sizeof(*so->ceil));
	if (!so->ceil) {
		gdr_err("out of memory");
		return -1;
	}
	for (size_t i = 0; i < mu->n; i++) {
		char how[256];

		so->ceil[i] = stage_pcie_ceiling(mu->g[i].b.m.gpu_pci, how, sizeof(how));
		gdr_info("%s", how);
		so->ceil_sum += so->ceil[i];
		all = all && so->ceil[i] > 0;
	}
	if (!all) {
		so->ceil_sum = 0;
		return 0;
	}
	shared_uplinks(so);
	return 0;
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
	if (ceilings(so)) {
		stage_out_close(so);
		return NULL;
	}
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
	printf("%-12s %-6s %-8s %-5s %-15s %-10s %-9s %-9s %s\n", "#bytes", "dir", "gpu", "numa",
	       "GB/s(10^9 B/s)", "usec/copy", "start_ms", "end_ms", "of_PCIe");
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
	free(so->ceil);
	free(so);
	return rc;
}
