/* SPDX-License-Identifier: MIT */
/* PCIe path comparison and PCI address normalization used by --use_cuda=auto. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "cuda_topo.h"
#include "gpu_pair.h"

#include "../unit/check.h"

static void norm(const char *in, const char *want)
{
	char out[32];
	int rc = gdr_pci_normalize(in, out, sizeof(out));

	if (!want) {
		if (rc != -1) {
			fprintf(stderr, "FAIL: '%s' accepted as '%s'\n", in, out);
			failures++;
		}
		return;
	}
	if (rc || strcmp(out, want)) {
		fprintf(stderr, "FAIL: '%s' -> rc %d '%s', want '%s'\n", in, rc, rc ? "" : out,
			want);
		failures++;
	}
}

int main(void)
{
	const char *root = "/sys/devices/pci0000:16";
	const char *nic =
	    "/sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0/0000:18:00.0/0000:19:00.0";
	const char *gpu_sw =
	    "/sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0/0000:18:01.0/0000:1a:00.0";
	const char *gpu_rc = "/sys/devices/pci0000:16/0000:16:02.0/0000:30:00.0";
	const char *gpu_far = "/sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0";
	char small[8];
	/* GB200 tray: GPUs 0,1 and NICs 0,1 on node 0, the rest on node 1 */
	const int gb_gpu[] = {0, 0, 1, 1}, gb_nic[] = {0, 0, 1, 1};
	/* CUDA order across nodes; a software NIC (-1) and one NIC on node 1 */
	const int mix_gpu[] = {1, 0, 1, 0}, mix_nic[] = {-1, 0, 1, 0};
	int gr = -1, nr = -1;

	/* component counting */
	CHECK(gdr_path_common("/a/b/c", "/a/b/c") == 3);
	CHECK(gdr_path_common("/a/b/c", "/a/b/d") == 2);
	CHECK(gdr_path_common("/a/bc", "/a/b") == 1); /* prefix of a name is no match */
	CHECK(gdr_path_common("/a/b", "/a/bc/d") == 1);
	CHECK(gdr_path_common("/a//b/", "/a/b") == 2); /* repeated/trailing slashes */
	CHECK(gdr_path_common("/x", "/y") == 0);
	CHECK(gdr_path_common("", "/y") == 0);
	CHECK(gdr_path_common(root, nic) == 3);
	CHECK(gdr_path_common(nic, gpu_sw) == 5);
	CHECK(gdr_path_common(nic, gpu_rc) == 3);
	CHECK(gdr_path_common(nic, gpu_far) == 2);

	/* classification, and the ordering auto-selection relies on */
	CHECK(gdr_pci_affinity(nic, gpu_sw) == GDR_PCI_SAME_SWITCH);
	CHECK(gdr_pci_affinity(nic, gpu_rc) == GDR_PCI_SAME_ROOT);
	CHECK(gdr_pci_affinity(nic, gpu_far) == GDR_PCI_OTHER_ROOT);
	CHECK(gdr_pci_affinity(nic, NULL) == GDR_PCI_UNKNOWN);
	CHECK(gdr_pci_affinity("", gpu_sw) == GDR_PCI_UNKNOWN);
	CHECK(gdr_pci_affinity("/a/b/c/d", "/a/b/c/e") == GDR_PCI_OTHER_ROOT); /* not sysfs */
	CHECK(gdr_path_common(nic, gpu_sw) > gdr_path_common(nic, gpu_rc));
	CHECK(gdr_path_common(nic, gpu_rc) > gdr_path_common(nic, gpu_far));
	CHECK(strstr(gdr_pci_affinity_str(GDR_PCI_SAME_SWITCH), "switch") != NULL);

	/* NUMA node and order pairing (C2C hosts), both directions */
	for (int i = 0; i < 4; i++) {
		CHECK(gdr_numa_pair_nic(gb_gpu, 4, i, gb_nic, 4, &gr, &nr) == i);
		CHECK(gr == i % 2 && nr == i % 2);
		CHECK(gdr_numa_pair_gpu(gb_gpu, 4, gb_nic, 4, i, NULL, NULL) == i);
	}
	CHECK(gdr_numa_pair_nic(mix_gpu, 4, 1, mix_nic, 4, &gr, &nr) == 1 && gr == 0 && nr == 0);
	CHECK(gdr_numa_pair_nic(mix_gpu, 4, 3, mix_nic, 4, &gr, &nr) == 3 && gr == 1 && nr == 1);
	/* node 1 has one NIC: both of its GPUs wrap onto it, the first GPU wins it */
	CHECK(gdr_numa_pair_nic(mix_gpu, 4, 2, mix_nic, 4, &gr, &nr) == 2 && gr == 1 && nr == 0);
	CHECK(gdr_numa_pair_gpu(mix_gpu, 4, mix_nic, 4, 2, &gr, &nr) == 0 && gr == 0);
	CHECK(gdr_numa_pair_gpu(mix_gpu, 4, mix_nic, 4, 0, NULL, NULL) == -1); /* software */
	CHECK(gdr_numa_pair_nic(mix_gpu, 4, 4, mix_nic, 4, NULL, NULL) == -1);
	CHECK(gdr_numa_pair_nic(gb_gpu, 4, 0, mix_nic, 1, NULL, NULL) == -1); /* no NIC on 0 */
	CHECK(!strcmp(gdr_ordinal(0, small, sizeof(small)), "1st"));
	CHECK(!strcmp(gdr_ordinal(1, small, sizeof(small)), "2nd"));
	CHECK(!strcmp(gdr_ordinal(2, small, sizeof(small)), "3rd"));
	CHECK(!strcmp(gdr_ordinal(10, small, sizeof(small)), "11th"));
	CHECK(!strcmp(gdr_ordinal(21, small, sizeof(small)), "22nd"));
	CHECK(gdr_cpuinfo_grace("/nonexistent/cpuinfo") == 0);

	/* PCI addresses as CUDA, sysfs and users write them */
	norm("0000:19:00.0", "0000:19:00.0");
	norm("00000000:1A:00.0", "0000:1a:00.0");
	norm("19:00.0", "0000:19:00.0");
	norm("0001:c3:1f.7", "0001:c3:1f.7");
	norm("0000:19:00.8", NULL);  /* function > 7 */
	norm("0000:19:20.0", NULL);  /* device > 31 */
	norm("0000:100:00.0", NULL); /* bus > 255 */
	norm("10000:19:00.0", NULL); /* domain > 16 bits */
	norm("0000:19:00", NULL);
	norm("0000:19:00.0x", NULL);
	norm(" 0000:19:00.0", NULL);
	norm("-1:19:00.0", NULL);
	norm("zzz", NULL);
	norm("", NULL);
	CHECK(gdr_pci_normalize(NULL, small, sizeof(small)) == -1);
	CHECK(gdr_pci_normalize("0000:19:00.0", small, sizeof(small)) == -1); /* too small */

	return CHECK_DONE();
}
