/* SPDX-License-Identifier: MIT */
/*
 * A bandwidth row's ceiling (src/sysinfo/ceiling.c) over fixture hosts made by
 * tests/doctor/mkfix.sh: argv[1] the "ceiling" tree (the HGX node with 400G
 * ports, a NIC at Gen4, a GPU behind the host bridge, Soft-RoCE), argv[2] the
 * "gb200" tree (no link files, every GPU-NIC pair NODE or SYS).
 *
 * The expected figures are worked out here by hand from the PCIe arithmetic,
 * not by calling the code under test: per direction, GT/s x lanes x line
 * encoding (128/130 from Gen3, 8/10 before) gives bits of the link; a TLP of
 * MPS payload bytes costs MPS + 24 bytes on it (16 B header, 4 B LCRC, 4 B
 * framing and sequence). Gb/s throughout (the /8 to bytes and x8 back cancel).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ceiling.h"
#include "ibdev.h"
#include "pcilink.h"
#include "../unit/check.h"

/* Gen4 x16, MPS 256 (assumed): 16 x 16 = 256 Gb/s of line, 252.06 of data, x 256/280. */
#define GEN4_X16_256 (16.0 * 16 * 128 / 130 * 256 / 280)
/* Gen4 x8, MPS 256: half the Gen4 x16 figure. */
#define GEN4_X8_256 (16.0 * 8 * 128 / 130 * 256 / 280)
/* Gen5 x16, MPS 256: 460.9 Gb/s (57.6 GB/s), above a 400G port. */
#define GEN5_X16_256 (32.0 * 16 * 128 / 130 * 256 / 280)
/* Gen5 x16, MPS 512 read from config space: 481.6 Gb/s, below an 800G port. */
#define GEN5_X16_512 (32.0 * 16 * 128 / 130 * 512 / 536)

static const char *root;

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

/* One row: NIC dev port 1, GPU memory at gpu (NULL: host memory), staged at copy_Bps. */
static void row(const char *dev, const char *gpu, double copy_Bps, double want, const char *limit,
		const char *note)
{
	struct ceil_in in;
	struct ceil_out out;

	ceiling_facts(root, dev, 1, gpu, &in);
	in.copy_Bps = copy_Bps;
	in.copier = "copy engine";
	ceiling_compute(&in, &out);
	CHECK(near(out.gbps, want), "%s %s: %.6f Gb/s, want %.6f", dev, gpu ? gpu : "host",
	      out.gbps, want);
	CHECK(!strcmp(out.limit, limit), "%s %s: limit '%s', want '%s'", dev, gpu ? gpu : "host",
	      out.limit, limit);
	CHECK(!strcmp(out.note, note), "%s %s: note '%s', want '%s'", dev, gpu ? gpu : "host",
	      out.note, note);
}

static void fixture_rows(const char *gb200)
{
	struct pcie_link l;
	char bdf[32];

	/* the readers themselves */
	CHECK(ib_port_rate_gbps(root, "mlx5_0", 1) == 400);
	CHECK(ib_port_rate_gbps(root, "rxe0", 1) == 10);
	/* QDR's 40 Gb/s signalling is 32 of data (8b/10b); FDR's 56 is 54.5 (64b/66b) */
	CHECK(ib_port_rate_gbps(root, "mlx5_6", 1) == 32, "%g",
	      ib_port_rate_gbps(root, "mlx5_6", 1));
	CHECK(near(ib_port_rate_gbps(root, "mlx5_7", 1), 4 * 14.0625 * 64 / 66), "%g",
	      ib_port_rate_gbps(root, "mlx5_7", 1));
	CHECK(ib_port_rate_gbps(root, "mlx5_0", 2) == 0, "no port 2");
	CHECK(!ib_dev_bdf(root, "mlx5_1", bdf, sizeof(bdf)) && !strcmp(bdf, "0000:2b:00.0"));
	CHECK(ib_dev_bdf(root, "rxe0", bdf, sizeof(bdf)) == -1, "rxe0 has no PCI function");
	/* an mlx5 sub-function (issue 32.16): its PF's function, not a virtual device */
	CHECK(!ib_dev_bdf(root, "mlx5_8", bdf, sizeof(bdf)) && !strcmp(bdf, "0000:19:00.0"),
	      "%s", bdf);
	CHECK(!pcie_link_read(root, "0000:2b:00.0", &l) && l.gts == 16 && l.width == 16 &&
	      l.max_gts == 32 && l.max_width == 16 && l.mps == 0);
	CHECK(!pcie_link_read(root, "0000:5e:00.0", &l) && l.mps == 512, "mps %d", l.mps);
	CHECK(!pcie_link_read(root, "0000:9b:00.0", &l) && l.mps == 0, "64-byte config: %d", l.mps);
	CHECK(pcie_link_read(root, "0000:77:00.0", &l) == -1, "no such device");

	/* host memory, 400G NIC at Gen5 x16: the port (400 < 460.9) */
	row("mlx5_0", NULL, 0, 400, "NIC port 400 Gb/s", "MPS assumed 256 B");
	/* host memory, 400G NIC trained at Gen4 x16: its PCIe link (230.5 < 400) */
	row("mlx5_1", NULL, 0, GEN4_X16_256, "NIC PCIe Gen4 x16", "MPS assumed 256 B");
	CHECK(near(GEN4_X16_256, 230.456263736), "the hand figure for Gen4 x16");
	/* GPU memory below the NIC's switch (PIX), both Gen5 x16: the port, no P2P note */
	row("mlx5_0", "0000:18:00.0", 0, 400, "NIC port 400 Gb/s", "MPS assumed 256 B");
	/* GPU at Gen4 reached through the host bridge: its link, and PHB named */
	row("mlx5_2", "0000:3F:00.0", 0, GEN4_X16_256, "GPU PCIe Gen4 x16",
	    "P2P through PHB: may be far below; MPS assumed 256 B");
	/* GPU 1 idles at Gen1 (of Gen5): its maximum is taken, its NIC's Gen4 link limits */
	row("mlx5_1", "0000:2a:00.0", 0, GEN4_X16_256, "NIC PCIe Gen4 x16",
	    "GPU link idle at Gen1: Gen5 taken; MPS assumed 256 B");
	/* a Gen5 GPU loaded at Gen4 in a Gen4 slot: Gen4, not the GPU's own Gen5 maximum */
	row("mlx5_2", "0000:3a:00.0", 0, GEN4_X16_256, "GPU PCIe Gen4 x16", "MPS assumed 256 B");
	/* ... idling at Gen1 in a Gen4 slot: the slot's Gen4 taken for its idle Gen1 */
	row("mlx5_3", "0000:5d:00.0", 0, GEN4_X16_256, "GPU PCIe Gen4 x16",
	    "GPU link idle at Gen1: Gen4 taken (its slot's maximum); MPS assumed 256 B");
	CHECK(!pcie_link_read(root, "0000:3a:00.0", &l) && l.up_max_gts == 16 &&
		  l.up_max_width == 16 && pcie_link_cap_gts(&l) == 16,
	      "the slot's maximum read from the port above");
	/* the switch over mlx5_4 and GPU 4 has a Gen4 x8 uplink: host memory crosses it ... */
	row("mlx5_4", NULL, 0, GEN4_X8_256, "PCIe Gen4 x8 above the NIC (0000:97:01.0)",
	    "MPS assumed 256 B");
	/* ... GPUDirect between them turns below it (PIX): the port */
	row("mlx5_4", "0000:9a:00.0", 0, 400, "NIC port 400 Gb/s", "MPS assumed 256 B");
	/* ... and GPU 4 with the NIC of another switch goes up through it */
	row("mlx5_5", "0000:9a:00.0", 0, GEN4_X8_256, "PCIe Gen4 x8 above the GPU (0000:97:01.0)",
	    "P2P through NODE: may be far below; MPS assumed 256 B");
	/* GPU 4 and mlx5_4 together through their switch's Gen4 x8 uplink: its rate, not the
	 * sum of their Gen5 x16 links; two devices of different switches add up */
	{
		const char *two[] = {"0000:9a:00.0", "0000:9b:00.0"};
		const char *apart[] = {"0000:9a:00.0", "0000:18:00.0"};
		double each[] = {GEN5_X16_256 / 8 * 1e9, GEN5_X16_256 / 8 * 1e9};
		char at[32];

		CHECK(near(pcie_shared_sum(root, two, each, 2, at, sizeof(at)),
			   GEN4_X8_256 / 8 * 1e9) &&
			  !strcmp(at, "0000:98:00.0"),
		      "shared uplink: %g at '%s'",
		      pcie_shared_sum(root, two, each, 2, at, sizeof(at)), at);
		CHECK(near(pcie_shared_sum(root, apart, each, 2, at, sizeof(at)),
			   2 * GEN5_X16_256 / 8 * 1e9) &&
			  !at[0],
		      "apart: '%s'", at);
	}
	/* staged, copies at 26 GB/s (208 Gb/s) below the 400G port: the copier */
	row("mlx5_0", "0000:18:00.0", 26e9, 26e9 * 8 / 1e9, "copy engine",
	    "MPS assumed 256 B");
	/* ... and a copier faster than the port leaves the port */
	row("mlx5_0", "0000:18:00.0", 55.1e9, 400, "NIC port 400 Gb/s", "MPS assumed 256 B");
	/* 800G port, MPS 512 read from config space: the NIC's link, nothing assumed */
	row("mlx5_3", NULL, 0, GEN5_X16_512, "NIC PCIe Gen5 x16", "");
	CHECK(near(GEN5_X16_512, 481.550401837), "the hand figure for Gen5 x16 at 512 B");
	/* mlx5_0's sub-function: its PF's link, and the GPU under the same switch (PIX) */
	row("mlx5_8", NULL, 0, 100, "NIC port 100 Gb/s", "MPS assumed 256 B");
	row("mlx5_8", "0000:18:00.0", 0, 100, "NIC port 100 Gb/s", "MPS assumed 256 B");
	/* Soft-RoCE: 10 Gb/s and no PCIe link */
	row("rxe0", NULL, 0, 10, "NIC port 10 Gb/s", "no PCIe link (virtual device)");
	/* ... with GPU memory the GPU's link counts (above 10 Gb/s), its MPS assumed */
	row("rxe0", "0000:18:00.0", 0, 10, "NIC port 10 Gb/s",
	    "no PCIe link (virtual device); MPS assumed 256 B");
	/* GPU memory at an address too long to be one: the GPU's link unknown, not host memory */
	row("mlx5_0", "0000:18:00.0.0000000000000000", 0, 400, "NIC port 400 Gb/s",
	    "GPU PCIe link not readable; P2P path unknown; MPS assumed 256 B");
	/* no such device: nothing known */
	row("mlx5_9", NULL, 0, 0, "unknown", "port rate unknown; NIC PCIe link not readable");

	/* GB200 tray: no link files; GPU 0 and NIC mlx5_2 sit on different Graces (SYS) */
	root = gb200;
	row("mlx5_2", "0008:01:00.0", 0, 100, "NIC port 100 Gb/s",
	    "NIC PCIe link not readable; GPU PCIe link not readable; "
	    "P2P through SYS: may be far below");
	row("mlx5_0", "0008:01:00.0", 0, 100, "NIC port 100 Gb/s",
	    "NIC PCIe link not readable; GPU PCIe link not readable; "
	    "P2P through NODE: may be far below");
}

/* The arithmetic and the config-space walk on made-up input. */
static void pure(void)
{
	unsigned char cfg[256] = {0};
	struct ceil_in in = {.port_gbps = 100, .path = TOPO_UNKNOWN};
	struct ceil_out out;

	/* Gen1 x1 at 128 B: 2.5 Gb/s line, 8b/10b, 128 of 152 bytes are payload */
	CHECK(near(pcie_payload_Bps(2.5, 1, 128) * 8 / 1e9, 2.5 * 8 / 10 * 128 / 152));
	/* Gen3 x8 at 4096 B */
	CHECK(near(pcie_payload_Bps(8, 8, 4096) * 8 / 1e9, 8.0 * 8 * 128 / 130 * 4096 / 4120));
	/* MPS 0 is the assumed 256 */
	CHECK(near(pcie_payload_Bps(32, 16, 0) * 8 / 1e9, GEN5_X16_256));
	CHECK(near(GEN5_X16_256, 460.912527473), "the hand figure for Gen5 x16");
	/* Gen6 x16 at 256 B: flits give 236 of 256 bytes to TLPs, each TLP then only its 16 B
	 * header (111.06 GB/s, not the 107.9 of Gen5's 24 B per TLP) */
	CHECK(near(pcie_payload_Bps(64, 16, 256) / 1e9, 64.0 * 16 / 8 * 236 / 256 * 256 / 272),
	      "Gen6 x16: %.3f GB/s", pcie_payload_Bps(64, 16, 256) / 1e9);
	CHECK(pcie_payload_Bps(0, 16, 256) == 0 && pcie_payload_Bps(16, 0, 256) == 0);
	CHECK(pcie_payload_Bps(12, 16, 256) == 0, "12 GT/s is no PCIe speed");
	CHECK(pcie_gen(2.5) == 1 && pcie_gen(8) == 3 && pcie_gen(32) == 5 && pcie_gen(64) == 6);

	/* config space: status bit, pointer, a chain, a loop, reserved MPS codes, short images */
	CHECK(pcie_mps_from_config(cfg, sizeof(cfg)) == 0, "no capability list");
	cfg[6] = 0x10;
	cfg[0x34] = 0x50;
	cfg[0x50] = 0x05; /* MSI, next 0x70 */
	cfg[0x51] = 0x70;
	cfg[0x70] = 0x10; /* PCI Express */
	cfg[0x78] = 0x3 << 5;
	CHECK(pcie_mps_from_config(cfg, sizeof(cfg)) == 1024);
	cfg[0x78] = 0x6 << 5;
	CHECK(pcie_mps_from_config(cfg, sizeof(cfg)) == 0, "reserved code");
	CHECK(pcie_mps_from_config(cfg, 0x60) == 0, "cut before the capability");
	cfg[0x70] = 0x11; /* MSI-X pointing back at MSI: a loop */
	cfg[0x71] = 0x50;
	CHECK(pcie_mps_from_config(cfg, sizeof(cfg)) == 0, "a capability loop ends");

	/* copier name and rate wording; the lowest wins, ties keep the first named */
	in.copy_Bps = 5.5e9;
	in.copier = "gdrcopy";
	in.nic_virtual = true;
	ceiling_compute(&in, &out);
	CHECK(near(out.gbps, 44) && !strcmp(out.limit, "gdrcopy"), "%g %s", out.gbps,
	      out.limit);
	in.copy_Bps = 12.5e9; /* 100 Gb/s: the port's, named first */
	ceiling_compute(&in, &out);
	CHECK(near(out.gbps, 100) && !strcmp(out.limit, "NIC port 100 Gb/s"), "%s", out.limit);
	/* a direct GPU row with the path unknown says so */
	in = (struct ceil_in){.port_gbps = 400,
			      .nic = {.gts = 32, .width = 16, .mps = 256},
			      .gpu_mem = true,
			      .gpu = {.gts = 32, .width = 8, .mps = 256},
			      .path = TOPO_UNKNOWN};
	ceiling_compute(&in, &out);
	CHECK(near(out.gbps, 32.0 * 8 * 128 / 130 * 256 / 280) &&
		  !strcmp(out.limit, "GPU PCIe Gen5 x8") && !strcmp(out.note, "P2P path unknown"),
	      "%g '%s' '%s'", out.gbps, out.limit, out.note);
	in.path = TOPO_PXB;
	ceiling_compute(&in, &out);
	CHECK(!strcmp(out.note, ""), "PXB: '%s'", out.note);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		printf("usage: t_ceiling CEILING-FIXTURE GB200-FIXTURE (mkfix.sh DIR "
		       "ceiling|gb200)\n");
		return 1;
	}
	root = argv[1];
	pure();
	fixture_rows(argv[2]);
	return CHECK_DONE();
}
