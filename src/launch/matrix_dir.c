/* SPDX-License-Identifier: MIT */
/* --matrix's directions of a cell (matrix_dir.h): which side holds the GPU, the pair's figure. */
#include "config.h"
#include "matrix_dir.h"

const char *mx_dir_name(int d)
{
	return d == MX_H2D ? "h2d" : "d2h";
}

const char *mx_dir_says(int d)
{
	return d == MX_H2D ? "host memory -> GPU (the NIC writes the GPU)"
			   : "GPU -> host memory (the NIC reads the GPU)";
}

bool mx_dir_runs(int asked, int d)
{
	return asked == GDR_MATRIX_BOTH || (asked == GDR_MATRIX_D2H) == (d == MX_D2H);
}

bool mx_gpu_on_client(enum gdr_verb verb, int d)
{
	bool client_sends = verb != GDR_VERB_READ; /* a read's data leaves the server */

	return (d == MX_D2H) == client_sends;
}

double mx_dir_figure(const double fig[MX_NDIR], int asked, int *which)
{
	int w = asked == GDR_MATRIX_H2D ? MX_H2D : MX_D2H;

	if (asked == GDR_MATRIX_BOTH && fig[MX_H2D] < fig[MX_D2H])
		w = MX_H2D;
	if (which)
		*which = w;
	return fig[w];
}
