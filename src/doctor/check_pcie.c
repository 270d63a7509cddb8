/* SPDX-License-Identifier: MIT */
/*
 * PCIe links: the speed and width every GPU and RDMA NIC trained at against
 * its maximum (a x16 card at x8 halves GPUDirect and the staged copy alike),
 * and each GPU's BAR1 (GPUDirect maps registered GPU memory through it): from
 * sysfs, else from NVML (libnvidia-ml.so.1, loaded at run time: VMs often show
 * no BAR1 in sysfs while the driver knows it).
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "doctor.h"
#include "pcilink.h"
#include "sysfs.h"

#define SMALL_BAR1 (1ULL << 30)

/* "its maximum", or "its slot's maximum; the device can do Gen5" when the slot is lower */
static const char *slot_note(const struct pcie_link *l, char *buf, size_t n)
{
	if (pcie_link_cap_gts(l) < l->max_gts)
		snprintf(buf, n, "its slot's maximum; the device can do Gen%d",
			 pcie_gen(l->max_gts));
	else
		snprintf(buf, n, "its maximum");
	return buf;
}

static void link_check(struct doctor *d, const char *bdf, const char *who, int gpu)
{
	struct pcie_link l;
	char slot[80];
	double cs, ms;
	int cw, mw;

	if (pcie_link_read(d->sysroot, bdf, &l) || !l.max_gts || !l.max_width) {
		out_add(&d->out, OUT_INFO, "pcie.link", NULL,
			"%s (%s): link speed and width not readable", who, bdf);
		return;
	}
	/* what both ends can train at: a Gen5 device in a Gen4 slot runs Gen4 at best */
	cs = l.gts, ms = pcie_link_cap_gts(&l), cw = l.width, mw = l.max_width;
	if (cw < mw)
		out_add(&d->out, OUT_WARN, "pcie.link",
			"reseat the card or move it to a full-width slot; check the BIOS's "
			"bifurcation setting",
			"%s (%s): trained at x%d of x%d (Gen%d): at most %.0f%% of its bandwidth "
			"for GPUDirect and the staged copy alike",
			who, bdf, cw, mw, pcie_gen(cs), 100.0 * cw / mw);
	else if (cs < ms && (!gpu || pcie_gen(cs) > 1))
		/* a GPU drops to Gen1 when idle only: above that it is loaded, or stuck */
		out_add(&d->out, OUT_WARN, "pcie.link",
			gpu ? "look again while a test runs; if it stays, check the slot, riser "
			      "and BIOS link speed setting"
			    : "check the slot, riser and BIOS link speed setting",
			"%s (%s): runs at Gen%d (%g GT/s) of Gen%d (%g GT/s, %s), x%d%s", who, bdf,
			pcie_gen(cs), cs, pcie_gen(ms), ms, slot_note(&l, slot, sizeof(slot)), cw,
			gpu ? ": not the idle Gen1, so the load trained it there" : "");
	else if (cs < ms)
		out_add(
		    &d->out, OUT_INFO, "pcie.link", NULL,
		    "%s (%s): x%d, Gen%d now of Gen%d (%s; GPUs slow the link to Gen1 when idle: "
		    "look again while a test runs)",
		    who, bdf, cw, pcie_gen(cs), pcie_gen(ms), slot_note(&l, slot, sizeof(slot)));
	else
		out_add(&d->out, OUT_OK, "pcie.link", NULL, "%s (%s): Gen%d x%d, %s", who, bdf,
			pcie_gen(cs), cw, slot_note(&l, slot, sizeof(slot)));
}

/* NVML's ABI, as much as is used here (nvml.h need not be installed). */
struct nvml_bar1 {
	unsigned long long total, free, used;
};
struct nvml {
	int tried, ok;
	char why[160];
	int (*init)(void);
	int (*shutdown)(void);
	const char *(*error_string)(int r);
	int (*by_bus_id)(const char *bus, void **dev);
	int (*bar1_info)(void *dev, struct nvml_bar1 *m);
};

/* Load NVML once: GDR_LIBNVML or libnvidia-ml.so.1; with a fixture only when named. */
static int nvml_load(const struct doctor *d, struct nvml *v)
{
	const char *path = getenv("GDR_LIBNVML");
	void *lib;
	int r;

	if (v->tried)
		return v->ok ? 0 : -1;
	v->tried = 1;
	if (!d->live && (!path || !*path)) {
		snprintf(v->why, sizeof(v->why),
			 "NVML not asked about a fixture (unless GDR_LIBNVML names one)");
		return -1;
	}
	if (!path || !*path)
		path = "libnvidia-ml.so.1";
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(v->why, sizeof(v->why), "%s not found (no NVIDIA driver)", path);
		return -1;
	}
	*(void **)&v->init = dlsym(lib, "nvmlInit_v2");
	*(void **)&v->shutdown = dlsym(lib, "nvmlShutdown");
	*(void **)&v->error_string = dlsym(lib, "nvmlErrorString");
	*(void **)&v->by_bus_id = dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&v->bar1_info = dlsym(lib, "nvmlDeviceGetBAR1MemoryInfo");
	if (!v->init || !v->shutdown || !v->error_string || !v->by_bus_id || !v->bar1_info) {
		snprintf(v->why, sizeof(v->why), "%s lacks nvmlDeviceGetBAR1MemoryInfo or its kin",
			 path);
		return -1;
	}
	r = v->init();
	if (r) {
		snprintf(v->why, sizeof(v->why), "nvmlInit failed: %s", v->error_string(r));
		return -1;
	}
	v->ok = 1;
	return 0;
}

/* BAR1 bytes of bdf from NVML; 0, or -1 with the reason in why. */
static int nvml_bar1(const struct doctor *d, struct nvml *v, const char *bdf,
		     unsigned long long *size, char *why, size_t n)
{
	struct nvml_bar1 m = {0};
	void *dev = NULL;
	int r;

	if (nvml_load(d, v)) {
		snprintf(why, n, "%s", v->why);
		return -1;
	}
	r = v->by_bus_id(bdf, &dev);
	if (!r)
		r = v->bar1_info(dev, &m);
	if (r || !m.total) {
		snprintf(why, n, "NVML: %s", r ? v->error_string(r) : "BAR1 total 0");
		return -1;
	}
	*size = m.total;
	return 0;
}

/* BAR1 from the "resource" file (one "start end flags" line per BAR), else NVML. */
static void bar1(struct doctor *d, struct nvml *v, const char *bdf, const char *who)
{
	char path[PATH_MAX], why[200];
	unsigned long long start = 0, end = 0, flags, size;
	const char *from = "sysfs";
	FILE *f = fopen(
	    fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/resource", bdf), "r");
	int n = f ? fscanf(f, "%llx %llx %llx %llx %llx", &start, &end, &flags, &start, &end) : 0;

	if (f)
		fclose(f);
	if (n == 5 && end && end >= start) {
		size = end - start + 1;
	} else if (nvml_bar1(d, v, bdf, &size, why, sizeof(why)) == 0) {
		from = "NVML; sysfs shows none";
	} else {
		out_add(&d->out, OUT_INFO, "pcie.bar1", NULL,
			"%s (%s): BAR1 size not readable: none in sysfs, %s", who, bdf, why);
		return;
	}
	if (size < SMALL_BAR1)
		out_add(&d->out, OUT_WARN, "pcie.bar1",
			"enable Above 4G Decoding and Resizable BAR in the BIOS",
			"%s (%s): BAR1 is %llu MiB (%s): GPUDirect can map at most that much GPU "
			"memory at once",
			who, bdf, size >> 20, from);
	else
		out_add(&d->out, OUT_OK, "pcie.bar1", NULL,
			"%s (%s): BAR1 %llu MiB (%s; GPUDirect maps registered GPU memory through "
			"it)",
			who, bdf, size >> 20, from);
}

void check_pcie(struct doctor *d)
{
	struct nvml v = {0};
	char who[96];
	int any = 0;

	out_group(&d->out, "PCIe links");
	for (int g = 0; g < d->ngpu; g++) {
		snprintf(who, sizeof(who), "GPU %d",
			 d->gpu[g].cuda_index >= 0 ? d->gpu[g].cuda_index : g);
		link_check(d, d->gpu[g].bdf, who, 1);
		if (d->gpu[g].amd)
			check_amd_bar(d, &d->gpu[g], who);
		else
			bar1(d, &v, d->gpu[g].bdf, who);
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
	if (v.ok)
		v.shutdown();
}
