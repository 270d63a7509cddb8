/* SPDX-License-Identifier: MIT */
/*
 * AMD GPUs (Instinct MI100..MI355X) from sysfs alone, no ROCm needed: PCI vendor
 * 0x1002 with a display, 3D, other display or processing-accelerator class; the
 * amdgpu module; /dev/kfd, the compute device node every ROCm process opens; and
 * large BAR: amdgpu lets a peer (the NIC) reach VRAM only when all of it is
 * visible through BAR0, else a dma-buf export lands in system memory.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "doctor.h"
#include "sysfs.h"

#define VENDOR_AMD 0x1002

/* The GPU classes amdgpu binds on Instinct cards: 0x0300, 0x0302, 0x0380, 0x1200. */
static int amd_gpu_class(long class)
{
	long c = class >> 8;

	return c == 0x0300 || c == 0x0302 || c == 0x0380 || c == 0x1200;
}

/* Instinct device ids (the rest are named by id). */
static const char *amd_name(long device)
{
	static const struct {
		long id;
		const char *name;
	} names[] = {
	    {0x738c, "AMD Instinct MI100"},  {0x740c, "AMD Instinct MI250X/MI250"},
	    {0x740f, "AMD Instinct MI210"},  {0x74a0, "AMD Instinct MI300A"},
	    {0x74a1, "AMD Instinct MI300X"}, {0x74a5, "AMD Instinct MI325X"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].id == device)
			return names[i].name;
	return NULL;
}

int amd_find_gpus(struct doctor *d)
{
	char path[PATH_MAX], **devs;
	long vendor, class, device;
	int n, found = 0;

	n = fs_list(fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices"), &devs);
	for (int i = 0; i < n && d->ngpu < DOC_MAX_DEV; i++) {
		struct doc_gpu *g;
		const char *name;

		if (!topo_is_bdf(devs[i]) ||
		    fs_read_long(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/bus/pci/devices/%s/vendor", devs[i]),
				 &vendor) ||
		    vendor != VENDOR_AMD ||
		    fs_read_long(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/bus/pci/devices/%s/class", devs[i]),
				 &class) ||
		    !amd_gpu_class(class))
			continue;
		g = doc_gpu_new(d, devs[i], &device);
		g->amd = 1;
		name = amd_name(device);
		if (name)
			snprintf(g->name, sizeof(g->name), "%s (0x%04lx)", name, device);
		else
			snprintf(g->name, sizeof(g->name), "AMD device 0x%04lx", device);
		fs_link_name(fs_path(path, sizeof(path), d->sysroot,
				     "/sys/bus/pci/devices/%s/driver", devs[i]),
			     g->driver, sizeof(g->driver));
		g->have_loc = !topo_locate(d->sysroot, g->bdf, &g->loc);
		found++;
	}
	fs_free_names(devs, n);
	d->amd = found;
	return found;
}



static void amd_driver(struct doctor *d)
{
	char path[PATH_MAX], ver[64];

	if (!fs_exists(fs_path(path, sizeof(path), d->sysroot, "/sys/module/amdgpu"))) {
		out_add(&d->out, OUT_FAIL, "gpu.driver",
			"load the AMD GPU driver (`modprobe amdgpu`; the amdgpu-dkms package of "
			"ROCm for Instinct cards), then `amd-smi list`",
			"amdgpu not loaded (no /sys/module/amdgpu)");
		return;
	}
	if (!fs_read_line(fs_path(path, sizeof(path), d->sysroot, "/sys/module/amdgpu/version"),
			  ver, sizeof(ver)))
		out_add(&d->out, OUT_OK, "gpu.driver", NULL, "amdgpu %s loaded (amdgpu-dkms)", ver);
	else
		out_add(&d->out, OUT_OK, "gpu.driver", NULL,
			"amdgpu loaded (the kernel's own: no module version)");
}

/* /dev/kfd below the proc root (where the doctor reads /dev/kmsg too). */
static void amd_kfd(struct doctor *d)
{
	char path[PATH_MAX];

	fs_path(path, sizeof(path), d->procroot, "/dev/kfd");
	if (!fs_exists(path))
		out_add(&d->out, OUT_FAIL, "gpu.kfd",
			"ROCm needs the KFD compute interface: a kernel with CONFIG_HSA_AMD "
			"(or amdgpu-dkms), and in a container --device=/dev/kfd --device=/dev/dri",
			"no /dev/kfd: no ROCm process can use these GPUs");
	else if (d->live && access(path, R_OK | W_OK))
		out_add(&d->out, OUT_WARN, "gpu.kfd",
			"add the user to the render and video groups (`usermod -aG render,video "
			"USER`)",
			"/dev/kfd exists but this user cannot open it for reading and writing");
	else
		out_add(&d->out, OUT_OK, "gpu.kfd", NULL, "/dev/kfd present (ROCm compute)");
}

/* The HIP runtime's view; 1 when it was asked and answered. */
static int amd_rocm(struct doctor *d)
{
	char why[512];
	int seen;

	if (!d->live && !getenv("GDR_LIBHIP")) {
		out_add(&d->out, OUT_INFO, "gpu.rocm", NULL,
			"ROCm checks skipped: --sysfs-root/--proc-root describe another system "
			"(unless GDR_LIBHIP names a HIP runtime for it, such as the test double); "
			"GPU numbers below are PCI order");
		return 0;
	}
	if (rocm_probe(d, &seen, why, sizeof(why))) {
		out_add(&d->out, OUT_WARN, "gpu.rocm",
			"run `amd-smi list` and `rocminfo`; without the HIP runtime no ROCm "
			"program (perftest --use_rocm included) can use these GPUs",
			"ROCm checks not possible: %s", why);
		return 0;
	}
	if (seen < d->ngpu)
		out_add(&d->out, OUT_WARN, "gpu.rocm",
			"check HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES and the container's "
			"devices (/dev/dri/renderD*)",
			"%s sees %d of the %d AMD GPU(s) on the PCI bus", why, seen, d->ngpu);
	else
		out_add(&d->out, OUT_OK, "gpu.rocm", NULL,
			"%s sees all %d AMD GPU(s); GPU numbers below are HIP's", why, seen);
	return 1;
}

void check_amd_gpu(struct doctor *d)
{
	char numa[16], path[TOPO_MAX_DEPTH * (TOPO_BDF_LEN + 3) + 32];
	int asked;

	amd_driver(d);
	amd_kfd(d);
	asked = amd_rocm(d);
	for (int i = 0; i < d->ngpu; i++) {
		struct doc_gpu *g = &d->gpu[i];
		int bound = !strcmp(g->driver, "amdgpu");

		out_add(&d->out, bound ? OUT_OK : OUT_FAIL, "gpu.device",
			bound ? NULL
			      : "bind the GPU to amdgpu (unbind vfio-pci; load amdgpu and check "
				"dmesg for its probe errors)",
			"GPU %d%s: %s at PCI %s, driver %s, NUMA node %s, PCIe path %s",
			g->cuda_index >= 0 ? g->cuda_index : i,
			asked && g->cuda_index < 0 ? " (hidden from ROCm)" : "", g->name, g->bdf,
			g->driver[0] ? g->driver : "none", doc_numa_str(g->loc.numa, numa, sizeof(numa)),
			doc_pcie_path(g, path, sizeof(path)));
	}
}

/* Size of BAR0, the VRAM aperture of an AMD GPU (the first line of "resource"). */
static int bar0_size(const struct doctor *d, const char *bdf, unsigned long long *size)
{
	char path[PATH_MAX];
	unsigned long long start = 0, end = 0;
	FILE *f = fopen(
	    fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices/%s/resource", bdf), "r");
	int n = f ? fscanf(f, "%llx %llx", &start, &end) : 0;

	if (f)
		fclose(f);
	if (n != 2 || !end || end < start)
		return -1;
	*size = end - start + 1;
	return 0;
}

void check_amd_bar(struct doctor *d, const struct doc_gpu *g, const char *who)
{
	char path[PATH_MAX], line[64];
	unsigned long long bar, vram;

	if (bar0_size(d, g->bdf, &bar)) {
		out_add(&d->out, OUT_INFO, "pcie.bar", NULL,
			"%s (%s): BAR0 (VRAM aperture) size not readable from sysfs", who, g->bdf);
		return;
	}
	if (fs_read_line(fs_path(path, sizeof(path), d->sysroot,
				 "/sys/bus/pci/devices/%s/mem_info_vram_total", g->bdf),
			 line, sizeof(line)) ||
	    sscanf(line, "%llu", &vram) != 1 || !vram) {
		out_add(&d->out, OUT_INFO, "pcie.bar", NULL,
			"%s (%s): BAR0 %llu MiB; VRAM size not readable (no mem_info_vram_total: "
			"amdgpu not bound?), so large BAR cannot be told",
			who, g->bdf, bar >> 20);
		return;
	}
	if (bar < vram)
		out_add(&d->out, OUT_FAIL, "pcie.bar",
			"enable Above 4G Decoding and Resizable BAR in the BIOS (dmesg: amdgpu "
			"\"Detected VRAM RAM=...M, BAR=...M\" shows both)",
			"%s (%s): small BAR: BAR0 %llu MiB of %llu MiB VRAM: amdgpu refuses "
			"peer-to-peer, so the NIC cannot reach VRAM directly (dma-buf exports fall "
			"back to system memory)",
			who, g->bdf, bar >> 20, vram >> 20);
	else
		out_add(&d->out, OUT_OK, "pcie.bar", NULL,
			"%s (%s): large BAR: BAR0 %llu MiB covers all %llu MiB of VRAM", who,
			g->bdf, bar >> 20, vram >> 20);
}
