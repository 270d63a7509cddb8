/* SPDX-License-Identifier: MIT */
/*
 * --matrix (matrix.h): the GPUs and NIC ports, their PCIe relations and the
 * pairing rule's choice, every cell through the rails' processes, the shared
 * runs, the rows through the reporters, the assignment, then matrix_out.c.
 */
#include "config.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster.h"
#include "affinity.h"
#include "exitcode.h"
#include "gpu_list.h"
#include "ibdev.h"
#include "ibports.h"
#include "log.h"
#include "matrix.h"
#include "matrix_int.h"
#include "pairing.h"
#include "rails_int.h"
#include "run_header.h"
#include "stop.h"
#include "topo.h"

/*
 * The CUDA GPUs in index order with their PCI addresses, asked in a child: the cells are
 * forked from this process, so it never initialises CUDA (gpu_list.h). The count, or -1
 * (printed).
 */
static int find_gpus(struct mx *m)
{
	char why[200];
	int n = gdr_gpu_list(GDR_MEM_API_CUDA, m->gpu_bdf, MX_MAX, why, sizeof(why));

	m->ngpu = n > 0 ? n : 0;
	if (!m->ngpu)
		gdr_err("--matrix: no GPU to measure (%s)", why);
	return m->ngpu ? m->ngpu : -1;
}

/*
 * The NIC ports: a list, or every ACTIVE port. The count; 0 when "all" finds no
 * ACTIVE port (the copy leg alone runs then); -1 the list is wrong, -2 a device is
 * missing (printed).
 */
static int find_nics(struct mx *m, const char *list)
{
	static struct ib_port_info p[MX_MAX * 4];
	char root[PATH_MAX], skipped[1024];
	int np, n, active = 0;

	if (strcmp(list, "all"))
		return gdr_rails_named(list, m->nic, MX_MAX, "--matrix");
	gdr_host_root(root, sizeof(root));
	np = ib_ports_scan(root, p, (int)(sizeof(p) / sizeof(p[0])));
	for (int i = 0; i < np; i++)
		active += p[i].active && !p[i].virt;
	if (!active)
		return 0;
	n = gdr_rails_all(p, np, m->nic, MX_MAX, skipped, sizeof(skipped));
	if (n > 0 && skipped[0])
		gdr_info("--matrix=all: every ACTIVE port; skipped %s", skipped);
	return n;
}

/* Each cell's PCIe relation, each port's rate, and the pairing rule's NIC for each GPU. */
static void topology(struct mx *m)
{
	char root[PATH_MAX];
	struct topo_loc gl[MX_MAX], nl[MX_MAX];
	bool gk[MX_MAX] = {false}, nk[MX_MAX] = {false};

	gdr_host_root(root, sizeof(root));
	for (int n = 0; n < m->nnic; n++) {
		char bdf[32];

		nk[n] = !ib_dev_bdf(root, m->nic[n].dev, bdf, sizeof(bdf)) &&
			!topo_locate(root, bdf, &nl[n]);
		m->port_Bps[n] = ib_port_rate_gbps(root, m->nic[n].dev, m->nic[n].port) * 1e9 / 8;
	}
	for (int g = 0; g < m->ngpu; g++) {
		gk[g] = !topo_locate(root, m->gpu_bdf[g], &gl[g]);
		for (int n = 0; n < m->nnic; n++)
			m->cell[g][n].rel =
			    gk[g] && nk[n] ? (int)topo_relation(&gl[g], &nl[n]) : TOPO_UNKNOWN;
		gdr_nic_nearest(gdr_sysfs_root(), m->gpu_bdf[g], m->rule_nic[g],
				sizeof(m->rule_nic[g]));
	}
}

struct gdr_opts mx_cell_opts(const struct mx *m)
{
	struct gdr_opts co = *m->o;

	co.compare = true;
	co.repeat = 1; /* a cell runs its paths once (--repeat needs --compare, which --matrix excludes) */
	co.staged = false;
	co.duration = m->o->matrix_time;
	co.size = m->size;
	co.all_sizes = co.sizes_set = false;
	co.matrix = NULL; /* the rails' children run one pair each */
	gdr_rails_own_token(&co);
	return co;
}

/*
 * r[0..n) at once (the barrier before the size) in direction dir: the GPU on the side the
 * direction says, host memory on the other; rows fixed for this process, each saying the
 * direction and that the traffic loops back inside the NIC. 0, or -1 stopped.
 */
static int run(const struct mx *m, const struct gdr_test *t, struct rail *r, int n, int dir)
{
	struct gdr_opts co = mx_cell_opts(m);
	char stopped[320] = "";

	for (int i = 0; i < n; i++) {
		struct gdr_rail id = r[i].id;

		id.gpu_server = !mx_gpu_on_client(t->verb, dir);
		r[i] = (struct rail){.id = id, .up = -1, .down = -1, .lfd = -1, .status = -1};
		snprintf(r[i].name, sizeof(r[i].name), "GPU %d x %.55s:%d %s", id.gpu, id.dev,
			 id.port, mx_dir_name(dir));
	}
	if (gdr_rails_hold(&co, r, n) == 0 && gdr_rails_start(&co, t, r, n) == 0)
		gdr_rails_wait(r, n, 1, stopped, sizeof(stopped));
	else
		gdr_rails_wait(r, n, 1, stopped, sizeof(stopped)); /* reap what started */
	for (int i = 0; i < n; i++) {
		gdr_rail_fix(m->o, &r[i]);
		/* the GPU's address, also where the client's memory is host memory */
		snprintf(r[i].ri.gpu_pci, sizeof(r[i].ri.gpu_pci), "%s", m->gpu_bdf[r[i].id.gpu]);
		snprintf(r[i].ri.direction, sizeof(r[i].ri.direction), "%s", mx_dir_name(dir));
		r[i].ri.loopback = GDR_MATRIX_LOOPBACK;
	}
	return stopped[0] || gdr_stop_requested() ? -1 : 0;
}

/* The rail's row of path in r (NULL none). */
static const struct gdr_result *row_of(const struct rail *r, const char *path)
{
	for (int k = 0; k < r->nrow; k++)
		if (r->rows[k].r.path && !strcmp(r->rows[k].r.path, path))
			return &r->rows[k].r;
	return NULL;
}

static double bw_of(const struct rail *r, const char *path)
{
	const struct gdr_result *x = row_of(r, path);

	return x && mx_row_ran(x) ? x->bw_avg_Bps : 0; /* a row that timed nothing: none */
}

bool mx_begin(struct mx *m, struct gdr_reports *rs, const struct rail *r)
{
	if (m->begun || !r->has_info)
		return m->begun;
	m->head = r->ri;
	snprintf(m->head_test, sizeof(m->head_test), "%s", r->test);
	snprintf(m->head_mem, sizeof(m->head_mem), "%s", r->mem_kind);
	m->head.test = m->head_test;
	m->head.mem_kind = m->head_mem;
	mx_head(m); /* the run's facts: each row names its cell's (relation, direction) */
	gdr_reports_begin(rs, &m->head);
	m->begun = true;
	return true;
}

int mx_row(struct mx *m, struct gdr_reports *rs, const struct rail *r,
	   const struct gdr_run_info *ri, const struct gdr_result *x)
{
	if (!mx_begin(m, rs, r))
		return 0; /* not reached: a rail with a row said its facts first */
	return gdr_reports_row(rs, ri, x);
}

static void why_failed(const struct rail *r, double secs, char *buf, size_t len)
{
	const struct gdr_result *d = row_of(r, "direct");

	if (d && r->status == 0) {
		snprintf(buf, len,
			 "the direct path completed %llu messages in its %g s (raise "
			 "--matrix_time)",
			 (unsigned long long)d->iters, secs);
		return;
	}
	snprintf(buf, len, "%.190s",
		 r->error[0]	 ? r->error
		 : r->status < 0 ? "it did not start (the reason is above)"
		 : r->status > 0 ? "its client exited with an error"
				 : "no direct row");
}

/* One direction of a cell: GPU g through NIC n alone. 0, or -1 stopped. */
static int one_dir(struct mx *m, const struct gdr_test *t, struct gdr_reports *rs, int g, int n,
		   int d)
{
	struct rail r = {.id = m->nic[n]};
	struct mx_cell *c = &m->cell[g][n];
	struct mx_fig *f = &c->d[d];
	char error[sizeof(c->error)] = "";
	int rc;

	r.id.gpu = g;
	rc = run(m, t, &r, 1, d);
	snprintf(r.ri.topo, sizeof(r.ri.topo), "%s", topo_rel_name(c->rel));
	mx_begin(m, rs, &r); /* the first cell's facts head the outputs, failed or not */
	if (r.has_info && r.ri.gpu_name[0])
		snprintf(m->gpu_name[g], sizeof(m->gpu_name[g]), "%s", r.ri.gpu_name);
	for (int k = 0; k < r.nrow; k++) { /* a row that timed nothing is left out, said */
		const struct gdr_result *x = &r.rows[k].r;

		if (mx_row_ran(x))
			mx_row(m, rs, &r, &r.ri, x);
		else
			gdr_info("--matrix: GPU %d x %s %s: no %s row: it timed no message", g,
				 m->nic_name[n], mx_dir_name(d), x->path ? x->path : "?");
	}
	for (int p = 0; p < 2; p++) { /* kept for the pairing's rows, no pointer into r */
		const struct gdr_result *x = row_of(&r, p ? "staged" : "direct");

		f->row[p] = x && mx_row_ran(x) ? *x : (struct gdr_result){0};
		f->row[p].cnt = NULL;
		f->row[p].cnt_dev = f->row[p].lat_kind = f->row[p].path = NULL;
	}
	snprintf(f->mem_kind, sizeof(f->mem_kind), "%s", r.has_info ? r.mem_kind : "");
	f->has_ri = r.has_info;
	if (r.has_info) { /* no pointer into r */
		f->ri = r.ri;
		f->ri.test = f->ri.mem_kind = NULL;
	}
	f->host = bw_of(&r, "host");
	f->direct = f->row[0].bw_avg_Bps;
	f->staged = f->row[1].bw_avg_Bps;
	if (!f->direct)
		why_failed(&r, m->o->matrix_time, error, sizeof(error));
	if (error[0] && !c->error[0]) /* the first direction's reason */
		snprintf(c->error, sizeof(c->error), "%s: %.180s", mx_dir_name(d), error);
	gdr_info("--matrix: GPU %d x %s %s (the %s's memory on the GPU): direct %.3g, staged "
		 "%.3g, host %.3g GB/s%s%s",
		 g, m->nic_name[n], mx_dir_name(d), r.id.gpu_server ? "server" : "client",
		 f->direct / 1e9, f->staged / 1e9, f->host / 1e9, error[0] ? ": " : "", error);
	gdr_rails_free(&r, 1);
	return rc;
}

/* One cell: GPU g through NIC n alone, each direction asked. 0, or -1 stopped. */
static int one_cell(struct mx *m, const struct gdr_test *t, struct gdr_reports *rs, int g, int n)
{
	for (int d = 0; d < MX_NDIR; d++)
		if (mx_dir_runs(m->o->matrix_dir, d) && one_dir(m, t, rs, g, n, d))
			return -1;
	return 0;
}

/* Where rows of path sit in the rails' rows (the same order on every rail), or -1. */
static int row_index(const struct rail *r, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < r[i].nrow; k++)
			if (r[i].rows[k].r.path && !strcmp(r[i].rows[k].r.path, path))
				return k;
	return -1;
}

/*
 * A shared run's row through the reporters: every rail's bytes over their common
 * interval, named by the GPU it ran (gpu_pci "all": every GPU) and the NIC ("all": every
 * port), so that no row of a single cell repeats.
 */
static void report_all(struct mx *m, struct gdr_reports *rs, const struct rail *like,
		       const struct gdr_result *a, const char *gpu, const char *dev, int port)
{
	struct gdr_run_info ri = like->ri;

	snprintf(ri.gpu_pci, sizeof(ri.gpu_pci), "%s", gpu ? gpu : "all");
	snprintf(ri.rdma_dev, sizeof(ri.rdma_dev), "%s", dev ? dev : "all");
	/* ri.direction, ri.loopback: the shared run's, as run() set them on every rail */
	ri.ib_port = dev ? port : 0;
	snprintf(ri.topo, sizeof(ri.topo), "%s", "");
	mx_row(m, rs, like, &ri, a); /* no cell reported: this rail's facts head the outputs */
}

/*
 * --matrix_shared: k cells at once (gpu < 0: every GPU through NIC nic; nic < 0: GPU gpu
 * through every NIC) in direction dir. 0, or -1 stopped.
 */
static int shared_dir(struct mx *m, const struct gdr_test *t, struct gdr_reports *rs, int gpu,
		      int nic, int dir)
{
	static struct rail r[MX_MAX];
	struct mx_shared *s = &m->shared[m->nshared++];
	int k = 0, rc;

	*s = (struct mx_shared){.gpu = gpu, .nic = nic, .dir = dir};
	for (int g = 0; g < m->ngpu; g++)
		for (int n = 0; n < m->nnic; n++) {
			if ((gpu >= 0 && g != gpu) || (nic >= 0 && n != nic))
				continue;
			r[k] = (struct rail){.id = m->nic[n]};
			r[k++].id.gpu = g;
			s->alone += m->cell[g][n].d[dir].direct;
		}
	for (int n = 0; n < m->nnic; n++)
		if (nic < 0 || n == nic)
			s->port_Bps += m->port_Bps[n];
	for (int n = 0; n < m->nnic; n++) /* one port's rate unknown: the sum is too */
		if ((nic < 0 || n == nic) && !m->port_Bps[n])
			s->port_Bps = 0;
	rc = run(m, t, r, k, dir);
	for (int p = 0; p < 2; p++) {
		const char *path = p ? "staged" : "direct";
		int idx = row_index(r, k, path), miss;
		struct gdr_result a;

		if (idx < 0) {
			snprintf(s->error, sizeof(s->error), "no %s row", path);
			continue;
		}
		for (int i = 0; i < k; i++)
			if (idx < r[i].nrow) {
				miss = gdr_rail_all_row(r, k, idx, &r[i].rows[idx].r, &a);
				if (miss)
					snprintf(s->error, sizeof(s->error),
						 "%d of %d cells did not run", miss, k);
				*(p ? &s->staged : &s->direct) = miss ? 0 : a.bw_avg_Bps;
				if (mx_row_ran(&a)) /* else no row: none of them timed a message */
					report_all(m, rs, &r[i], &a,
						   gpu < 0 ? NULL : m->gpu_bdf[gpu],
						   nic < 0 ? NULL : m->nic[nic].dev,
						   m->nic[nic < 0 ? 0 : nic].port);
				else
					gdr_info("--matrix_shared: no %s %s row: no cell timed a "
						 "message",
						 mx_dir_name(dir), path);
				break;
			}
	}
	gdr_rails_free(r, k);
	return rc;
}

/* --matrix_shared's run in each direction asked. 0, or -1 stopped. */
static int shared(struct mx *m, const struct gdr_test *t, struct gdr_reports *rs, int gpu, int nic)
{
	for (int d = 0; d < MX_NDIR; d++)
		if (mx_dir_runs(m->o->matrix_dir, d) && shared_dir(m, t, rs, gpu, nic, d))
			return -1;
	return 0;
}

/* What can be refused before anything runs. 0 or -1 (printed). */
static int precheck(const struct gdr_opts *o, const struct gdr_test *t)
{
	if (t->kind != GDR_KIND_BW || t->verb == GDR_VERB_ATOMIC) {
		gdr_err("--matrix: a bandwidth test of write, read or send (this is %s)", t->name);
		return -1;
	}
	if (o->server) {
		gdr_err("--matrix: every cell runs in loopback on this host; leave out the server");
		return -1;
	}
	if (o->rdma_cm) {
		gdr_err("--matrix: the cells exchange over TCP; leave out -R");
		return -1;
	}
	return 0;
}

static int status_of(const struct mx *m, bool stopped)
{
	if (stopped)
		return GDR_EXIT_INTERRUPTED;
	for (int g = 0; g < m->ngpu; g++)
		for (int n = 0; n < m->nnic; n++)
			if (m->cell[g][n].error[0])
				return GDR_EXIT_ERROR;
	return GDR_EXIT_OK;
}

/* The measured pairing: leximin over the cells' figures, ties by topology, then order. */
static void pairing(struct mx *m)
{
	double bw[MX_MAX * MX_MAX];
	int rank[MX_MAX * MX_MAX];
	struct gdr_assign_in in = {m->ngpu, m->nnic, bw, rank, GDR_MATRIX_TOL};

	for (int g = 0; g < m->ngpu; g++)
		for (int n = 0; n < m->nnic; n++) {
			bw[g * m->nnic + n] = mx_figure(m, g, n);
			rank[g * m->nnic + n] = m->cell[g][n].rel;
		}
	m->npair = gdr_assign(&in, m->pair);
}

int gdr_matrix_main(const struct gdr_opts *o, const struct gdr_test *t)
{
	static struct mx m;
	struct gdr_report_files files = gdr_run_report_files(o);
	struct gdr_reports rs = {0};
	struct gdr_run_outcome e;
	bool stopped = false;
	char why[300] = "";
	int n, rc;

	memset(&m, 0, sizeof(m));
	m.head.gid_index = -1;
	m.o = o;
	m.verb = gdr_verb_name(t->verb);
	m.size = gdr_opts_is_set(o, &o->size) ? o->size : 1u << 20;
	if (precheck(o, t))
		return GDR_EXIT_USAGE;
	if (o->pairing && gdr_pairing_writable(o->pairing))
		return GDR_EXIT_ERROR; /* before the cells spend their time */
	n = find_nics(&m, o->matrix);
	if (n < 0)
		return n == -2 ? GDR_EXIT_ERROR : GDR_EXIT_USAGE;
	if (find_gpus(&m) < 0)
		return GDR_EXIT_ERROR;
	if (!n)
		return mx_copy_leg_only(&m);
	m.nnic = n > MX_MAX ? MX_MAX : n;
	for (int i = 0; i < m.nnic; i++)
		snprintf(m.nic_name[i], sizeof(m.nic_name[i]), "%.63s:%d", m.nic[i].dev,
			 m.nic[i].port);
	topology(&m);
	files.no_text = true;
	if (gdr_stop_on_signals() || gdr_reports_open(&rs, &files))
		return GDR_EXIT_ERROR;
	gdr_info("--matrix: %d GPU%s x %d NIC port%s, %s %llu bytes, %g s a path, one cell at a "
		 "time, %s; " GDR_MATRIX_LOOPBACK_SAYS,
		 m.ngpu, m.ngpu == 1 ? "" : "s", m.nnic, m.nnic == 1 ? "" : "s", m.verb,
		 (unsigned long long)m.size, o->matrix_time,
		 o->matrix_dir == GDR_MATRIX_BOTH  ? "both directions (d2h, h2d)"
		 : o->matrix_dir == GDR_MATRIX_D2H ? "d2h"
						   : "h2d");
	for (int g = 0; g < m.ngpu && !stopped; g++)
		for (int k = 0; k < m.nnic && !stopped; k++)
			stopped = one_cell(&m, t, &rs, g, k) != 0;
	if (o->matrix_shared && !stopped) {
		for (int k = 0; k < m.nnic && !stopped && m.ngpu > 1; k++)
			stopped = shared(&m, t, &rs, -1, k) != 0;
		for (int g = 0; g < m.ngpu && !stopped && m.nnic > 1; g++)
			stopped = shared(&m, t, &rs, g, -1) != 0;
	}
	pairing(&m);
	mx_print(gdr_text_stream(&files), &m); /* stderr when --json=- takes stdout */
	rc = status_of(&m, stopped);
	if (o->pairing && m.npair > 0 && mx_write_pairing(&m, o->pairing))
		rc = GDR_EXIT_ERROR;
	if (mx_report_pairing(&m, &rs))
		rc = GDR_EXIT_ERROR;
	if (m.begun && gdr_reports_end(&rs, &m.head))
		rc = GDR_EXIT_ERROR;
	if (stopped)
		snprintf(why, sizeof(why), "interrupted: the cells measured are above");
	for (int g = 0; g < m.ngpu && !why[0]; g++)
		for (int k = 0; k < m.nnic && !why[0]; k++)
			if (m.cell[g][k].error[0])
				snprintf(why, sizeof(why), "GPU %d x %s: %s", g, m.nic_name[k],
					 m.cell[g][k].error);
	e = (struct gdr_run_outcome){
	    .status = rc, .interrupted = stopped, .test = t->name, .dev = o->matrix, .why = why};
	if (gdr_reports_finish(&rs, &m.head, &e))
		rc = GDR_EXIT_ERROR;
	gdr_reports_close(&rs);
	return rc;
}
