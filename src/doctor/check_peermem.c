/* SPDX-License-Identifier: MIT */
/* Peer memory: can the RDMA stack map GPU memory (nvidia_peermem / nv_peer_mem / dma-buf)? */
#include <limits.h>
#include <stdio.h>
#include "verbs_reg.h"
#include "doctor.h"
#include "peermem.h"
#include "sysfs.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

void check_peermem(struct doctor *d)
{
	const char *mod = gdr_peermem_loaded(d->sysroot);
	int dmabuf = 0;

	out_group(&d->out, "Peer memory");
	if (d->amd) {
		check_amd_peermem(d);
		return;
	}
	if (mod) {
		out_add(&d->out, OUT_OK, "peermem.module", NULL,
			"%s is loaded: ibv_reg_mr accepts GPU memory", mod);
		return;
	}
	for (int i = 0; i < d->ngpu; i++)
		dmabuf |= d->gpu[i].dmabuf == 1;
	if (dmabuf && gdr_ibv_reg_dmabuf_mr()) {
		out_add(
		    &d->out, OUT_WARN, "peermem.module",
		    "use --use_cuda_dmabuf (needs Linux >= 5.12 and a NIC driver with dma-buf "
		    "support), or `sudo modprobe nvidia_peermem`",
		    GDR_PEERMEM_NONE "; the GPU supports dma-buf, so ibv_reg_dmabuf_mr can "
		    "register GPU memory instead");
		return;
	}
	out_add(&d->out, OUT_FAIL, "peermem.module",
		"`sudo modprobe nvidia_peermem` (NVIDIA driver >= R470; it loads only on an RDMA "
		"stack with peer-memory support such as MLNX_OFED/DOCA); to keep it: echo "
		"nvidia_peermem > /etc/modules-load.d/nvidia-peermem.conf. Without it, a dma-buf "
		"capable stack (Linux >= 5.12, rdma-core >= 34) works through --use_cuda_dmabuf",
		GDR_PEERMEM_NONE "%s%s", d->cuda_checked ? " and no GPU reports dma-buf support"
						 : "; dma-buf support of the GPUs was not checked",
		dmabuf ? " (this host's libibverbs has no ibv_reg_dmabuf_mr: rdma-core < 34)" : "");
}
