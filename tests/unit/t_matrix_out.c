/* SPDX-License-Identifier: MIT */
/*
 * --matrix's text and outputs (launch/matrix_out.c) from a hand-made matrix: the measured
 * pairing's "slowest pair" line is the slowest pair's figure, whatever order the GPUs come
 * in; a matrix with a cell that measured nothing (a port down, a GPU fault, every cell)
 * has no pairing: none printed, no --pairing file, no pairing rows (issue 44: "GPU 0 ->
 * rxe0:1  - GB/s" and a file of 0.000 figures); the pairing's rows name each pair's cell;
 * the outputs' header names the matrix, not its first cell; the text names what measured
 * (the CUDA double says it is no GPU); a row that timed nothing is not a row; per direction
 * (--matrix_dir): a pair's row is the direction asked (both: the smaller), named, and a cell
 * without a direction the pairing needs leaves no pairing.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "matrix_int.h"
#include "opts.h"
#include "report.h"
#include "topo.h"

static struct gdr_opts o;
static struct mx m;

/* 3 GPUs x 3 NICs, GPU g paired with NIC g at direct figure bw[g] GB/s (0: did not run). */
static void setup(const double *bw)
{
	memset(&m, 0, sizeof(m));
	o.matrix_time = 1;
	m.o = &o;
	m.verb = "write";
	m.size = 1 << 20;
	m.ngpu = m.nnic = 3;
	m.npair = 3;
	for (int g = 0; g < 3; g++) {
		snprintf(m.gpu_bdf[g], sizeof(m.gpu_bdf[g]), "0000:0%d:00.0", g + 1);
		snprintf(m.nic_name[g], sizeof(m.nic_name[g]), "mlx5_%d:1", g);
		m.nic[g].port = 1;
		m.pair[g] = g;
		for (int n = 0; n < 3; n++) {
			m.cell[g][n].rel = TOPO_SYS;
			for (int d = 0; d < MX_NDIR; d++) { /* both directions: --matrix_dir both */
				struct mx_fig *f = &m.cell[g][n].d[d];

				f->direct = n == g ? bw[g] * 1e9 : 1e9;
				f->row[0] = (struct gdr_result){.bytes = m.size,
								.iters = 9,
								.duration_s = 1,
								.bw_avg_Bps = f->direct};
			}
		}
		if (!bw[g])
			snprintf(m.cell[g][g].error, sizeof(m.cell[g][g].error), "did not start");
	}
}

/* The printed text into buf. */
static void text(char *buf, size_t n)
{
	FILE *f = tmpfile();
	size_t len;

	buf[0] = '\0';
	if (!f)
		return;
	mx_print(f, &m);
	rewind(f);
	len = fread(buf, 1, n - 1, f);
	buf[len] = '\0';
	fclose(f);
}

/* The "slowest pair:" line of the printed text, into line. */
static void slowest(char *line, size_t n)
{
	char buf[8192];
	const char *p;

	line[0] = '\0';
	text(buf, sizeof(buf));
	p = strstr(buf, " slowest pair: ");
	if (p)
		snprintf(line, n, "%.*s", (int)strcspn(p, "\n"), p);
}

static char rows[1024];
static int nrows;
static struct gdr_run_info last; /* the last row's facts */

static int s_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	size_t at = strlen(rows);

	(void)ctx;
	last = *ri;
	snprintf(rows + at, sizeof(rows) - at, "%s %s%s%s %s:%d %s %s %.0f;", r->path, ri->gpu_pci,
		 ri->gpu_name[0] ? " " : "", ri->gpu_name, ri->rdma_dev, ri->ib_port, ri->topo,
		 ri->direction, r->bw_avg_Bps / 1e9);
	nrows++;
	return 0;
}
static int s_begin(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx, (void)ri;
	return 0;
}
static int s_end(void *ctx, const struct gdr_run_info *ri)
{
	(void)ctx, (void)ri;
	return 0;
}
static void s_destroy(void *ctx)
{
	(void)ctx;
}
static const struct gdr_reporter_ops rows_ops = {"rows", s_begin, s_row, s_end, s_destroy, NULL};

/* The pairing's rows through a reporter, into rows (their count). */
static int pairing_rows(void)
{
	struct gdr_reports rs = {.n = 1, .r = {{&rows_ops, NULL}}};

	rows[0] = '\0';
	nrows = 0;
	m.begun = true;
	CHECK(mx_report_pairing(&m, &rs) == 0);
	return nrows;
}

/* A cell without a figure: no pairing anywhere. */
static void no_pairing(const char *what, const char *reason)
{
	char buf[8192], file[] = "t_matrix_out.pairing.tmp";
	const char *side;

	text(buf, sizeof(buf));
	CHECK(strstr(buf, reason), "%s: no '%s' in:\n%s", what, reason, buf);
	/* a pair's line; "GPU -> host memory" names a direction */
	CHECK(!strstr(buf, " -> mlx5") && !strstr(buf, "slowest pair"), "%s: a pairing:\n%s", what,
	      buf);
	side = strstr(buf, "beside the measurement:");
	CHECK(side && !strstr(side, "(SYS)") && strstr(side, " none "),
	      "%s: the measured column names a NIC:\n%s", what, buf);
	unlink(file);
	CHECK(mx_write_pairing(&m, file) == -1 && access(file, F_OK) != 0,
	      "%s: a --pairing file written", what);
	unlink(file);
	CHECK(pairing_rows() == 0, "%s: pairing rows '%s'", what, rows);
}

int main(void)
{
	char line[128], file[] = "t_matrix_out.pairing.tmp";
	FILE *f;

	setup((const double[]){5, 9, 7});
	slowest(line, sizeof(line));
	CHECK(!strcmp(line, " slowest pair: 5 GB/s"), "'%s'", line);
	/* a pairing row names its GPU as the cell did: the CUDA double says it is no GPU */
	snprintf(m.gpu_name[1], sizeof(m.gpu_name[1]), "dbl");
	CHECK(pairing_rows() == 3 && !strcmp(rows, "pairing 0000:01:00.0 :1 SYS d2h 5;"
						   "pairing 0000:02:00.0 dbl :1 SYS d2h 9;"
						   "pairing 0000:03:00.0 :1 SYS d2h 7;"),
	      "'%s'", rows);
	m.gpu_name[1][0] = '\0';
	CHECK(pairing_rows() == 3 && !strcmp(rows, "pairing 0000:01:00.0 :1 SYS d2h 5;"
						   "pairing 0000:02:00.0 :1 SYS d2h 9;"
						   "pairing 0000:03:00.0 :1 SYS d2h 7;"),
	      "'%s'", rows);
	/* --matrix_dir=both: a pair's row is its smaller direction's, named */
	m.cell[1][1].d[MX_H2D].direct = m.cell[1][1].d[MX_H2D].row[0].bw_avg_Bps = 4e9;
	CHECK(pairing_rows() == 3 && strstr(rows, "pairing 0000:02:00.0 :1 SYS h2d 4;"), "'%s'",
	      rows);
	/* one direction of a cell measured nothing: both needs it, d2h alone does not */
	m.cell[1][1].d[MX_H2D] = (struct mx_fig){0};
	snprintf(m.cell[1][1].error, sizeof(m.cell[1][1].error), "h2d: did not start");
	no_pairing("one direction", "Measured pairing: none: GPU 1 x mlx5_1:1 measured nothing: "
				    "h2d: did not start");
	o.matrix_dir = GDR_MATRIX_D2H;
	CHECK(pairing_rows() == 3 && strstr(rows, "pairing 0000:02:00.0 :1 SYS d2h 9;"), "'%s'",
	      rows);
	o.matrix_dir = GDR_MATRIX_H2D;
	CHECK(pairing_rows() == 0, "h2d asked, a cell without it: pairing rows '%s'", rows);
	o.matrix_dir = GDR_MATRIX_BOTH;
	setup((const double[]){5, 9, 7});
	/* a pairing row carries its cell's facts in its direction (the port's, not the header's) */
	for (int d = 0; d < MX_NDIR; d++) {
		struct mx_fig *c = &m.cell[2][2].d[d];

		c->has_ri = true;
		c->ri.mtu = d == MX_D2H ? 1024 : 4096;
		snprintf(c->ri.link_layer, sizeof(c->ri.link_layer), "Ethernet");
		snprintf(c->mem_kind, sizeof(c->mem_kind), d == MX_D2H ? "cuda" : "host");
	}
	m.cell[2][2].d[MX_H2D].direct = m.cell[2][2].d[MX_H2D].row[0].bw_avg_Bps = 6e9;
	snprintf(m.head_test, sizeof(m.head_test), "write_bw");
	m.head.test = m.head_test;
	CHECK(pairing_rows() == 3 && last.mtu == 4096 && !strcmp(last.link_layer, "Ethernet") &&
		  last.mem_kind && !strcmp(last.mem_kind, "host") && last.test &&
		  !strcmp(last.test, "write_bw") && !strcmp(last.direction, "h2d") &&
		  !strcmp(last.gpu_pci, "0000:03:00.0"),
	      "the last pair's facts: mtu %u '%s' '%s' '%s'", last.mtu, last.link_layer,
	      last.mem_kind ? last.mem_kind : "(null)", last.direction);
	setup((const double[]){5, 9, 7});
	unlink(file);
	CHECK(mx_write_pairing(&m, file) == 0 && (f = fopen(file, "r")) && fclose(f) == 0,
	      "a matrix where every cell measured: its --pairing file");
	unlink(file);
	setup((const double[]){9, 7, 5});
	slowest(line, sizeof(line));
	CHECK(!strcmp(line, " slowest pair: 5 GB/s"), "'%s'", line);
	/* a pair whose cell did not run: no pairing (its figure unknown, the choice too) */
	setup((const double[]){5, 0, 7});
	for (int d = 0; d < MX_NDIR; d++)
		m.cell[1][1].d[d] = (struct mx_fig){0};
	no_pairing("one cell", "Measured pairing: none: GPU 1 x mlx5_1:1 measured nothing: did "
			       "not start; a pairing compares every cell");
	/* no cell measured anything (the ports down, a GPU fault in every cell) */
	setup((const double[]){0, 0, 0});
	for (int g = 0; g < 3; g++)
		for (int n = 0; n < 3; n++)
			for (int d = 0; d < MX_NDIR; d++)
				m.cell[g][n].d[d] = (struct mx_fig){0};
	no_pairing("no cell", "Measured pairing: none: 9 of 9 cells measured nothing (GPU 0 x "
			      "mlx5_0:1 measured nothing: did not start)");
	/* the header: the matrix's NIC ports and GPUs, no one cell's facts */
	setup((const double[]){5, 9, 7});
	snprintf(m.head.rdma_dev, sizeof(m.head.rdma_dev), "mlx5_0");
	snprintf(m.head.gpu_name, sizeof(m.head.gpu_name), "H200");
	snprintf(m.head.topo, sizeof(m.head.topo), "PIX");
	m.head.ib_port = 1;
	snprintf(m.head.direction, sizeof(m.head.direction), "d2h");
	mx_head(&m);
	CHECK(!strcmp(m.head.rdma_dev, "mlx5_0:1,mlx5_1:1,mlx5_2:1") &&
		  !strcmp(m.head.gpu_pci, "3 GPUs") && !m.head.ib_port && !m.head.topo[0] &&
		  !m.head.gpu_name[0] && !m.head.direction[0],
	      "header: '%s' '%s' %d '%s'", m.head.rdma_dev, m.head.gpu_pci, m.head.ib_port,
	      m.head.topo);
	/* what measured is named under the matrix: the CUDA double says it is not a GPU */
	{
		char buf[8192];

		snprintf(m.gpu_name[1], sizeof(m.gpu_name[1]),
			 "gdrperf CUDA double (test tool, not a GPU)");
		text(buf, sizeof(buf));
		CHECK(strstr(buf, "\n GPU 1: gdrperf CUDA double (test tool, not a GPU)\n") &&
			  !strstr(buf, " GPU 0: ") && !strstr(buf, " GPU 2: "),
		      "%s", buf);
	}
	/* a row that timed nothing (the gpu-proxy rows of issue 44) is not a row */
	CHECK(!mx_row_ran(&(struct gdr_result){.path = "gpu-proxy"}));
	CHECK(mx_row_ran(&(struct gdr_result){.iters = 3, .duration_s = 0.5}));
	return CHECK_DONE();
}
