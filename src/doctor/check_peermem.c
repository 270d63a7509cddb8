/* SPDX-License-Identifier: MIT */
/* Peer memory: can the RDMA stack map GPU memory (nvidia_peermem / nv_peer_mem / dma-buf)? */
#include <limits.h>
#include <stdio.h>
#include "doctor.h"
#include "sysfs.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

void check_peermem(struct doctor *d)
{
	static const char *const mods[] = {"nvidia_peermem", "nv_peer_mem"};
	char path[PATH_MAX];
	int dmabuf = 0;

	out_group(&d->out, "Peer memory");
	for (unsigned i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		if (fs_exists(fs_path(path, sizeof(path), d->sysroot, "/sys/module/%s", mods[i]))) {
			out_add(&d->out, OUT_OK, "peermem.module", NULL,
				"%s is loaded: ibv_reg_mr accepts GPU memory", mods[i]);
			return;
		}
	}
	for (int i = 0; i < d->ngpu; i++)
		dmabuf |= d->gpu[i].dmabuf == 1;
#ifdef HAVE_IBV_REG_DMABUF_MR
	if (dmabuf) {
		out_add(
		    &d->out, OUT_WARN, "peermem.module",
		    "use --use_cuda_dmabuf (needs Linux >= 5.12 and a NIC driver with dma-buf "
		    "support), or `sudo modprobe nvidia_peermem`",
		    "neither nvidia_peermem nor nv_peer_mem is loaded; the GPU supports dma-buf, "
		    "so ibv_reg_dmabuf_mr can register GPU memory instead");
		return;
	}
#endif
	out_add(&d->out, OUT_FAIL, "peermem.module",
		"`sudo modprobe nvidia_peermem` (NVIDIA driver >= R470; it loads only on an RDMA "
		"stack with peer-memory support such as MLNX_OFED/DOCA); to keep it: echo "
		"nvidia_peermem > /etc/modules-load.d/nvidia-peermem.conf. Without it, a dma-buf "
		"capable stack (Linux >= 5.12, rdma-core >= 34) works through --use_cuda_dmabuf",
		"neither nvidia_peermem nor nv_peer_mem is loaded%s",
		d->cuda_checked ? " and no GPU reports dma-buf support"
				: "; dma-buf support of the GPUs was not checked");
}
