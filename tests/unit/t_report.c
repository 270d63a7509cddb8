/* SPDX-License-Identifier: MIT */
/*
 * Reporters: fixed result records -> exact golden CSV, JSON and text, plus
 * independent checks (CSV parsed back, header written once over two
 * appends, refusal on a header mismatch, empty cells, JSON parsed by
 * python3 when present, no file left by an interrupted JSON run).
 * GDR_UPDATE_GOLDEN=DIR writes the outputs to DIR instead of comparing.
 */
#include "config.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "repeat.h"
#include "report.h"

#define DIR "t_report.tmp.d"

#include "check.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			p = realloc(p, cap);
			if (!p)
				abort();
		}
		r = fread(p + n, 1, 4096, f);
		n += r;
	} while (r > 0);
	fclose(f);
	p[n] = '\0';
	if (len)
		*len = n;
	return p;
}

/* Compares the file with tests/golden/<name> byte for byte (or updates it). */
static void golden(const char *path, const char *name)
{
	const char *upd = getenv("GDR_UPDATE_GOLDEN");
	char gpath[4096];
	size_t a, b;
	char *got, *want;

	got = slurp(path, &a);
	CHECK(got, "%s: not written", path);
	if (!got)
		return;
	if (upd) {
		FILE *f;

		snprintf(gpath, sizeof(gpath), "%s/%s", upd, name);
		f = fopen(gpath, "wb");
		CHECK(f && fwrite(got, 1, a, f) == a && fclose(f) == 0, "cannot write %s", gpath);
		free(got);
		return;
	}
	snprintf(gpath, sizeof(gpath), "%s/%s", GDR_GOLDEN_DIR, name);
	want = slurp(gpath, &b);
	CHECK(want, "%s: missing golden file", gpath);
	if (want) {
		size_t i = 0;

		while (i < a && i < b && got[i] == want[i])
			i++;
		CHECK(a == b && i == a, "%s differs from %s at byte %zu (diff them)", path, gpath,
		      i);
	}
	free(got);
	free(want);
}

/* --- an RFC 4180 reader, independent of the writer, for the checks --- */
#define MAXF 96
struct rec {
	int n;
	char f[MAXF][256];
};

/* Parses one record at *p; returns 0 at end of input. */
static int read_rec(const char **p, struct rec *r)
{
	const char *s = *p;
	size_t k;

	if (!*s)
		return 0;
	r->n = 0;
	for (;;) {
		char *out = r->f[r->n < MAXF ? r->n : MAXF - 1];

		k = 0;
		if (*s == '"') {
			s++;
			for (;;) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] == '"') {
					out[k++] = '"';
					s += 2;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					out[k++] = *s++;
				}
				if (k >= 255)
					return -1;
			}
		} else {
			while (*s && *s != ',' && *s != '\n' && k < 255)
				out[k++] = *s++;
		}
		out[k] = '\0';
		r->n++;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\n')
			s++;
		*p = s;
		return 1;
	}
}

static int col_of(const struct rec *h, const char *name)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->f[i], name))
			return i;
	return -1;
}

/* --- fixed inputs --- */
static struct gdr_opts opts_bw, opts_lat, opts_other;

static void fill_ri(struct gdr_run_info *ri, const char *test, enum gdr_verb v, enum gdr_kind k,
		    const struct gdr_opts *o)
{
	memset(ri, 0, sizeof(*ri));
	ri->tool_version = PACKAGE_VERSION;
	snprintf(ri->timestamp, sizeof(ri->timestamp), "2026-11-22T17:32:11Z");
	ri->test = test;
	ri->verb = v;
	ri->kind = k;
	ri->role = "client";
	snprintf(ri->local_host, sizeof(ri->local_host), "node,\"a\"");
	snprintf(ri->remote_host, sizeof(ri->remote_host), "peer-2");
	snprintf(ri->xport, sizeof(ri->xport), "verbs");
	snprintf(ri->rdma_dev, sizeof(ri->rdma_dev), "mlx5_0");
	ri->ib_port = 1;
	snprintf(ri->link_layer, sizeof(ri->link_layer), "Ethernet");
	ri->gid_index = 3;
	ri->mtu = 4096;
	ri->num_qps = 1;
	ri->tx_depth = k == GDR_KIND_BW ? 128 : 1;
	ri->mem_kind = "cuda";
	snprintf(ri->gpu_name, sizeof(ri->gpu_name), "NVIDIA H100 80GB HBM3");
	snprintf(ri->gpu_pci, sizeof(ri->gpu_pci), "0000:17:00.0");
	snprintf(ri->reg_method, sizeof(ri->reg_method), "dma-buf");
	snprintf(ri->cpu_placement, sizeof(ri->cpu_placement), "CPUs 0-7 (NUMA node 0 of mlx5_0)");
	ri->clock_res_ns = 1;
	ri->opts = o;
	if (k == GDR_KIND_BW) /* the rows' paths, as driver/path_setup.c words them */
		snprintf(ri->paths, sizeof(ri->paths),
			 "direct    CPU-posted GPUDirect RDMA, as perftest --use_cuda\n"
			 "staged    host staging, as UCX, NCCL and MPI without GPUDirect RDMA");
}

#define NBW 6
static struct gdr_result bw[NBW];
#define NLAT 3
static struct gdr_result lat[NLAT];

static void fill_results(void)
{
	static const uint64_t sz[3] = {4096, 65536, 1048576};
	int i;

	for (i = 0; i < 3; i++) {
		struct gdr_result *d = &bw[2 * i], *s = &bw[2 * i + 1];

		d->path = "direct";
		d->bytes = sz[i];
		d->iters = 5000;
		d->duration_s = 0.25 * (i + 1);
		d->bw_avg_Bps = 1e9 * (2 + 9 * i);
		d->bw_peak_Bps = d->bw_avg_Bps * 1.03;
		d->msg_rate_pps = d->bw_avg_Bps / (double)sz[i];
		*s = *d;
		s->path = "staged";
		s->bw_avg_Bps = d->bw_avg_Bps / (1.5 + i);
		s->bw_peak_Bps = s->bw_avg_Bps * 1.01;
		s->msg_rate_pps = s->bw_avg_Bps / (double)sz[i];
		s->speedup = d->bw_avg_Bps / s->bw_avg_Bps;
		s->ratio_of = "staged";
		/* --repeat 3: each row the medians, with the spread; 4 KiB's ratio crosses 1.0 */
		d->repeats = s->repeats = 3;
		d->fig_min = 0.9 * d->bw_avg_Bps, d->fig_max = 1.05 * d->bw_avg_Bps;
		d->fig_cv = 0.0625;
		s->fig_min = 0.5 * s->bw_avg_Bps, s->fig_max = 1.25 * s->bw_avg_Bps;
		s->fig_cv = 0.25;
		s->speedup_min = i == 0 ? 0.75 : 0.9 * s->speedup;
		s->speedup_max = 1.5 * s->speedup;
		s->stage_chunk = sz[i] < (1u << 20) ? (1u << 20) / sz[i] * sz[i] : 1u << 20;
		s->stage_ring = 16 * s->stage_chunk;
		s->stage_streams = 4;
		/* the copier: both sides agree but on the middle size (client/server) */
		snprintf(s->stage_copy, sizeof(s->stage_copy), "%s", i == 1 ? "sm/ce" : "ce");
		s->copy_Bps = 4e9 * (1 + i);
		s->model_Bps = s->copy_Bps < d->bw_avg_Bps ? s->copy_Bps : d->bw_avg_Bps;
		s->efficiency = s->bw_avg_Bps / s->model_Bps;
		/* schema 4: a 400G port on the wire, the copy rate on staged rows */
		d->ceiling_Bps = 50e9;
		snprintf(d->ceil_limit, sizeof(d->ceil_limit), "NIC port 400 Gb/s");
		snprintf(d->ceil_note, sizeof(d->ceil_note), "MPS assumed 256 B");
		s->ceiling_Bps = s->copy_Bps;
		snprintf(s->ceil_limit, sizeof(s->ceil_limit), "copy engine");
		s->ceil_note[0] = '\0';
	}
	bw[5].bw_peak_Bps = NAN; /* a non-finite figure must become an empty cell */
	/* what a -c UD/UC send_bw receiver got (schema 3 columns) */
	bw[4].has_delivery = true;
	bw[4].delivered = 4990;
	bw[4].delivered_Bps = 2e9;
	bw[4].sent_total = 5000;
	bw[4].lost = 10;
	for (i = 0; i < NLAT; i++) {
		struct gdr_result *r = &lat[i];

		r->path = "host";
		r->bytes = 2u << (2 * i);
		r->iters = 1000;
		r->duration_s = 0.0021 + 0.0001 * i;
		r->has_lat = true;
		r->lat_kind = "half round trip";
		r->lat.n = 1000;
		r->lat.min = 1.05 + 0.1 * i;
		r->lat.max = 7.5 + i;
		r->lat.median = 1.12 + 0.1 * i;
		r->lat.avg = 1.1875 + 0.1 * i;
		r->lat.stdev = 0.0625;
		r->lat.npct = 2;
		r->lat.pct_q[0] = 99;
		r->lat.pct_q[1] = 99.9;
		r->lat.pct_v[0] = 1.9 + 0.1 * i;
		r->lat.pct_v[1] = 3.25 + 0.1 * i;
	}
}

static int run(struct gdr_reporter *rep, const struct gdr_run_info *ri, const struct gdr_result *r,
	       int n)
{
	int i, ret = rep->ops->begin(rep->ctx, ri);

	for (i = 0; ret == 0 && i < n; i++)
		ret = rep->ops->row(rep->ctx, ri, &r[i]);
	if (ret == 0)
		ret = rep->ops->end(rep->ctx, ri);
	rep->ops->destroy(rep->ctx);
	return ret;
}

static void test_csv(void)
{
	struct gdr_run_info ri_bw, ri_lat, ri_other;
	struct gdr_reporter rep;
	const char *path = DIR "/report.csv";
	struct rec h, r;
	struct stat st1, st2;
	const char *p;
	char *txt;
	int nrec = 0, nhead = 0, c;

	fill_ri(&ri_bw, "write_bw", GDR_VERB_WRITE, GDR_KIND_BW, &opts_bw);
	snprintf(ri_bw.topo, sizeof(ri_bw.topo), "PIX"); /* a --matrix cell's relation */
	snprintf(ri_bw.direction, sizeof(ri_bw.direction), "h2d"); /* its direction, schema 6 */
	ri_bw.loopback = "inside the NIC, not the wire";
	fill_ri(&ri_lat, "write_lat", GDR_VERB_WRITE, GDR_KIND_LAT, &opts_lat);
	ri_lat.mem_kind = "host";
	ri_lat.gpu_name[0] = ri_lat.gpu_pci[0] = '\0';
	snprintf(ri_lat.reg_method, sizeof(ri_lat.reg_method), "host");
	ri_lat.gid_index = -1;
	snprintf(ri_lat.link_layer, sizeof(ri_lat.link_layer), "InfiniBand");
	/* schema 8: the transport and ofi's provider as opened */
	snprintf(ri_lat.xport, sizeof(ri_lat.xport), "ofi");
	snprintf(ri_lat.provider, sizeof(ri_lat.provider), "tcp;ofi_rxm");
	unlink(path);
	CHECK(gdr_report_csv_new(&rep, path) == 0, "csv new");
	CHECK(run(&rep, &ri_bw, bw, NBW) == 0, "csv bw run");
	CHECK(gdr_report_csv_new(&rep, path) == 0, "csv new (append)");
	CHECK(run(&rep, &ri_lat, lat, NLAT) == 0, "csv lat run (append)");
	golden(path, "report.csv");

	/* another percentile set: refused, file untouched */
	fill_ri(&ri_other, "write_lat", GDR_VERB_WRITE, GDR_KIND_LAT, &opts_other);
	CHECK(stat(path, &st1) == 0, "stat");
	CHECK(gdr_report_csv_new(&rep, path) == 0, "csv new (mismatch)");
	fprintf(stderr, "(an error about other columns is expected next)\n");
	CHECK(run(&rep, &ri_other, lat, NLAT) < 0, "append with another header must fail");
	CHECK(stat(path, &st2) == 0 && st1.st_size == st2.st_size, "file changed on refusal");

	/* parse it back independently */
	txt = slurp(path, NULL);
	CHECK(txt, "read back");
	if (!txt)
		return;
	p = txt;
	CHECK(read_rec(&p, &h) == 1, "header");
	/* schema 6 added direction and loopback after topology (--matrix), and the 9 columns
	 * after direct_over_staged (ratios, repeats, spread) */
	/* schema 7 added the 9 KV columns (kv_batch .. kv_efficiency) before limit_Gbps */
	/* schema 8 added transport and provider after remote_host */
	/* schema 9 added kv_regions, kv_region_bytes and kv_sge after kv_pool_bytes, kv_floor
	 * after kv_efficiency */
	CHECK(h.n == 26 + 15 + 2 + 1 + 9 + 7 + 1 + 6 + 9 + 9 + 2 + 4,
	      "header has %d columns, want 91", h.n);
	CHECK(!strcmp(h.f[0], "schema_version") && !strcmp(h.f[62], "cpu_util_pct") &&
		  !strcmp(h.f[h.n - 1], "counter_deltas") && col_of(&h, "gpu_pci") == 22 &&
		  col_of(&h, "topology") == 23 && col_of(&h, "direction") == 24 &&
		  col_of(&h, "loopback") == 25 && col_of(&h, "reg_method") == 26 &&
		  col_of(&h, "ceiling_Gbps") == 69 && col_of(&h, "limit") == 70 &&
		  col_of(&h, "of_ceiling") == 71 && col_of(&h, "ceiling_note") == 72 &&
		  col_of(&h, "kv_batch") == 73 && col_of(&h, "kv_pool_bytes") == 74 &&
		  col_of(&h, "kv_regions") == 75 && col_of(&h, "kv_region_bytes") == 76 &&
		  col_of(&h, "kv_sge") == 77 && col_of(&h, "kv_efficiency") == 84 &&
		  col_of(&h, "kv_floor") == 85 && col_of(&h, "limit_Gbps") == 86 &&
		  col_of(&h, "t_p99_us") == 43 && col_of(&h, "t_p99.9_us") == 44 &&
		  col_of(&h, "direct_over_staged") == 45 &&
		  col_of(&h, "direct_over_gpu_proxy") == 46 && col_of(&h, "repeats") == 47 &&
		  col_of(&h, "cv") == 48 && col_of(&h, "bw_avg_min_MiBps") == 49 &&
		  col_of(&h, "bw_avg_max_MiBps") == 50 && col_of(&h, "t_median_min_us") == 51 &&
		  col_of(&h, "t_median_max_us") == 52 && col_of(&h, "ratio_min") == 53 &&
		  col_of(&h, "ratio_max") == 54 && col_of(&h, "speedup") < 0 &&
		  col_of(&h, "stage_chunk_bytes") == 55 && col_of(&h, "stage_copy") == 58 &&
		  col_of(&h, "delivered_iterations") == 63 && col_of(&h, "loss_pct") == 67 &&
		  col_of(&h, "staged_note") == 68 && col_of(&h, "transport") == 9 &&
		  col_of(&h, "provider") == 10 && col_of(&h, "rdma_dev") == 11,
	      "column names/order");
	while ((c = read_rec(&p, &r)) == 1) {
		nrec++;
		if (!strcmp(r.f[0], "schema_version"))
			nhead++;
		CHECK(r.n == h.n, "row %d has %d fields, header %d", nrec, r.n, h.n);
		CHECK(!strcmp(r.f[col_of(&h, "local_host")], "node,\"a\""),
		      "quoted host name reads back as '%s'", r.f[col_of(&h, "local_host")]);
		/* schema 8: the transport, ofi's provider (empty over verbs) */
		CHECK(!strcmp(r.f[col_of(&h, "transport")], nrec <= NBW ? "verbs" : "ofi") &&
			  !strcmp(r.f[col_of(&h, "provider")], nrec <= NBW ? "" : "tcp;ofi_rxm"),
		      "row %d: transport '%s', provider '%s'", nrec, r.f[col_of(&h, "transport")],
		      r.f[col_of(&h, "provider")]);
		/* schema 5: a --matrix cell's PCIe relation beside its figures; empty elsewhere */
		CHECK(col_of(&h, "topology") >= 0 &&
			  !strcmp(r.f[col_of(&h, "topology")], nrec <= NBW ? "PIX" : ""),
		      "row %d: no topology column, or not the cell's", nrec);
		/* schema 6: a --matrix cell's direction and where its packets turn */
		CHECK(!strcmp(r.f[col_of(&h, "direction")], nrec <= NBW ? "h2d" : "") &&
			  !strcmp(r.f[col_of(&h, "loopback")],
				  nrec <= NBW ? "inside the NIC, not the wire" : ""),
		      "row %d: direction '%s', loopback '%s'", nrec, r.f[col_of(&h, "direction")],
		      r.f[col_of(&h, "loopback")]);
	}
	CHECK(c == 0, "CSV parse error");
	CHECK(nrec == NBW + NLAT && nhead == 0, "rows %d (want %d), extra headers %d", nrec,
	      NBW + NLAT, nhead);
	/* figures: independent conversion of the first row; empty cells */
	p = txt;
	read_rec(&p, &h);
	read_rec(&p, &r);
	CHECK(strtod(r.f[col_of(&h, "bw_avg_MiBps")], NULL) == bw[0].bw_avg_Bps / 1048576.0,
	      "bw_avg_MiBps %s", r.f[col_of(&h, "bw_avg_MiBps")]);
	CHECK(strtod(r.f[col_of(&h, "bw_avg_Gbps")], NULL) == bw[0].bw_avg_Bps * 8 / 1e9,
	      "bw_avg_Gbps %s", r.f[col_of(&h, "bw_avg_Gbps")]);
	CHECK(r.f[col_of(&h, "t_median_us")][0] == '\0' &&
		  r.f[col_of(&h, "direct_over_staged")][0] == '\0' &&
		  r.f[col_of(&h, "lost_messages")][0] == '\0' &&
		  r.f[col_of(&h, "lat_kind")][0] == '\0' &&
		  r.f[col_of(&h, "stage_chunk_bytes")][0] == '\0' &&
		  r.f[col_of(&h, "stage_copy")][0] == '\0' &&
		  r.f[col_of(&h, "efficiency")][0] == '\0',
	      "latency/speedup/staged cells of a direct bw row must be empty");
	CHECK(strtod(r.f[col_of(&h, "ceiling_Gbps")], NULL) == 400 &&
		  !strcmp(r.f[col_of(&h, "limit")], "NIC port 400 Gb/s") &&
		  strtod(r.f[col_of(&h, "of_ceiling")], NULL) == bw[0].bw_avg_Bps / 50e9 &&
		  !strcmp(r.f[col_of(&h, "ceiling_note")], "MPS assumed 256 B"),
	      "ceiling cells: %s '%s' %s '%s'", r.f[col_of(&h, "ceiling_Gbps")],
	      r.f[col_of(&h, "limit")], r.f[col_of(&h, "of_ceiling")],
	      r.f[col_of(&h, "ceiling_note")]);
	read_rec(&p, &r);
	CHECK(strtod(r.f[col_of(&h, "direct_over_staged")], NULL) == bw[1].speedup &&
		  r.f[col_of(&h, "direct_over_gpu_proxy")][0] == '\0',
	      "direct_over_staged on a staged row, no direct_over_gpu_proxy");
	/* --repeat: the runs, the spread of bw_avg, the ratio's range (schema 6) */
	CHECK(!strcmp(r.f[col_of(&h, "repeats")], "3") &&
		  strtod(r.f[col_of(&h, "cv")], NULL) == 0.25 &&
		  strtod(r.f[col_of(&h, "bw_avg_min_MiBps")], NULL) ==
		      0.5 * bw[1].bw_avg_Bps / 1048576.0 &&
		  strtod(r.f[col_of(&h, "bw_avg_max_MiBps")], NULL) ==
		      1.25 * bw[1].bw_avg_Bps / 1048576.0 &&
		  r.f[col_of(&h, "t_median_min_us")][0] == '\0' &&
		  strtod(r.f[col_of(&h, "ratio_min")], NULL) == 0.75 &&
		  strtod(r.f[col_of(&h, "ratio_max")], NULL) == 1.5 * bw[1].speedup,
	      "repeat cells: %s %s %s %s %s", r.f[col_of(&h, "repeats")], r.f[col_of(&h, "cv")],
	      r.f[col_of(&h, "bw_avg_min_MiBps")], r.f[col_of(&h, "ratio_min")],
	      r.f[col_of(&h, "ratio_max")]);
	CHECK(strtoull(r.f[col_of(&h, "stage_chunk_bytes")], NULL, 10) == 1048576 &&
		      strtod(r.f[col_of(&h, "copy_MiBps")], NULL) == 4e9 / 1048576.0 &&
		      strtod(r.f[col_of(&h, "model_MiBps")], NULL) == 2e9 / 1048576.0 &&
		      strtod(r.f[col_of(&h, "efficiency")], NULL) == bw[1].efficiency &&
		      !strcmp(r.f[col_of(&h, "stage_copy")], "ce"),
	      "staged cells: copier %s, chunk %s, copy %s, model %s, efficiency %s",
	      r.f[col_of(&h, "stage_copy")], r.f[col_of(&h, "stage_chunk_bytes")],
	      r.f[col_of(&h, "copy_MiBps")], r.f[col_of(&h, "model_MiBps")],
	      r.f[col_of(&h, "efficiency")]);
	read_rec(&p, &r);
	read_rec(&p, &r);
	read_rec(&p, &r); /* bw[4]: what the receiver got */
	CHECK(!strcmp(r.f[col_of(&h, "delivered_iterations")], "4990") &&
		      strtod(r.f[col_of(&h, "delivered_MiBps")], NULL) == 2e9 / 1048576.0 &&
		      !strcmp(r.f[col_of(&h, "lost_messages")], "10") &&
		      strtod(r.f[col_of(&h, "loss_pct")], NULL) == 0.2,
	      "delivery cells: %s %s %s %s", r.f[col_of(&h, "delivered_iterations")],
	      r.f[col_of(&h, "delivered_MiBps")], r.f[col_of(&h, "lost_messages")],
	      r.f[col_of(&h, "loss_pct")]);
	read_rec(&p, &r); /* bw[5]: NaN peak */
	CHECK(r.f[col_of(&h, "bw_peak_MiBps")][0] == '\0' && r.f[col_of(&h, "bw_avg_MiBps")][0],
	      "NaN must be an empty cell");
	read_rec(&p, &r); /* lat[0] */
	CHECK(r.f[col_of(&h, "bw_avg_MiBps")][0] == '\0' && r.f[col_of(&h, "gid_index")][0] == '\0',
	      "bw cells of latency rows and gid -1 must be empty");
	CHECK(strtod(r.f[col_of(&h, "t_p99.9_us")], NULL) == lat[0].lat.pct_v[1], "p99.9");
	CHECK(r.f[col_of(&h, "ceiling_Gbps")][0] == '\0' && r.f[col_of(&h, "limit")][0] == '\0' &&
		  r.f[col_of(&h, "of_ceiling")][0] == '\0' &&
		  r.f[col_of(&h, "ceiling_note")][0] == '\0',
	      "latency rows have no ceiling");
	free(txt);
}

static void test_json(void)
{
	struct gdr_run_info ri;
	struct gdr_reporter rep;
	const char *path = DIR "/report.json";
	char cmd[512];

	fill_ri(&ri, "write_bw", GDR_VERB_WRITE, GDR_KIND_BW, &opts_bw);
	snprintf(ri.gpu_name, sizeof(ri.gpu_name), "GPU \"x\"\\\t\x01");
	unlink(path);
	CHECK(gdr_report_json_new(&rep, path) == 0, "json new");
	CHECK(run(&rep, &ri, bw, NBW) == 0, "json run");
	CHECK(access(DIR "/report.json.tmp", F_OK) < 0, "tmp file left behind");
	golden(path, "report.json");
	if (system("python3 -c 'import json' 2>/dev/null") == 0) {
		snprintf(cmd, sizeof(cmd),
			 "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
			 "assert len(d[\"results\"]) == %d; "
			 "assert d[\"results\"][5][\"bw_peak_MiBps\"] is None' %s",
			 NBW, path);
		CHECK(system(cmd) == 0, "python3 rejects %s", path);
	} else {
		printf("note: python3 missing, JSON checked against the golden file only\n");
	}

	/* interrupted: no end() -> neither FILE nor FILE.tmp */
	unlink(path);
	CHECK(gdr_report_json_new(&rep, path) == 0, "json new 2");
	rep.ops->begin(rep.ctx, &ri);
	rep.ops->row(rep.ctx, &ri, &bw[0]);
	rep.ops->destroy(rep.ctx);
	CHECK(access(path, F_OK) < 0 && access(DIR "/report.json.tmp", F_OK) < 0,
	      "interrupted JSON run left a file");
	CHECK(gdr_report_json_new(&rep, "/nonexistent-dir/x.json") < 0, "unwritable JSON");
	CHECK(gdr_report_csv_new(&rep, "/nonexistent-dir/x.csv") < 0, "unwritable CSV");
}

static void test_text(void)
{
	struct gdr_run_info ri;
	struct gdr_reporter rep;
	FILE *f;

	fill_ri(&ri, "write_bw", GDR_VERB_WRITE, GDR_KIND_BW, &opts_bw);
	/* --compare's paths: the path, ratio, chunk, copier and model columns come from them */
	ri.staged_path = ri.ref_path = ri.ratio_col = true;
	f = fopen(DIR "/report_bw.txt", "w");
	CHECK(f && gdr_report_text_new(&rep, f) == 0, "text new");
	if (f) {
		CHECK(run(&rep, &ri, bw, NBW) == 0, "text bw");
		fclose(f);
	}
	golden(DIR "/report_bw.txt", "report_bw.txt");

	/* --report_gbits: the ceiling, the row's fraction of it and what sets it */
	ri.report_gbits = true;
	f = fopen(DIR "/report_bw_gbits.txt", "w");
	CHECK(f && gdr_report_text_new(&rep, f) == 0, "text new");
	if (f) {
		CHECK(run(&rep, &ri, bw, NBW) == 0, "text bw gbits");
		fclose(f);
	}
	golden(DIR "/report_bw_gbits.txt", "report_bw_gbits.txt");

	fill_ri(&ri, "write_lat", GDR_VERB_WRITE, GDR_KIND_LAT, &opts_lat);
	ri.mem_kind = "host";
	ri.gpu_name[0] = ri.gpu_pci[0] = '\0';
	snprintf(ri.reg_method, sizeof(ri.reg_method), "host");
	f = fopen(DIR "/report_lat.txt", "w");
	CHECK(f && gdr_report_text_new(&rep, f) == 0, "text new");
	if (f) {
		CHECK(run(&rep, &ri, lat, NLAT) == 0, "text lat");
		fclose(f);
	}
	golden(DIR "/report_lat.txt", "report_lat.txt");
}

/*
 * Issue 44: --compare's text. Each ratio named for what it divides, the
 * spread of each row over its repeats, cells that fill their column still
 * apart, the ceiling in the table's unit, an efficiency above 1 not printed
 * but said, and the closing lines: a verdict per range of sizes, none where
 * the ratio's range crosses 1.0.
 */
static void test_compare_text(void)
{
	struct gdr_opts o = opts_bw;
	struct gdr_run_info ri;
	struct gdr_reporter rep;
	struct gdr_result r[6] = {0};
	const char *path = DIR "/report_cmp.txt";
	char *txt;
	FILE *f;

	o.compare = true;
	o.repeat = 3;
	fill_ri(&ri, "write_bw", GDR_VERB_WRITE, GDR_KIND_BW, &o);
	ri.staged_path = ri.ref_path = ri.ratio_col = true;
	for (int i = 0; i < 6; i++) {
		r[i].bytes = i < 3 ? 16384 : 65536;
		r[i].iters = 100;
		r[i].duration_s = 0.5;
		r[i].bw_avg_Bps = 819.12 * 1048576.0;
		r[i].bw_peak_Bps = r[i].bw_avg_Bps;
		r[i].msg_rate_pps = 1e5;
		r[i].repeats = 3;
		r[i].fig_min = 0.9 * r[i].bw_avg_Bps;
		r[i].fig_max = 1.1 * r[i].bw_avg_Bps;
		r[i].fig_cv = 0.1;
		r[i].ceiling_Bps = 1000 * 1048576.0; /* 1000 MiB/s */
		snprintf(r[i].ceil_limit, sizeof(r[i].ceil_limit), "NIC port 10 Gb/s");
	}
	r[0].path = r[3].path = "direct";
	r[1].path = r[4].path = "staged";
	r[2].path = "gpu-proxy";
	r[5].path = "gpu-proxy";
	for (int i = 1; i < 6; i++) {
		if (i == 3)
			continue;
		r[i].ratio_of = r[i].path;
		r[i].speedup = i == 1 ? 1.6 : i == 4 ? 1.4 : 1.1;
		r[i].speedup_min = r[i].speedup - 0.3 + (i == 2 || i == 5 ? 0.25 : 0);
		r[i].speedup_max = r[i].speedup + 0.5;
	}
	for (int i = 1; i < 5; i += 3) { /* the staged rows */
		snprintf(r[i].stage_copy, sizeof(r[i].stage_copy), "memcpy/gdrcopy");
		r[i].stage_chunk = 1 << 20;
		r[i].copy_Bps = 2000 * 1048576.0;
		r[i].model_Bps = 1000 * 1048576.0;
		r[i].efficiency = 0.82;
	}
	r[4].efficiency = 0; /* staged above its model: not kept (staging/row.c), said */
	r[4].eff_over = 1.36;
	f = fopen(path, "w");
	CHECK(f && gdr_report_text_new(&rep, f) == 0, "text new");
	if (f) {
		CHECK(run(&rep, &ri, r, 6) == 0, "text compare");
		fclose(f);
	}
	txt = slurp(path, NULL);
	CHECK(txt, "read back");
	if (!txt)
		return;
	CHECK(strstr(txt, " Repeats       : 3 runs of each size's paths, interleaved"),
	      "the header says the repeats");
	CHECK(strstr(txt, "memcpy/gdrcopy ") && !strstr(txt, "memcpy/gdrcopy2") &&
		  !strstr(txt, "memcpy/gdrcopy1"),
	      "a cell as wide as its column runs into the next:\n%s", txt);
	CHECK(strstr(txt, "ceiling[MiB/sec]") && strstr(txt, "1000.00") &&
		  !strstr(txt, "GB/s"),
	      "the ceiling in the table's unit, and no other unit:\n%s", txt);
	CHECK(strstr(txt, "direct/staged 1.60x [1.30-2.10]") &&
		  strstr(txt, "direct/gpu-proxy 1.10x [1.05-1.60]"),
	      "each ratio named for what it divides:\n%s", txt);
	CHECK(strstr(txt, "cv[%]") && strstr(txt, "BW avg min-max[MiB/sec]") &&
		  strstr(txt, "737.21-901.03"),
	      "the spread columns:\n%s", txt);
	CHECK(strstr(txt, "gdrcopy 2000.00        1000.00         -           1000.00") &&
		  strstr(txt, "\n   note: 65536 bytes, staged: above its model (staged/model 1.36 "
			      "> 1): a leg of the model measured low; efficiency not shown\n") &&
		  !strstr(txt, " 0.00 "),
	      "an efficiency above 1 printed, or not said:\n%s", txt);
	/* a row above its model says nothing of its bound: a range of its own */
	CHECK(strstr(txt, " direct vs staged: direct 1.60x faster at 16 KiB, over 3 repeats; "
			  "staged bounded by the wire\n direct vs staged: direct 1.40x faster "
			  "at 64 KiB, over 3 repeats\n"),
	      "the staged verdict lines:\n%s", txt);
	CHECK(strstr(txt, " direct vs gpu-proxy: direct 1.10x faster from 16 KiB to 64 KiB, "
			  "over 3 repeats\n"),
	      "the gpu-proxy verdict line:\n%s", txt);
	free(txt);
	unlink(path);

	/* the golden table's 4 KiB ratio ranges 0.75-2.25x: no verdict there, one after */
	txt = slurp(DIR "/report_bw.txt", NULL);
	CHECK(txt && strstr(txt, " direct vs staged: no verdict at 4 KiB: the ratio's range over 3 "
				 "repeats (0.75-2.25x) crosses 1.0\n") &&
		  strstr(txt, " direct vs staged: direct 2.50-3.50x faster from 64 KiB to 1 MiB, "
			      "over 3 repeats; staged bounded by the copy (sm/ce, ce)\n"),
	      "verdict lines of the golden table:\n%s", txt ? txt : "");
	free(txt);
}

/*
 * --repeat: a path's row from its repeats (report/repeat.c), each figure the
 * median computed here by hand, the key figure's range and cv, and the ratio's
 * median and range; a repeat without a ratio leaves the row without one.
 */
static void test_repeats(void)
{
	struct gdr_result rep[3] = {{0}}, out;

	for (int i = 0; i < 3; i++) {
		rep[i].path = "staged";
		rep[i].bytes = 16384;
		rep[i].iters = 10 + (uint64_t)i;
		rep[i].bw_avg_Bps = (double)(3 - i % 3) * 1e6; /* 3, 2, 1 MB/s */
		rep[i].bw_peak_Bps = (double)(i + 4) * 1e6;
		rep[i].msg_rate_pps = (double)(i * i);	      /* 0, 1, 4 */
		rep[i].speedup = i == 0 ? 1.2 : i == 1 ? 0.8 : 1.5;
	}
	snprintf(rep[0].stage_copy, sizeof(rep[0].stage_copy), "ce");
	gdr_result_repeats(rep, 3, &out);
	/* {3,2,1}: median 2, mean 2, stdev 1, cv 0.5; ratio {1.2,0.8,1.5}: median 1.2 */
	CHECK(out.repeats == 3 && out.bw_avg_Bps == 2e6 && out.bw_peak_Bps == 5e6 &&
		  out.msg_rate_pps == 1 && out.iters == 11 && out.fig_min == 1e6 &&
		  out.fig_max == 3e6 && fabs(out.fig_cv - 0.5) < 1e-12,
	      "medians and spread: %g %g %g %llu [%g %g] cv %g", out.bw_avg_Bps, out.bw_peak_Bps,
	      out.msg_rate_pps, (unsigned long long)out.iters, out.fig_min, out.fig_max,
	      out.fig_cv);
	CHECK(out.speedup == 1.2 && out.speedup_min == 0.8 && out.speedup_max == 1.5 &&
		  !strcmp(out.stage_copy, "ce") && !strcmp(out.path, "staged"),
	      "ratio %g [%g %g]", out.speedup, out.speedup_min, out.speedup_max);
	rep[1].speedup = 0; /* a repeat with no ratio: none for the row */
	gdr_result_repeats(rep, 3, &out);
	CHECK(out.speedup == 0, "a ratio from some repeats only: %g", out.speedup);
	/*
	 * KV rows: the contiguous reference and blocks/s are medians as bw_avg is, the
	 * efficiency (what --kv-floor judges) the median of each repeat's own, not the
	 * first repeat's: bw {3,2,1} over contig {12,4,0.5} = {0.25,0.5,2}: median 0.5
	 */
	for (int i = 0; i < 3; i++) {
		rep[i].kv_batch = 8;
		rep[i].kv_contig_Bps = i == 0 ? 12e6 : i == 1 ? 4e6 : 0.5e6;
		rep[i].kv_eff = rep[i].bw_avg_Bps / rep[i].kv_contig_Bps;
		rep[i].kv_blocks_ps = i == 0 ? 10 : i == 1 ? 30 : 20;
		rep[i].kv_batch_med_us = i == 0 ? 7 : i == 1 ? 5 : 6;
	}
	gdr_result_repeats(rep, 3, &out);
	CHECK(out.kv_eff == 0.5 && out.kv_contig_Bps == 4e6 && out.kv_blocks_ps == 20 &&
		  out.kv_batch_med_us == 6,
	      "KV medians: efficiency %g contig %g blocks/s %g batch %g us", out.kv_eff,
	      out.kv_contig_Bps, out.kv_blocks_ps, out.kv_batch_med_us);
	rep[2].kv_eff = 0; /* a repeat without the reference: no efficiency for the row */
	gdr_result_repeats(rep, 3, &out);
	CHECK(out.kv_eff == 0, "an efficiency from some repeats only: %g", out.kv_eff);
	for (int i = 0; i < 3; i++)
		rep[i].kv_batch = 0;
	/* latency: the medians of each statistic, the spread of t_median */
	for (int i = 0; i < 3; i++) {
		rep[i].has_lat = true;
		rep[i].lat.median = 10.0 - i;	/* 10, 9, 8 */
		rep[i].lat.min = 5.0 + 2 * i; /* 5, 7, 9 */
		rep[i].lat.npct = 1;
		rep[i].lat.pct_v[0] = 30.0 - 10 * i; /* 30, 20, 10 */
	}
	gdr_result_repeats(rep, 3, &out);
	CHECK(out.lat.median == 9 && out.lat.min == 7 && out.lat.pct_v[0] == 20 &&
		  out.fig_min == 8 && out.fig_max == 10,
	      "latency medians: %g %g %g [%g %g]", out.lat.median, out.lat.min, out.lat.pct_v[0],
	      out.fig_min, out.fig_max);
	gdr_result_repeats(rep, 1, &out); /* one run: the row as it is */
	CHECK(out.repeats == 0 && out.lat.median == 10, "one repeat");
}

/* --perftest_header: perftest's column names (scripts grep them), the same figures. */
static void test_perftest_header(void)
{
	struct gdr_run_info ri;
	struct gdr_reporter rep;
	struct gdr_opts ob = opts_bw, ol = opts_lat;
	char *s;
	FILE *f;

	ob.perftest_header = ol.perftest_header = true;
	fill_ri(&ri, "write_bw", GDR_VERB_WRITE, GDR_KIND_BW, &ob);
	f = fopen(DIR "/pt.txt", "w");
	CHECK(f && gdr_report_text_new(&rep, f) == 0, "text new");
	if (f) {
		CHECK(run(&rep, &ri, bw, 2) == 0, "text bw");
		fclose(f);
	}
	s = slurp(DIR "/pt.txt", NULL);
	CHECK(s && strstr(s, "BW peak[MB/sec]") && strstr(s, "BW average[MB/sec]") &&
		  strstr(s, "MsgRate[Mpps]") && !strstr(s, "MiB/sec  "),
	      "%s", s ? s : "(none)");
	CHECK(s && strstr(s, "MB/sec as perftest = 2^20 bytes/s"), "the header says MB is MiB");
	free(s);
	fill_ri(&ri, "write_lat", GDR_VERB_WRITE, GDR_KIND_LAT, &ol);
	f = fopen(DIR "/pt.txt", "w");
	CHECK(f && gdr_report_text_new(&rep, f) == 0, "text new");
	if (f) {
		CHECK(run(&rep, &ri, lat, 1) == 0, "text lat");
		fclose(f);
	}
	s = slurp(DIR "/pt.txt", NULL);
	CHECK(s && strstr(s, "t_typical[usec]") && strstr(s, "99% percentile[usec]") &&
		  strstr(s, "99.9% percentile[usec]") && !strstr(s, "t_median"),
	      "%s", s ? s : "(none)");
	free(s);
	unlink(DIR "/pt.txt");
}

/* --output=WHAT (issue 34.9): perftest's "%lf\n" of one average a row, nothing else. */
static void output_case(const struct gdr_run_info *ri, enum gdr_output what,
			const struct gdr_result *rs, int n, double (*want)(const struct gdr_result *))
{
	struct gdr_reporter rep;
	char exp[1024] = "", *s;
	FILE *f = fopen(DIR "/out.txt", "w");

	CHECK(f && gdr_report_number_new(&rep, f, what) == 0, "number new");
	if (!f)
		return;
	CHECK(run(&rep, ri, rs, n) == 0, "number run");
	fclose(f);
	for (int i = 0; i < n; i++) {
		double v = want(&rs[i]);

		if (isfinite(v))
			snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "%f\n", v);
		else
			snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "-\n");
	}
	s = slurp(DIR "/out.txt", NULL);
	CHECK(s && !strcmp(s, exp), "--output %d:\n%s\nwant:\n%s", (int)what, s ? s : "(none)",
	      exp);
	free(s);
	unlink(DIR "/out.txt");
}

static double want_mib(const struct gdr_result *r)
{
	return r->has_lat ? NAN : r->bw_avg_Bps / 1048576.0;
}

static double want_gb(const struct gdr_result *r)
{
	return r->has_lat ? NAN : r->bw_avg_Bps * 8 / 1e9;
}

static double want_mpps(const struct gdr_result *r)
{
	return r->has_lat ? NAN : r->msg_rate_pps / 1e6;
}

static double want_lat(const struct gdr_result *r)
{
	return r->has_lat ? r->lat.avg : NAN;
}

static void test_output(void)
{
	struct gdr_run_info ri;
	struct gdr_report_files fo = {.output = GDR_OUTPUT_BANDWIDTH};
	struct gdr_reports rs;

	fill_ri(&ri, "write_bw", GDR_VERB_WRITE, GDR_KIND_BW, &opts_bw);
	output_case(&ri, GDR_OUTPUT_BANDWIDTH, bw, NBW, want_mib);
	output_case(&ri, GDR_OUTPUT_MESSAGE_RATE, bw, NBW, want_mpps);
	ri.report_gbits = true;
	output_case(&ri, GDR_OUTPUT_BANDWIDTH, bw, NBW, want_gb);
	output_case(&ri, GDR_OUTPUT_LATENCY, bw, 2, want_lat); /* a row without it: "-" */
	fill_ri(&ri, "write_lat", GDR_VERB_WRITE, GDR_KIND_LAT, &opts_lat);
	output_case(&ri, GDR_OUTPUT_LATENCY, lat, NLAT, want_lat);
	/* the fan-out opens the number reporter in place of the table, text goes to stderr */
	CHECK(gdr_reports_open(&rs, &fo) == 0 && rs.n == 1 && !strcmp(rs.r[0].ops->name, "output"),
	      "--output opens one reporter (%d)", rs.n);
	gdr_reports_close(&rs);
	CHECK(gdr_text_stream(&fo) == stderr, "with --output the text's lines go to stderr");
}

static void test_fanout(void)
{
	struct gdr_reports rs;
	struct gdr_report_files f = {.csv = DIR "/fan.csv", .json = DIR "/fan.json"};

	CHECK(gdr_reports_open(&rs, &f) == 0 && rs.n == 3, "fan-out opens text+csv+json");
	gdr_reports_close(&rs);
	unlink(DIR "/fan.csv");
	f.csv = "/nonexistent-dir/x.csv";
	CHECK(gdr_reports_open(&rs, &f) < 0 && rs.n == 0, "fan-out fails cleanly");
}

int main(void)
{
	static const char *files[] = {"report.csv", "report.json", "report_bw.txt",
				      "report_bw_gbits.txt", "report_lat.txt", NULL};
	int i;

	opts_bw.npct = 2;
	opts_bw.pct[0] = 99;
	opts_bw.pct[1] = 99.9;
	opts_lat = opts_bw;
	opts_bw.compare = true; /* --compare --repeat=3: the header says so */
	opts_bw.repeat = 3;
	opts_other = opts_lat;
	opts_other.npct = 3;
	opts_other.pct[2] = 50;
	if (mkdir(DIR, 0755) < 0 && errno != EEXIST) {
		perror(DIR);
		return 1;
	}
	fill_results();
	test_csv();
	test_json();
	test_text();
	test_compare_text();
	test_repeats();
	test_perftest_header();
	test_output();
	test_fanout();
	if (failures)
		return CHECK_DONE("(outputs kept in %s)", DIR);
	for (i = 0; files[i]; i++) {
		char p[256];

		snprintf(p, sizeof(p), DIR "/%s", files[i]);
		unlink(p);
	}
	rmdir(DIR);
	return CHECK_DONE();
}
