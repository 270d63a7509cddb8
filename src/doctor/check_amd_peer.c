/* SPDX-License-Identifier: MIT */
/*
 * Peer memory on an AMD node: can the NIC register VRAM? Two ways, as perftest's
 * --use_rocm tries them: amdgpu_peermem (the ROCm driver's peer-memory client,
 * registered with the RDMA core as "amdkfd"; ibv_reg_mr on the device pointer),
 * or dma-buf (the HSA export call, ibv_reg_dmabuf_mr), which needs Linux >= 5.12
 * built with CONFIG_PCI_P2PDMA and CONFIG_DMABUF_MOVE_NOTIFY (else amdgpu pins the
 * exported buffer in system memory or the import fails).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "verbs_reg.h"
#include "doctor.h"
#include "kconfig.h"
#include "sysfs.h"

/* The peer-memory client, where the RDMA core (MLNX_OFED's ib_peer_mem) shows it. */
static const char *amd_peer_client(const struct doctor *d)
{
	static const char *const where[] = {
	    "/sys/module/amdgpu_peermem",
	    "/sys/kernel/mm/memory_peers/amdkfd/version",
	    "/sys/kernel/memory_peers/amdkfd/version",
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (fs_exists(fs_path(path, sizeof(path), d->sysroot, "%s", where[i])))
			return where[i];
	return NULL;
}

/* DB_LIKELY: what the kernel shows is right, the rest cannot be read (kconfig.h). */
enum dmabuf_state { DB_OK, DB_LIKELY, DB_UNKNOWN, DB_NO };

/* The running kernel's release: uname on this host, proc/sys/kernel/osrelease below a fixture. */
static int kernel_release(const struct doctor *d, char *rel, size_t n)
{
	char path[PATH_MAX];
	struct utsname un;

	if (d->live && uname(&un) == 0) {
		snprintf(rel, n, "%s", un.release);
		return 0;
	}
	return fs_read_line(fs_path(path, sizeof(path), d->procroot, "/proc/sys/kernel/osrelease"),
			    rel, n);
}

/* Can the kernel export VRAM to the NIC through dma-buf? why says what was seen. */
static enum dmabuf_state amd_dmabuf(const struct doctor *d, char *why, size_t n)
{
	struct kconfig_opt opt[] = {
	    {"CONFIG_PCI_P2PDMA", "pci_p2pdma_distance_many", -1},
	    {"CONFIG_DMABUF_MOVE_NOTIFY", NULL, -1},
	};
	char rel[80], where[160];
	int major = 0, minor = 0, p2p, move;
	enum kconfig_src src;

	if (kernel_release(d, rel, sizeof(rel)) || sscanf(rel, "%d.%d", &major, &minor) != 2) {
		snprintf(why, n, "kernel release unknown");
		return DB_UNKNOWN;
	}
	if (major < 5 || (major == 5 && minor < 12)) {
		snprintf(why, n, "Linux %s predates dma-buf MRs (5.12)", rel);
		return DB_NO;
	}
	if (!gdr_ibv_reg_dmabuf_mr()) {
		snprintf(why, n,
			 "this host's libibverbs has no ibv_reg_dmabuf_mr (rdma-core < 34)");
		return DB_NO;
	}
	src = kconfig_read(d, rel, opt, 2, where, sizeof(where));
	p2p = opt[0].on;
	move = opt[1].on;
	if (src == KCONFIG_NONE) {
		snprintf(why, n,
			 "Linux %s, but CONFIG_PCI_P2PDMA and CONFIG_DMABUF_MOVE_NOTIFY cannot be "
			 "checked: %s",
			 rel, where);
		return DB_UNKNOWN;
	}
	if (!p2p || !move) {
		snprintf(why, n, "Linux %s built without %s%s%s (%s%s)", rel,
			 p2p ? "" : "CONFIG_PCI_P2PDMA", !p2p && !move ? " and " : "",
			 move ? "" : "CONFIG_DMABUF_MOVE_NOTIFY", where,
			 src == KCONFIG_SYMBOLS ? " has no pci_p2pdma_distance_many" : "");
		return DB_NO;
	}
	if (move < 0) {
		snprintf(why, n,
			 "Linux %s with CONFIG_PCI_P2PDMA (%s has pci_p2pdma_distance_many); "
			 "CONFIG_DMABUF_MOVE_NOTIFY shows no symbol and no kernel config is "
			 "readable here (a container?)",
			 rel, where);
		return DB_LIKELY;
	}
	snprintf(why, n, "Linux %s with CONFIG_PCI_P2PDMA and CONFIG_DMABUF_MOVE_NOTIFY (%s)", rel,
		 where);
	return DB_OK;
}

void check_amd_peermem(struct doctor *d)
{
	const char *client = amd_peer_client(d);
	char why[512];
	enum dmabuf_state db = amd_dmabuf(d, why, sizeof(why));

	if (db == DB_OK)
		out_add(&d->out, OUT_OK, "peermem.dmabuf", NULL,
			"dma-buf: %s; the HSA export call needs ROCm >= 5.6 (--use_rocm_dmabuf)",
			why);
	else if (db == DB_LIKELY)
		out_add(&d->out, OUT_INFO, "peermem.dmabuf",
			"gdr_write_bw --use_rocm --use_rocm_dmabuf tells whether it registers",
			"dma-buf registration of VRAM is likely: %s", why);
	else
		out_add(
		    &d->out, OUT_WARN, "peermem.dmabuf",
		    db == DB_UNKNOWN
			? "check `grep -E 'P2PDMA|MOVE_NOTIFY' /boot/config-$(uname -r)` on the "
			  "host"
			: "a kernel >= 5.12 built with CONFIG_PCI_P2PDMA=y and "
			  "CONFIG_DMABUF_MOVE_NOTIFY=y, rdma-core >= 34",
		    "dma-buf registration of VRAM %s: %s",
		    db == DB_UNKNOWN ? "not known to work" : "will not work", why);
	if (client) {
		out_add(&d->out, OUT_OK, "peermem.module", NULL,
			"amdgpu_peermem is loaded (%s): ibv_reg_mr accepts VRAM", client);
		return;
	}
	if (db == DB_OK) {
		out_add(
		    &d->out, OUT_WARN, "peermem.module",
		    "use dma-buf (--use_rocm_dmabuf), or `sudo modprobe amdgpu_peermem` "
		    "(amdgpu-dkms on an RDMA stack with peer-memory support such as MLNX_OFED)",
		    "amdgpu_peermem not loaded (no /sys/module/amdgpu_peermem, no "
		    "/sys/kernel/mm/memory_peers/amdkfd): ibv_reg_mr on VRAM fails with EINVAL; "
		    "dma-buf can register it instead");
		return;
	}
	out_add(&d->out, db == DB_NO ? OUT_FAIL : OUT_WARN, "peermem.module",
		"`sudo modprobe amdgpu_peermem` (amdgpu-dkms of ROCm on an RDMA stack with "
		"peer-memory support such as MLNX_OFED), or boot a kernel with dma-buf P2P "
		"(see peermem.dmabuf); until then only host-staged transfers work",
		"amdgpu_peermem not loaded (no /sys/module/amdgpu_peermem, no "
		"/sys/kernel/mm/memory_peers/amdkfd)%s",
		db == DB_NO ? " and dma-buf cannot register VRAM: GPUDirect RDMA has no way in"
		: db == DB_LIKELY ? "; dma-buf is likely to register VRAM (see peermem.dmabuf)"
				  : " and dma-buf support not known");
}
