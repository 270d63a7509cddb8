/* SPDX-License-Identifier: MIT */
/* IOMMU: off or passthrough lets the NIC reach GPU memory by its bus address. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"
#include "sysfs.h"

/* Domain type of a device's IOMMU group: "identity", "DMA", "DMA-FQ", ... */
static enum doc_iommu group_mode(struct doctor *d, const char *bdf, char *type, size_t n)
{
	char path[PATH_MAX];

	if (fs_read_line(fs_path(path, sizeof(path), d->sysroot,
				 "/sys/bus/pci/devices/%s/iommu_group/type", bdf),
			 type, n))
		return IOMMU_UNKNOWN;
	if (!strcmp(type, "identity"))
		return IOMMU_PT;
	if (!strncmp(type, "DMA", 3))
		return IOMMU_DMA;
	return IOMMU_UNKNOWN;
}

static int has_word(const char *line, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(line, word); p; p = strstr(p + 1, word))
		if ((p == line || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

static const char *const fix_pt =
    "add iommu=pt to the kernel command line (GRUB_CMDLINE_LINUX in /etc/default/grub, "
    "update-grub, reboot), or turn the IOMMU off";

void check_iommu(struct doctor *d)
{
	char path[PATH_MAX], cmdline[4096] = "", type[32], **units;
	int nunits, ndma = 0, npt = 0, nother = 0;
	const char *first_dma = NULL;

	out_group(&d->out, "IOMMU");
	fs_read_line(fs_path(path, sizeof(path), d->procroot, "/proc/cmdline"), cmdline,
		     sizeof(cmdline));
	nunits = fs_list(fs_path(path, sizeof(path), d->sysroot, "/sys/class/iommu"), &units);
	fs_free_names(units, nunits);
	for (int i = 0; i < d->ngpu + d->nnic; i++) {
		const char *bdf = i < d->ngpu ? d->gpu[i].bdf : d->nic[i - d->ngpu].bdf;

		if (!bdf[0])
			continue;
		switch (group_mode(d, bdf, type, sizeof(type))) {
		case IOMMU_PT:
			npt++;
			break;
		case IOMMU_DMA:
			ndma++;
			if (!first_dma)
				first_dma = bdf;
			break;
		default:
			nother++;
		}
	}
	if (nunits == 0 && ndma == 0 && npt == 0) {
		out_add(&d->out, OUT_OK, "iommu.mode", NULL,
			"IOMMU off (/sys/class/iommu is empty): bus addresses are physical");
		return;
	}
	if (ndma) {
		out_add(&d->out, OUT_FAIL, "iommu.mode", fix_pt,
			"IOMMU translates DMA for %d GPU/NIC device(s) (e.g. %s): peer-to-peer "
			"DMA between NIC and GPU is blocked or faults",
			ndma, first_dma);
		return;
	}
	if (npt) {
		out_add(&d->out, OUT_OK, "iommu.mode", NULL,
			"IOMMU in passthrough for the GPUs and NICs (identity domains)%s",
			has_word(cmdline, "iommu=pt") ? ", iommu=pt on the kernel command line"
						      : "");
		return;
	}
	/* IOMMU present, domain types unreadable (kernel < 5.11): judge by the command line. */
	if (has_word(cmdline, "iommu=pt"))
		out_add(&d->out, OUT_OK, "iommu.mode", NULL,
			"IOMMU present, iommu=pt on the kernel command line");
	else if (has_word(cmdline, "intel_iommu=on") || has_word(cmdline, "amd_iommu=on"))
		out_add(&d->out, OUT_FAIL, "iommu.mode", fix_pt,
			"IOMMU enabled on the kernel command line without iommu=pt: DMA is "
			"translated");
	else
		out_add(&d->out, OUT_WARN, "iommu.mode", fix_pt,
			"IOMMU present (%d unit(s)), mode unknown: no group type readable, no "
			"iommu= option on the kernel command line",
			nunits);
}
