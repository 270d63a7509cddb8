/* SPDX-License-Identifier: MIT */
/* PCIe path comparison and PCI address normalization used by --use_cuda=auto. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "cuda_topo.h"

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

	if (failures) {
		fprintf(stderr, "t_cuda_topo: %d failure(s)\n", failures);
		return 1;
	}
	printf("t_cuda_topo: all checks passed\n");
	return 0;
}
