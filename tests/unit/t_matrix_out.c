/* SPDX-License-Identifier: MIT */
/*
 * --matrix's text (launch/matrix_out.c) from a hand-made matrix: the measured pairing's
 * "slowest pair" line is the slowest pair's figure, "-" when a pair has none (a cell
 * that did not run), whatever order the GPUs come in.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "matrix_int.h"
#include "opts.h"
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
			for (int d = 0; d < MX_NDIR; d++) /* both directions: --matrix_dir both */
				m.cell[g][n].d[d].direct = n == g ? bw[g] * 1e9 : 1e9;
		}
		if (!bw[g])
			snprintf(m.cell[g][g].error, sizeof(m.cell[g][g].error), "did not start");
	}
}

/* The "slowest pair:" line of the printed text, into line. */
static void slowest(char *line, size_t n)
{
	char buf[8192];
	FILE *f = tmpfile();
	size_t len;
	const char *p;

	line[0] = '\0';
	if (!f)
		return;
	mx_print(f, &m);
	rewind(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	fclose(f);
	p = strstr(buf, " slowest pair: ");
	if (p)
		snprintf(line, n, "%.*s", (int)strcspn(p, "\n"), p);
}

int main(void)
{
	char line[128];

	setup((const double[]){5, 9, 7});
	slowest(line, sizeof(line));
	CHECK(!strcmp(line, " slowest pair: 5 GB/s"), "'%s'", line);
	setup((const double[]){9, 7, 5});
	slowest(line, sizeof(line));
	CHECK(!strcmp(line, " slowest pair: 5 GB/s"), "'%s'", line);
	/* a pair whose cell did not run is the slowest: no figure, not a later pair's */
	setup((const double[]){5, 0, 7});
	slowest(line, sizeof(line));
	CHECK(!strcmp(line, " slowest pair: - GB/s"), "'%s'", line);
	return CHECK_DONE();
}
