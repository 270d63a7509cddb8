/* SPDX-License-Identifier: MIT */
/*
 * Unit test of nicpick.c over sysfs fixtures (tests/doctor/mkfix.sh): on the
 * eight-GPU node each GPU's nearest NIC is the one under its PCIe switch; a
 * GPU of unknown position gets the first name; no RDMA device: none. Ties:
 * on a GB200 tray (every NIC as near every GPU) the k-th GPU of a NUMA node
 * takes the k-th NIC of that node in number order (mlx5_9 before mlx5_10);
 * two GPUs and two NICs under one switch pair 1:1.
 * Usage: t_nicpick HGX8-FIXTURE NONIC-FIXTURE GPU-LIST GB200-FIXTURE PIX2-FIXTURE
 * (tests/cluster/nicpick.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "mem.h"

#include "../unit/check.h"

/*
 * With the CUDA driver double (GDR_LIBCUDA, GDR_DOUBLE_FIXTURE = the GPU list),
 * or the HIP double (GDR_LIBHIP, GDR_HIP_DOUBLE_FIXTURE = the same list) for
 * ROCm: local rank r's GPU is GPU r modulo 8, its PCI address the list's line,
 * and its NIC mlx5_r.
 */
static void gpu_chain(const char *sys)
{
	enum gdr_mem_api api = getenv("GDR_LIBHIP") ? GDR_MEM_API_ROCM : GDR_MEM_API_CUDA;
	char bdf[32], nic[64], why[160], want[64];

	if (!getenv("GDR_LIBCUDA") && !getenv("GDR_LIBHIP"))
		return;
	for (int r = 0; r < 10; r++) {
		CHECK(gdr_mem_gpu_bdf(api, -(r + 1), bdf, sizeof(bdf), why, sizeof(why)) == 0,
		      "rank %d: %s", r, why);
		CHECK(gdr_nic_choose(sys, bdf, 8, nic, sizeof(nic)) == 8);
		snprintf(want, sizeof(want), "mlx5_%d", r % 8);
		CHECK(!strcmp(nic, want), "local rank %d: GPU %s, NIC %s, want %s", r, bdf, nic,
		      want);
	}
	CHECK(gdr_mem_gpu_bdf(api, 3, bdf, sizeof(bdf), why, sizeof(why)) == 0 &&
		  !strcmp(bdf, "0000:5d:00.0"),
	      "GPU 3: %s", bdf);
	CHECK(gdr_mem_gpu_bdf(api, 8, bdf, sizeof(bdf), why, sizeof(why)) == -1 &&
		  strstr(why, api == GDR_MEM_API_ROCM ? "no AMD GPU 8 (ROCm sees 8)"
						      : "no CUDA device 8 (the host has 8)"),
	      "GPU 8 of 8: %s", why);
}

static void want_nic(const char *fix, const char *bdf, const char *want)
{
	char sys[512], nic[64];

	snprintf(sys, sizeof(sys), "%s/sys", fix);
	gdr_nic_nearest(sys, bdf, nic, sizeof(nic));
	CHECK(!strcmp(nic, want), "%s: GPU %s takes %s, want %s", fix, bdf, nic, want);
}

static void ties(const char *gb200, const char *pix2)
{
	char cmd[1200];

	/* GB200: two GPUs and two NICs per Grace, each GPU its own NIC */
	want_nic(gb200, "0008:01:00.0", "mlx5_0");
	want_nic(gb200, "0009:01:00.0", "mlx5_1");
	want_nic(gb200, "0018:01:00.0", "mlx5_2");
	want_nic(gb200, "0019:01:00.0", "mlx5_3");
	/* node 0's NICs renamed mlx5_10 and mlx5_9: number order, not strcmp's */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s/sys/class/infiniband' && mv mlx5_0 mlx5_10 && mv mlx5_1 mlx5_9", gb200);
	CHECK(system(cmd) == 0);
	want_nic(gb200, "0008:01:00.0", "mlx5_9");
	want_nic(gb200, "0009:01:00.0", "mlx5_10");
	want_nic(gb200, "0019:01:00.0", "mlx5_3");
	/* one switch, two GPUs, NICs mlx5_2 and mlx5_10 */
	want_nic(pix2, "0000:03:00.0", "mlx5_2");
	want_nic(pix2, "0000:05:00.0", "mlx5_10");
}

int main(int argc, char **argv)
{
	char sys[512], line[256], nic[64], want[16];
	FILE *f;
	int k = 0;

	if (argc != 6) {
		fprintf(stderr,
			"usage: t_nicpick HGX8-DIR NONIC-DIR GPU-LIST GB200-DIR PIX2-DIR\n");
		return 2;
	}
	ties(argv[4], argv[5]);
	snprintf(sys, sizeof(sys), "%s/sys", argv[1]);
	f = fopen(argv[3], "r");
	CHECK(f != NULL, "%s", argv[3]);
	while (f && fgets(line, sizeof(line), f)) {
		char bdf[32];

		if (line[0] == '#' || sscanf(line, "%31s", bdf) != 1)
			continue;
		CHECK(gdr_nic_nearest(sys, bdf, nic, sizeof(nic)) == 8);
		snprintf(want, sizeof(want), "mlx5_%d", k++);
		CHECK(!strcmp(nic, want), "GPU %s: nearest %s, want %s", bdf, nic, want);
	}
	if (f)
		fclose(f);
	CHECK(k == 8, "%d GPUs in the list", k);
	gpu_chain(sys);
	/* unknown position: no NIC is nearer, the first name */
	CHECK(gdr_nic_nearest(sys, "0000:77:00.0", nic, sizeof(nic)) == 8 && !strcmp(nic, "mlx5_0"),
	      "%s", nic);
	CHECK(gdr_nic_nearest(sys, NULL, nic, sizeof(nic)) == 8 && !strcmp(nic, "mlx5_0"));
	/* no GPU: one rank may take the first NIC, eight may not (all would take mlx5_0) */
	CHECK(gdr_nic_choose(sys, NULL, 1, nic, sizeof(nic)) == 8 && !strcmp(nic, "mlx5_0"));
	CHECK(gdr_nic_choose(sys, NULL, 8, nic, sizeof(nic)) == -1 && !nic[0]);
	CHECK(gdr_nic_choose(sys, "0000:ab:00.0", 8, nic, sizeof(nic)) == 8 &&
		  !strcmp(nic, "mlx5_5"),
	      "%s", nic);
	/* one NIC: every rank takes it */
	snprintf(line, sizeof(line), "%s/sys/class/infiniband", argv[1]);
	for (k = 1; k < 8; k++) {
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s/mlx5_%d'", line, k);
		CHECK(system(cmd) == 0);
	}
	CHECK(gdr_nic_choose(sys, NULL, 8, nic, sizeof(nic)) == 1 && !strcmp(nic, "mlx5_0"));
	snprintf(sys, sizeof(sys), "%s/sys", argv[2]);
	CHECK(gdr_nic_nearest(sys, "0000:18:00.0", nic, sizeof(nic)) == 0 && !nic[0]);
	return CHECK_DONE();
}
