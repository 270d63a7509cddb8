/* SPDX-License-Identifier: MIT */
/*
 * The row wiring of the ceiling (src/driver/ceil_row.c) over the "ceiling"
 * fixture of tests/doctor/mkfix.sh, found through GDR_SYSFS_ROOT as a run
 * finds it: each row gets the ceiling, limit and note ceiling_compute gives
 * for this side's facts (its arithmetic is t_ceiling's), scaled for -b, with
 * the verbs' port rate over sysfs's, the copy rate on staged rows, and
 * nothing on latency rows. argv[1]: the fixture (its sys/ is GDR_SYSFS_ROOT).
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ceil_row.h"
#include "check.h"

static const char *root;

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

/* What ceiling_compute says for these facts, straight from sysinfo. */
static void expect(const char *dev, const char *gpu, double port_gbps, double copy_Bps,
		   struct ceil_out *out)
{
	struct ceil_in in;

	ceiling_facts(root, dev, 1, gpu, &in);
	if (port_gbps > 0)
		in.port_gbps = port_gbps;
	in.copy_Bps = copy_Bps;
	in.copier = "copy engine";
	ceiling_compute(&in, out);
}

/* One bandwidth row through the wiring, against expect(). */
static void row(const char *dev, const char *gpu, double port_gbps, bool bidir, bool staged,
		double copy_Bps, const char *limit)
{
	struct gdr_ceil_rows cr;
	struct gdr_result r = {.path = staged ? "staged" : gpu ? "direct" : "host"};
	struct ceil_out want;

	gdr_ceil_rows_setup(&cr, dev, 1, port_gbps, gpu != NULL, gpu, bidir);
	gdr_ceil_row(&cr, gpu != NULL, staged, copy_Bps, &r);
	expect(dev, staged ? NULL : gpu, port_gbps, staged ? copy_Bps : 0, &want);
	CHECK(want.gbps > 0 && !strcmp(want.limit, limit), "%s: sysinfo says '%s'", dev,
	      want.limit);
	CHECK(near(r.ceiling_Bps, want.gbps * 1e9 / 8 * (bidir ? 2 : 1)), "%s %s: %g B/s, want %g",
	      dev, r.path, r.ceiling_Bps, want.gbps * 1e9 / 8 * (bidir ? 2 : 1));
	CHECK(!strcmp(r.ceil_limit, limit), "%s %s: limit '%s', want '%s'", dev, r.path,
	      r.ceil_limit, limit);
	if (staged && copy_Bps <= 0)
		CHECK(strstr(r.ceil_note, "copy rate not measured") &&
			  !strncmp(r.ceil_note, want.note, strlen(want.note)),
		      "%s staged: note '%s'", dev, r.ceil_note);
	else
		CHECK(!strcmp(r.ceil_note, want.note), "%s %s: note '%s', want '%s'", dev, r.path,
		      r.ceil_note, want.note);
}

int main(int argc, char **argv)
{
	char sys[4096];
	struct gdr_ceil_rows cr;
	struct gdr_result lat = {.path = "host", .has_lat = true};

	if (argc != 2) {
		printf("usage: t_ceil_row FIXTURE (mkfix.sh FIXTURE ceiling)\n");
		return 1;
	}
	root = argv[1];
	snprintf(sys, sizeof(sys), "%s/sys", root);
	setenv("GDR_SYSFS_ROOT", sys, 1);

	/* host rows: the NIC's Gen4 link under its 400G port; the port itself */
	row("mlx5_1", NULL, 0, false, false, 0, "NIC PCIe Gen4 x16");
	row("mlx5_0", NULL, 0, false, false, 0, "NIC port 400 Gb/s");
	/* -b: both directions, twice the one-way figure */
	row("mlx5_1", NULL, 0, true, false, 0, "NIC PCIe Gen4 x16");
	/* the verbs' rate (a port trained at 200G) over sysfs's 400 */
	row("mlx5_0", NULL, 200, false, false, 0, "NIC port 200 Gb/s");
	/* Soft-RoCE: its 10 Gb/s, no PCIe link */
	row("rxe0", NULL, 0, false, false, 0, "NIC port 10 Gb/s");
	/* direct rows on GPU memory: the GPU's Gen4 link behind the host bridge (PHB) */
	row("mlx5_2", "0000:3F:00.0", 0, false, false, 0, "GPU PCIe Gen4 x16");
	/* staged rows: the copy rate, measured; or the wire and a note when not measured */
	row("mlx5_0", "0000:18:00.0", 0, false, true, 26e9, "copy engine");
	row("mlx5_0", "0000:18:00.0", 0, false, true, 0, "NIC port 400 Gb/s");
	/* -b: a copy rate that already counts both directions is the ceiling, not twice it */
	{
		struct gdr_result r = {.path = "staged"};

		gdr_ceil_rows_setup(&cr, "mlx5_0", 1, 0, true, "0000:18:00.0", true);
		gdr_ceil_row(&cr, true, true, 26e9, &r);
		CHECK(near(r.ceiling_Bps, 26e9) &&
			  !strcmp(r.ceil_limit, "copy engine both ways"),
		      "-b staged: %g B/s '%s', want 26e9 'copy engine both ways'",
		      r.ceiling_Bps, r.ceil_limit);
		/* ... a copier faster than both ports leaves the ports: 2 x 400 Gb/s */
		gdr_ceil_row(&cr, true, true, 110e9, &r);
		CHECK(near(r.ceiling_Bps, 100e9) && !strcmp(r.ceil_limit, "NIC port 400 Gb/s"),
		      "-b staged fast copier: %g B/s '%s'", r.ceiling_Bps, r.ceil_limit);
	}
	/* the size's copier named in the limit (--stage_copy): ce is the copy engine */
	{
		struct gdr_result r = {.path = "staged"};

		gdr_ceil_rows_setup(&cr, "mlx5_0", 1, 0, true, "0000:18:00.0", false);
		gdr_ceil_row_copier(&cr, true, true, 7.25e9, gdr_ceil_copier_name("gdrcopy"), &r);
		CHECK(!strcmp(r.ceil_limit, "gdrcopy"), "limit '%s'", r.ceil_limit);
		gdr_ceil_row_copier(&cr, true, true, 20e9, gdr_ceil_copier_name("sm"), &r);
		CHECK(!strcmp(r.ceil_limit, "sm"), "limit '%s'", r.ceil_limit);
		gdr_ceil_row_copier(&cr, true, true, 26e9, gdr_ceil_copier_name("ce"), &r);
		CHECK(!strcmp(r.ceil_limit, "copy engine"), "limit '%s'", r.ceil_limit);
	}

	/*
	 * gpu-proxy rows (issue 43 item 6): the size times the kernel's own
	 * descriptor rate bounds the row where it is below every other bound
	 * (the port here, 400 Gb/s = 50 GB/s); a tie names the hardware
	 */
	{
		struct gdr_result r = {.path = "gpu-proxy", .bytes = 4096, .gp_kernel_rate = 1.4e6};

		gdr_ceil_rows_setup(&cr, "mlx5_0", 1, 0, true, "0000:18:00.0", false);
		gdr_ceil_row(&cr, true, false, 0, &r);
		CHECK(near(r.ceiling_Bps, 4096 * 1.4e6) &&
			  !strcmp(r.ceil_limit, "gpu-proxy kernel 1.4 M msg/s"),
		      "4 KiB at 1.4 M msg/s: %g B/s '%s'", r.ceiling_Bps, r.ceil_limit);
		r.bytes = 65536; /* 91.8 GB/s: the port's bound */
		gdr_ceil_row(&cr, true, false, 0, &r);
		CHECK(near(r.ceiling_Bps, 50e9) && !strcmp(r.ceil_limit, "NIC port 400 Gb/s"),
		      "64 KiB: %g B/s '%s'", r.ceiling_Bps, r.ceil_limit);
		r.bytes = 50000; /* x 1 M msg/s = 50 GB/s: a tie */
		r.gp_kernel_rate = 1e6;
		gdr_ceil_row(&cr, true, false, 0, &r);
		CHECK(!strcmp(r.ceil_limit, "NIC port 400 Gb/s"), "a tie: '%s'", r.ceil_limit);
		r.bytes = 4096; /* the direct and staged rows carry no rate: no kernel bound */
		r.gp_kernel_rate = 0;
		gdr_ceil_row(&cr, true, false, 0, &r);
		CHECK(!strcmp(r.ceil_limit, "NIC port 400 Gb/s"), "no rate: '%s'", r.ceil_limit);
	}

	/* the rows' port rate is the link's the transport filled (c->link), not verbs' attributes */
	{
		struct gdr_opts o = {0};
		struct gdr_conn c = {.o = &o, .port = 1, .link = {.rate_gbps = 200}};

		snprintf(c.dev_name, sizeof(c.dev_name), "mlx5_0");
		gdr_ceil_rows_init(&cr, &c);
		CHECK(cr.host.port_gbps == 200, "the link's 200 Gb/s: %g", cr.host.port_gbps);
	}
	/* GPU memory at no known PCI address: the GPU's link unknown, said so */
	gdr_ceil_rows_setup(&cr, "mlx5_0", 1, 0, true, "", false);
	lat.has_lat = false;
	gdr_ceil_row(&cr, true, false, 0, &lat);
	CHECK(!strcmp(lat.ceil_limit, "NIC port 400 Gb/s") &&
		  strstr(lat.ceil_note, "GPU PCIe link not readable"),
	      "'%s' '%s'", lat.ceil_limit, lat.ceil_note);
	/* latency rows: nothing */
	lat = (struct gdr_result){.path = "host", .has_lat = true};
	gdr_ceil_row(&cr, false, false, 0, &lat);
	CHECK(lat.ceiling_Bps == 0 && !lat.ceil_limit[0] && !lat.ceil_note[0], "latency row");
	/* a device the host does not have: nothing known */
	gdr_ceil_rows_setup(&cr, "no_such_dev9", 1, 0, false, NULL, false);
	lat = (struct gdr_result){.path = "host"};
	gdr_ceil_row(&cr, false, false, 0, &lat);
	CHECK(lat.ceiling_Bps == 0 && !strcmp(lat.ceil_limit, "unknown"), "'%s'", lat.ceil_limit);
	if (failures)
		printf("t_ceil_row: %d failure(s)\n", failures);
	else
		printf("t_ceil_row: all checks passed\n");
	return failures ? 1 : 0;
}
