/* SPDX-License-Identifier: MIT */
/*
 * --matrix's text (matrix.h): the GPU x NIC matrix, the measured pairing, a
 * line for each pair of NICs the topology ranks one way and the measurement
 * the other, the pairing rule's NIC beside the measured one, the shared runs;
 * and the pairing file.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "matrix.h"
#include "matrix_int.h"
#include "log.h"
#include "pairing.h"
#include "report.h"
#include "topo.h"

#define COL 24

static bool any_direct(const struct mx *m)
{
	for (int g = 0; g < m->ngpu; g++)
		for (int n = 0; n < m->nnic; n++)
			for (int d = 0; d < MX_NDIR; d++)
				if (m->cell[g][n].d[d].direct > 0)
					return true;
	return false;
}

static double figure(const struct mx *m, int g, int n, int *which)
{
	bool direct = any_direct(m);
	double f[MX_NDIR];

	for (int d = 0; d < MX_NDIR; d++)
		f[d] = direct ? m->cell[g][n].d[d].direct : m->cell[g][n].d[d].staged;
	return mx_dir_figure(f, m->o->matrix_dir, which);
}

double mx_figure(const struct mx *m, int g, int n)
{
	return figure(m, g, n, NULL);
}

int mx_figure_dir(const struct mx *m, int g, int n)
{
	int which;

	figure(m, g, n, &which);
	return which;
}

bool mx_pairing_ready(const struct mx *m, char *why, size_t len)
{
	int missing = 0, cells = m->ngpu * m->nnic;

	why[0] = '\0';
	for (int g = 0; g < m->ngpu; g++)
		for (int n = 0; n < m->nnic; n++) {
			const struct mx_cell *c = &m->cell[g][n];

			if (mx_figure(m, g, n) > 0)
				continue;
			if (!missing++)
				snprintf(why, len, "GPU %d x %s measured nothing%s%.200s", g,
					 m->nic_name[n], c->error[0] ? ": " : "", c->error);
		}
	if (missing > 1) {
		char first[400];

		snprintf(first, sizeof(first), "%s", why);
		snprintf(why, len, "%d of %d cells measured nothing (%s)", missing, cells, first);
	}
	return cells > 0 && !missing;
}

bool mx_row_ran(const struct gdr_result *x)
{
	return x->iters > 0 && x->duration_s > 0;
}

static const char *fig_path(const struct mx *m)
{
	return any_direct(m) ? "direct" : "staged";
}

static void gbs(char *buf, size_t n, double Bps)
{
	if (Bps > 0) /* three figures: 48.2 on a real NIC, 0.00478 in an emulator */
		snprintf(buf, n, "%.3g", Bps / 1e9);
	else
		snprintf(buf, n, "-");
}

/* One direction's rows: a GPU a row, each cell direct / staged and its PCIe relation. */
static void print_dir(FILE *f, const struct mx *m, int d)
{
	char s[64], a[16], b[16];

	fprintf(f, "%s: %s, the %s figure\n", mx_dir_name(d), mx_dir_says(d),
		d == MX_D2H ? "sender's" : "receiver's");
	fprintf(f, " %-22s", "");
	for (int n = 0; n < m->nnic; n++)
		fprintf(f, "%-*s", COL, m->nic_name[n]);
	fputc('\n', f);
	for (int g = 0; g < m->ngpu; g++) {
		snprintf(s, sizeof(s), "GPU %d %s", g, m->gpu_bdf[g]);
		fprintf(f, " %-22s", s);
		for (int n = 0; n < m->nnic; n++) {
			const struct mx_cell *c = &m->cell[g][n];

			gbs(a, sizeof(a), c->d[d].direct);
			gbs(b, sizeof(b), c->d[d].staged);
			snprintf(s, sizeof(s), "%s / %s %s", a, b, topo_rel_name(c->rel));
			fprintf(f, "%-*s", COL, s);
		}
		fputc('\n', f);
	}
}

static void print_matrix(FILE *f, const struct mx *m)
{
	char a[16];

	fprintf(f,
		"\nGPU x NIC matrix: %s, %llu bytes, %g s a path; " GDR_MATRIX_LOOPBACK_SAYS "\n"
		"each cell one side's memory on the GPU, the other side's host memory; GB/s "
		"(10^9 bytes/s) direct / staged, then the PCIe relation of GPU and NIC\n",
		m->verb, (unsigned long long)m->size, m->o->matrix_time);
	for (int d = 0; d < MX_NDIR; d++)
		if (mx_dir_runs(m->o->matrix_dir, d))
			print_dir(f, m, d);
	fprintf(f, " %-22s", "host memory");
	for (int n = 0; n < m->nnic; n++) { /* the NIC alone: the best host row of its cells */
		double h = 0;

		for (int g = 0; g < m->ngpu; g++)
			for (int d = 0; d < MX_NDIR; d++)
				h = m->cell[g][n].d[d].host > h ? m->cell[g][n].d[d].host : h;
		gbs(a, sizeof(a), h);
		fprintf(f, "%-*s", COL, a);
	}
	fprintf(f, "\n %-22s", "port rate");
	for (int n = 0; n < m->nnic; n++) {
		gbs(a, sizeof(a), m->port_Bps[n]);
		fprintf(f, "%-*s", COL, a);
	}
	fputc('\n', f);
	for (int g = 0; g < m->ngpu; g++)
		for (int n = 0; n < m->nnic; n++)
			if (m->cell[g][n].error[0])
				fprintf(f, " GPU %d x %s did not run direct: %s\n", g,
					m->nic_name[n], m->cell[g][n].error);
	for (int g = 0; g < m->ngpu; g++) /* what measured: a GPU, or the CUDA double */
		if (m->gpu_name[g][0])
			fprintf(f, " GPU %d: %s\n", g, m->gpu_name[g]);
}

static void print_pairing(FILE *f, const struct mx *m)
{
	double slowest = -1; /* none yet */
	char a[16], why[400];

	if (!mx_pairing_ready(m, why, sizeof(why))) {
		fprintf(f, "\nMeasured pairing: none: %s; a pairing compares every cell\n", why);
		return;
	}
	fprintf(f,
		"\nMeasured pairing (%s figures, %s; the slowest pair maximized, then the next; "
		"figures within %.0f%% tie, then the nearer PCIe relation, then in order):\n",
		fig_path(m),
		m->o->matrix_dir == GDR_MATRIX_BOTH  ? "of each cell the smaller direction"
		: m->o->matrix_dir == GDR_MATRIX_D2H ? "d2h"
						     : "h2d",
		GDR_MATRIX_TOL * 100);
	for (int g = 0; g < m->ngpu; g++) {
		int n = m->npair > 0 ? m->pair[g] : -1;

		if (n < 0) {
			fprintf(f, " GPU %d %s -> none (more GPUs than NIC ports)\n", g,
				m->gpu_bdf[g]);
			continue;
		}
		gbs(a, sizeof(a), mx_figure(m, g, n));
		fprintf(f, " GPU %d %s -> %s  %s GB/s %s %s (%s)\n", g, m->gpu_bdf[g],
			m->nic_name[n], a, fig_path(m), mx_dir_name(mx_figure_dir(m, g, n)),
			topo_rel_name(m->cell[g][n].rel));
		if (slowest < 0 || mx_figure(m, g, n) < slowest)
			slowest = mx_figure(m, g, n);
	}
	gbs(a, sizeof(a), slowest);
	fprintf(f, " slowest pair: %s GB/s\n", a);
}

/* Every GPU's pairs of NICs where the nearer one measured slower by more than the tolerance. */
static void print_disagreements(FILE *f, const struct mx *m)
{
	int lines = 0;
	char a[16], b[16];

	fprintf(f, "\nWhere the measurement disagrees with the topology ranking:\n");
	for (int g = 0; g < m->ngpu; g++)
		for (int near = 0; near < m->nnic; near++)
			for (int far = 0; far < m->nnic; far++) {
				const struct mx_cell *cn = &m->cell[g][near],
						     *cf = &m->cell[g][far];
				double fn = mx_figure(m, g, near), ff = mx_figure(m, g, far);

				if (cn->rel >= cf->rel || cn->rel == TOPO_UNKNOWN || !(ff > 0) ||
				    !(ff > fn * (1 + GDR_MATRIX_TOL)))
					continue;
				gbs(a, sizeof(a), ff);
				gbs(b, sizeof(b), fn);
				fprintf(
				    f,
				    " GPU %d: %s (%s) measured %s GB/s %s, faster than the nearer "
				    "%s (%s) at %s GB/s\n",
				    g, m->nic_name[far], topo_rel_name(cf->rel), a, fig_path(m),
				    m->nic_name[near], topo_rel_name(cn->rel), b);
				lines++;
			}
	if (!lines)
		fprintf(f,
			" none: no nearer NIC measured more than %.0f%% slower than a farther "
			"one\n",
			GDR_MATRIX_TOL * 100);
}

/* The pairing rule's NIC (gdr_doctor, --use_cuda=auto, the cluster's NIC) beside the measured. */
static void print_side_by_side(FILE *f, const struct mx *m)
{
	fprintf(f, "\nThe pairing rule (the NIC nearest in PCIe, equally near ones by place, as "
		   "gdr_doctor and cluster mode infer it) beside the measurement:\n");
	fprintf(f, " %-22s %-24s %-24s\n", "GPU", "rule", "measured");
	char why[400];
	bool ready = mx_pairing_ready(m, why, sizeof(why));

	for (int g = 0; g < m->ngpu; g++) {
		char gpu[48], rule[80] = "-", meas[100] = "none";
		int n = ready && m->npair > 0 ? m->pair[g] : -1, rn = -1;

		for (int k = 0; k < m->nnic && m->rule_nic[g][0]; k++)
			if (!strcmp(m->nic[k].dev, m->rule_nic[g]) && rn < 0)
				rn = k;
		if (m->rule_nic[g][0])
			snprintf(rule, sizeof(rule), "%s (%s)", m->rule_nic[g],
				 rn >= 0 ? topo_rel_name(m->cell[g][rn].rel) : "not measured");
		if (n >= 0)
			snprintf(meas, sizeof(meas), "%s (%s)", m->nic_name[n],
				 topo_rel_name(m->cell[g][n].rel));
		snprintf(gpu, sizeof(gpu), "GPU %d %s", g, m->gpu_bdf[g]);
		fprintf(f, " %-22s %-24s %-24s%s\n", gpu, rule, meas,
			n >= 0 && m->rule_nic[g][0] && strcmp(m->nic[n].dev, m->rule_nic[g])
			    ? " differ"
			    : "");
	}
}

static void print_shared(FILE *f, const struct mx *m)
{
	char a[16], b[16], c[16], p[16], who[300];

	if (!m->nshared)
		return;
	fprintf(f,
		"\nAt once (--matrix_shared), GB/s: the sum of the cells over their common "
		"interval, the same cells one at a time, the ports' rate (" GDR_MATRIX_LOOPBACK_SAYS
		": the rate is not a bound of it):\n");
	for (int i = 0; i < m->nshared; i++) {
		const struct mx_shared *s = &m->shared[i];

		if (s->gpu < 0)
			snprintf(who, sizeof(who), "%d GPUs through %s", m->ngpu,
				 m->nic_name[s->nic]);
		else
			snprintf(who, sizeof(who), "GPU %d through %d NIC ports", s->gpu, m->nnic);
		gbs(a, sizeof(a), s->direct);
		gbs(b, sizeof(b), s->staged);
		gbs(c, sizeof(c), s->alone);
		gbs(p, sizeof(p), s->port_Bps);
		fprintf(f, " %s, %s: direct %s, staged %s; one at a time %s; port%s rate %s%s%s\n",
			who, mx_dir_name(s->dir), a, b, c, s->gpu < 0 ? "" : "s", p,
			s->error[0] ? ": " : "", s->error);
	}
}

void mx_print(FILE *f, const struct mx *m)
{
	print_matrix(f, m);
	print_pairing(f, m);
	print_disagreements(f, m);
	print_side_by_side(f, m);
	print_shared(f, m);
	fflush(f);
}

int mx_write_pairing(const struct mx *m, const char *file)
{
	struct gdr_pairing_row rows[MX_MAX];
	char about[300], why[400];
	int k = 0;

	if (!mx_pairing_ready(m, why, sizeof(why))) {
		gdr_err("--pairing=%s: not written: %s (no pairing without every cell)", file, why);
		return -1;
	}
	for (int g = 0; g < m->ngpu; g++) {
		int n = m->pair[g];

		if (n < 0)
			continue;
		rows[k] = (struct gdr_pairing_row){.port = m->nic[n].port,
						   .gbps = mx_figure(m, g, n) / 1e9};
		snprintf(rows[k].gpu, sizeof(rows[k].gpu), "%s", m->gpu_bdf[g]);
		snprintf(rows[k].nic, sizeof(rows[k].nic), "%s", m->nic[n].dev);
		k++;
	}
	snprintf(about, sizeof(about),
		 "gdrperf --matrix: the measured GPU-NIC pairing (%s, %llu bytes, %s figures)\n"
		 "read by --use_cuda=auto --pairing=FILE; docs/matrix.md",
		 m->verb, (unsigned long long)m->size, fig_path(m));
	return gdr_pairing_write(file, about, rows, k);
}

void mx_head(struct mx *m)
{
	struct gdr_run_info *h = &m->head;
	size_t at = 0;

	for (int n = 0; n < m->nnic; n++) /* "rxe0:1,rxe1:1", or how many when it is longer */
		at += (size_t)snprintf(h->rdma_dev + at,
				       at < sizeof(h->rdma_dev) ? sizeof(h->rdma_dev) - at : 0,
				       "%s%s", n ? "," : "", m->nic_name[n]);
	if (at >= sizeof(h->rdma_dev))
		snprintf(h->rdma_dev, sizeof(h->rdma_dev), "%d NIC ports", m->nnic);
	h->ib_port = 0;
	if (m->ngpu == 1)
		snprintf(h->gpu_pci, sizeof(h->gpu_pci), "%s", m->gpu_bdf[0]);
	else
		snprintf(h->gpu_pci, sizeof(h->gpu_pci), "%d GPUs", m->ngpu);
	/* a cell's own: each row carries its cell's (one GPU: its name is the matrix's) */
	if (m->ngpu != 1)
		h->gpu_name[0] = '\0';
	h->link_layer[0] = h->reg_method[0] = h->cpu_placement[0] = '\0';
	h->topo[0] = '\0';
	h->direction[0] = '\0'; /* each row says its own; --matrix_dir=both has two */
	h->gid_index = -1;
	h->mtu = 0;
}

int mx_report_pairing(const struct mx *m, struct gdr_reports *rs)
{
	char why[400];
	int rc = 0;

	if (!m->begun || m->npair <= 0 || !mx_pairing_ready(m, why, sizeof(why)))
		return 0;
	for (int g = 0; g < m->ngpu; g++) {
		int n = m->pair[g], d;
		const struct mx_fig *f;
		struct gdr_run_info ri;
		struct gdr_result x;

		if (n < 0)
			continue;
		d = mx_figure_dir(m, g, n); /* with both: the smaller direction's row */
		f = &m->cell[g][n].d[d];
		ri = f->has_ri ? f->ri : m->head; /* the cell's facts: its port's, its GPU's */
		ri.test = m->head.test;
		ri.mem_kind = f->mem_kind[0] ? f->mem_kind : m->head.mem_kind; /* the client's */
		x = f->row[any_direct(m) ? 0 : 1];
		x.path = "pairing";
		snprintf(ri.direction, sizeof(ri.direction), "%s", mx_dir_name(d));
		snprintf(ri.gpu_pci, sizeof(ri.gpu_pci), "%s", m->gpu_bdf[g]);
		snprintf(ri.gpu_name, sizeof(ri.gpu_name), "%s", m->gpu_name[g]);
		snprintf(ri.rdma_dev, sizeof(ri.rdma_dev), "%s", m->nic[n].dev);
		ri.ib_port = m->nic[n].port;
		snprintf(ri.topo, sizeof(ri.topo), "%s", topo_rel_name(m->cell[g][n].rel));
		rc |= gdr_reports_row(rs, &ri, &x);
	}
	return rc;
}
