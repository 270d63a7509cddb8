/* SPDX-License-Identifier: MIT */
/* GPUs: NVIDIA driver loaded and its version, each GPU's PCI function, CUDA attributes. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "doctor.h"
#include "sysfs.h"


/* NVIDIA display (0x0300) or 3D (0x0302) controllers on the PCI bus. */
static void find_gpus(struct doctor *d)
{
	char path[PATH_MAX], **devs;
	long vendor, class, device;
	int n;

	n = fs_list(fs_path(path, sizeof(path), d->sysroot, "/sys/bus/pci/devices"), &devs);
	for (int i = 0; i < n && d->ngpu < DOC_MAX_DEV; i++) {
		struct doc_gpu *g;

		if (!topo_is_bdf(devs[i]) ||
		    fs_read_long(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/bus/pci/devices/%s/vendor", devs[i]),
				 &vendor) ||
		    vendor != 0x10de ||
		    fs_read_long(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/bus/pci/devices/%s/class", devs[i]),
				 &class) ||
		    ((class >> 8) != 0x0302 && (class >> 8) != 0x0300))
			continue;
		g = doc_gpu_new(d, devs[i], &device);
		snprintf(g->name, sizeof(g->name), "NVIDIA device 0x%04lx", device);
		fs_link_name(fs_path(path, sizeof(path), d->sysroot,
				     "/sys/bus/pci/devices/%s/driver", devs[i]),
			     g->driver, sizeof(g->driver));
		g->have_loc = !topo_locate(d->sysroot, g->bdf, &g->loc);
	}
	fs_free_names(devs, n);
}

/*
 * The version is the first word made of digits and dots after "Kernel Module":
 * "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 ..."
 * "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release ..."
 */
static int parse_version(const char *line, char *ver, size_t n)
{
	const char *p = strstr(line, "Kernel Module");

	if (!p)
		return -1;
	for (p += strlen("Kernel Module"); *p; p += strcspn(p, " ")) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len && strspn(p, "0123456789.") == len && memchr(p, '.', len)) {
			snprintf(ver, n, "%.*s%s", (int)len, p,
				 strstr(line, "Open Kernel Module") ? " (open kernel module)" : "");
			return 0;
		}
	}
	return -1;
}

static int driver_version(struct doctor *d, char *ver, size_t n)
{
	char path[PATH_MAX], line[512];

	if (!fs_read_line(fs_path(path, sizeof(path), d->procroot, "/proc/driver/nvidia/version"),
			  line, sizeof(line)) &&
	    !parse_version(line, ver, n))
		return 0;
	if (!fs_read_line(fs_path(path, sizeof(path), d->sysroot, "/sys/module/nvidia/version"),
			  ver, n))
		return 0;
	return fs_exists(fs_path(path, sizeof(path), d->sysroot, "/sys/module/nvidia")) ? 1 : -1;
}


static void gpu_lines(struct doctor *d)
{
	char numa[16], attrs[96], path[TOPO_MAX_DEPTH * (TOPO_BDF_LEN + 3) + 32];

	for (int i = 0; i < d->ngpu; i++) {
		struct doc_gpu *g = &d->gpu[i];
		enum out_level lvl = OUT_OK;
		const char *next = NULL;

		attrs[0] = '\0';
		if (g->gdr >= 0)
			snprintf(attrs, sizeof(attrs), ", GPUDirect RDMA %s, dma-buf %s",
				 g->gdr ? "supported" : "NOT supported",
				 g->dmabuf ? "supported" : "NOT supported");
		if (strcmp(g->driver, "nvidia")) {
			lvl = OUT_FAIL;
			next =
			    "bind the GPU to the nvidia driver (unbind vfio-pci/nouveau; install "
			    "the NVIDIA driver)";
		} else if (g->gdr == 0 && g->dmabuf == 0) {
			lvl = OUT_FAIL;
			next = "this GPU cannot do GPUDirect RDMA (data-center GPUs can; GeForce "
			       "cards cannot): use host-staged transfers";
		} else if (g->gdr == 0 || g->dmabuf == 0) {
			lvl = OUT_WARN;
			next = g->gdr ? "use the nvidia-peermem path (--use_cuda_peermem)"
				      : "use the dma-buf path (--use_cuda_dmabuf)";
		}
		out_add(&d->out, lvl, "gpu.device", next,
			"GPU %d%s: %s at PCI %s, driver %s, NUMA node %s, PCIe path %s%s",
			g->cuda_index >= 0 ? g->cuda_index : i,
			d->cuda_checked && g->cuda_index < 0 ? " (hidden from CUDA)" : "", g->name,
			g->bdf, g->driver[0] ? g->driver : "none",
			doc_numa_str(g->loc.numa, numa, sizeof(numa)),
			doc_pcie_path(g, path, sizeof(path)), attrs);
	}
}

void check_gpu(struct doctor *d)
{
	char ver[64], why[256];
	int r;

	out_group(&d->out, "GPUs");
	find_gpus(d);
	if (!d->ngpu && amd_find_gpus(d)) {
		check_amd_gpu(d);
		return;
	}
	r = driver_version(d, ver, sizeof(ver));
	if (r == 0)
		out_add(&d->out, OUT_OK, "gpu.driver", NULL, "NVIDIA driver %s loaded", ver);
	else if (r == 1)
		out_add(&d->out, OUT_WARN, "gpu.driver", "check `nvidia-smi`",
			"NVIDIA driver module loaded, version unknown");
	else
		out_add(&d->out, OUT_FAIL, "gpu.driver",
			"install and load the NVIDIA driver (`modprobe nvidia`, then `nvidia-smi`)",
			"NVIDIA driver not loaded (no /proc/driver/nvidia/version, no "
			"/sys/module/nvidia)");
	if (d->ngpu == 0) {
		out_add(&d->out, OUT_FAIL, "gpu.present",
			"check `lspci -d 10de:`; a GPU passed to a VM or container must appear "
			"in its /sys/bus/pci/devices",
			"no NVIDIA GPU on the PCI bus");
		return;
	}
	if (!d->live && !getenv("GDR_LIBCUDA")) {
		out_add(&d->out, OUT_INFO, "gpu.cuda", NULL,
			"CUDA checks skipped: --sysfs-root/--proc-root describe another system "
			"(unless GDR_LIBCUDA names a driver for it, such as the test double)");
	} else if (cuda_probe(d, why, sizeof(why))) {
		out_add(&d->out, OUT_WARN, "gpu.cuda",
			"run `nvidia-smi`; without the CUDA driver library the GPU attributes "
			"cannot be read",
			"CUDA checks not possible: %s", why);
	} else {
		d->cuda_checked = 1;
	}
	gpu_lines(d);
}
