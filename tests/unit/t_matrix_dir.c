/* SPDX-License-Identifier: MIT */
/*
 * --matrix's directions (launch/matrix_dir.c, docs/matrix.md): which side of a cell holds the
 * GPU for each verb and direction (d2h: the NIC reads the GPU; h2d: it writes it), which
 * directions run under --matrix_dir, and the pair's figure: the direction asked, or with both
 * the smaller, named; then through mx_figure on a hand-made matrix, where the two directions
 * rank the NICs the other way round.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "matrix_dir.h"
#include "matrix_int.h"
#include "opts.h"

static void sides(void)
{
	/* write and send: the data leaves the client; read: the server */
	CHECK(mx_gpu_on_client(GDR_VERB_WRITE, MX_D2H) &&
	      !mx_gpu_on_client(GDR_VERB_WRITE, MX_H2D));
	CHECK(mx_gpu_on_client(GDR_VERB_SEND, MX_D2H) && !mx_gpu_on_client(GDR_VERB_SEND, MX_H2D));
	CHECK(!mx_gpu_on_client(GDR_VERB_READ, MX_D2H) && mx_gpu_on_client(GDR_VERB_READ, MX_H2D));
	CHECK(!strcmp(mx_dir_name(MX_D2H), "d2h") && !strcmp(mx_dir_name(MX_H2D), "h2d"));
	CHECK(strstr(mx_dir_says(MX_D2H), "reads the GPU") &&
	      strstr(mx_dir_says(MX_H2D), "writes the GPU"));
	CHECK(mx_dir_runs(GDR_MATRIX_BOTH, MX_D2H) && mx_dir_runs(GDR_MATRIX_BOTH, MX_H2D));
	CHECK(mx_dir_runs(GDR_MATRIX_D2H, MX_D2H) && !mx_dir_runs(GDR_MATRIX_D2H, MX_H2D));
	CHECK(!mx_dir_runs(GDR_MATRIX_H2D, MX_D2H) && mx_dir_runs(GDR_MATRIX_H2D, MX_H2D));
}

static void figures(void)
{
	double f[MX_NDIR] = {[MX_D2H] = 40e9, [MX_H2D] = 25e9};
	int w = -1;

	CHECK(mx_dir_figure(f, GDR_MATRIX_BOTH, &w) == 25e9 && w == MX_H2D, "both: %d", w);
	CHECK(mx_dir_figure(f, GDR_MATRIX_D2H, &w) == 40e9 && w == MX_D2H, "d2h: %d", w);
	CHECK(mx_dir_figure(f, GDR_MATRIX_H2D, &w) == 25e9 && w == MX_H2D, "h2d: %d", w);
	f[MX_H2D] = 50e9;
	CHECK(mx_dir_figure(f, GDR_MATRIX_BOTH, &w) == 40e9 && w == MX_D2H, "both: %d", w);
	f[MX_D2H] = 0; /* a direction that did not run is the pair's figure */
	CHECK(mx_dir_figure(f, GDR_MATRIX_BOTH, &w) == 0 && w == MX_D2H, "did not run: %d", w);
	CHECK(mx_dir_figure(f, GDR_MATRIX_BOTH, NULL) == 0);
}

/*
 * GPU 0 x NIC 0: d2h 40, h2d 10 GB/s; x NIC 1: d2h 30, h2d 30. d2h alone prefers NIC 0,
 * h2d alone and both (the smaller: 10 against 30) NIC 1.
 */
static void on_a_matrix(void)
{
	static struct mx m;
	struct gdr_opts o = {0};
	const double fig[2][MX_NDIR] = {{40e9, 10e9}, {30e9, 30e9}};

	m.o = &o;
	m.ngpu = 1;
	m.nnic = 2;
	for (int n = 0; n < 2; n++)
		for (int d = 0; d < MX_NDIR; d++)
			m.cell[0][n].d[d].direct = fig[n][d];
	o.matrix_dir = GDR_MATRIX_BOTH;
	CHECK(mx_figure(&m, 0, 0) == 10e9 && mx_figure_dir(&m, 0, 0) == MX_H2D);
	CHECK(mx_figure(&m, 0, 1) == 30e9 && mx_figure(&m, 0, 1) > mx_figure(&m, 0, 0));
	o.matrix_dir = GDR_MATRIX_D2H;
	CHECK(mx_figure(&m, 0, 0) == 40e9 && mx_figure(&m, 0, 0) > mx_figure(&m, 0, 1));
	CHECK(mx_figure_dir(&m, 0, 0) == MX_D2H);
	o.matrix_dir = GDR_MATRIX_H2D;
	CHECK(mx_figure(&m, 0, 0) == 10e9 && mx_figure(&m, 0, 1) == 30e9);
	/* no direct figure anywhere: staged figures, the same rule */
	for (int n = 0; n < 2; n++)
		for (int d = 0; d < MX_NDIR; d++) {
			m.cell[0][n].d[d].staged = fig[n][d] / 2;
			m.cell[0][n].d[d].direct = 0;
		}
	o.matrix_dir = GDR_MATRIX_BOTH;
	CHECK(mx_figure(&m, 0, 0) == 5e9 && mx_figure_dir(&m, 0, 0) == MX_H2D);
}

int main(void)
{
	sides();
	figures();
	on_a_matrix();
	return CHECK_DONE();
}
