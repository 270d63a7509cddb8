/* SPDX-License-Identifier: MIT */
/*
 * PCIe links: the speed and width every GPU and RDMA NIC trained at against
 * its maximum (a x16 card at x8 halves GPUDirect and the staged copy alike),
 * and each GPU's BAR1 (GPUDirect maps registered GPU memory through it).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "doctor.h"
#include "sysfs.h"

#define SMALL_BAR1 (1ULL << 30)

static int read_attr(const struct doctor *d, const char *bdf, const char *name, double *v)
{
	char path[PATH_MAX], line[64], *end;

	if (fs_read_line(
		fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/%s", bdf, name),
		line, sizeof(line)))
		return -1;
	*v = strtod(line, &end); /* "16.0 GT/s PCIe", "16" */
	return end == line ? -1 : 0;
}

static int gen_of(double gts)
{
	static const double gen[] = {2.5, 5, 8, 16, 32, 64};

	for (int i = 0; i < 6; i++)
		if (gts <= gen[i] + 0.1)
			return i + 1;
	return 0;
}

static void link_check(struct doctor *d, const char *bdf, const char *who, int gpu)
{
	double cs, ms, cw, mw;

	if (read_attr(d, bdf, "current_link_speed", &cs) ||
	    read_attr(d, bdf, "max_link_speed", &ms) ||
	    read_attr(d, bdf, "current_link_width", &cw) ||
	    read_attr(d, bdf, "max_link_width", &mw)) {
		out_add(&d->out, OUT_INFO, "pcie.link", NULL,
			"%s (%s): link speed and width not readable", who, bdf);
		return;
	}
	if (cw < mw)
		out_add(&d->out, OUT_WARN, "pcie.link",
			"reseat the card or move it to a full-width slot; check the BIOS's "
			"bifurcation setting",
			"%s (%s): trained at x%g of x%g (Gen%d): at most %.0f%% of its bandwidth "
			"for GPUDirect and the staged copy alike",
			who, bdf, cw, mw, gen_of(cs), 100 * cw / mw);
	else if (cs < ms && !gpu)
		out_add(&d->out, OUT_WARN, "pcie.link",
			"check the slot, riser and BIOS link speed setting",
			"%s (%s): runs at Gen%d (%g GT/s) of Gen%d (%g GT/s), x%g", who, bdf,
			gen_of(cs), cs, gen_of(ms), ms, cw);
	else if (cs < ms)
		out_add(
		    &d->out, OUT_INFO, "pcie.link", NULL,
		    "%s (%s): x%g, Gen%d now of Gen%d (GPUs slow the link when idle: look again "
		    "while a test runs)",
		    who, bdf, cw, gen_of(cs), gen_of(ms));
	else
		out_add(&d->out, OUT_OK, "pcie.link", NULL, "%s (%s): Gen%d x%g, its maximum", who,
			bdf, gen_of(cs), cw);
}

/* BAR1 from the "resource" file: one "start end flags" line per BAR. */
static void bar1(struct doctor *d, const char *bdf, const char *who)
{
	char path[PATH_MAX];
	unsigned long long start = 0, end = 0, flags, size;
	FILE *f = fopen(
	    fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/resource", bdf), "r");
	int n = f ? fscanf(f, "%llx %llx %llx %llx %llx", &start, &end, &flags, &start, &end) : 0;

	if (f)
		fclose(f);
	if (n != 5 || !end || end < start) {
		out_add(&d->out, OUT_INFO, "pcie.bar1", NULL, "%s (%s): BAR1 size not readable",
			who, bdf);
		return;
	}
	size = end - start + 1;
	if (size < SMALL_BAR1)
		out_add(&d->out, OUT_WARN, "pcie.bar1",
			"enable Above 4G Decoding and Resizable BAR in the BIOS",
			"%s (%s): BAR1 is %llu MiB: GPUDirect can map at most that much GPU memory "
			"at once",
			who, bdf, size >> 20);
	else
		out_add(&d->out, OUT_OK, "pcie.bar1", NULL,
			"%s (%s): BAR1 %llu MiB (GPUDirect maps registered GPU memory through it)",
			who, bdf, size >> 20);
}

void check_pcie(struct doctor *d)
{
	char who[96];
	int any = 0;

	out_group(&d->out, "PCIe links");
	for (int g = 0; g < d->ngpu; g++) {
		snprintf(who, sizeof(who), "GPU %d",
			 d->gpu[g].cuda_index >= 0 ? d->gpu[g].cuda_index : g);
		link_check(d, d->gpu[g].bdf, who, 1);
		bar1(d, d->gpu[g].bdf, who);
		any = 1;
	}
	for (int n = 0; n < d->nnic; n++) {
		if (!d->nic[n].bdf[0])
			continue; /* software device: no PCIe link */
		link_check(d, d->nic[n].bdf, d->nic[n].name, 0);
		any = 1;
	}
	if (!any)
		out_add(&d->out, OUT_INFO, "pcie.link", NULL,
			"skipped: no GPU and no hardware RDMA device found");
}
