/* SPDX-License-Identifier: MIT */
/*
 * ROCm memory registered with the NIC as its export asks (memory/mem_rocm.c):
 * by its dma-buf (the HSA export, ibv_reg_dmabuf_mr), by address
 * (amdgpu_peermem), or dma-buf first and then by address (docs/rocm.md).
 */
#include "config.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "verbs_reg.h"

/* dma-buf: the export's fd with ibv_reg_dmabuf_mr. NULL and why on failure. */
static struct ibv_mr *reg_dmabuf(struct ibv_pd *pd, const struct gdr_xmem *x, int access, char *why,
				 size_t n)
{
	gdr_reg_dmabuf_fn reg = gdr_ibv_reg_dmabuf_mr();
	struct ibv_mr *mr;

	if (!reg) {
		snprintf(why, n,
			 "this host's libibverbs has no ibv_reg_dmabuf_mr (rdma-core < 34)");
		return NULL;
	}
	if (x->dmabuf_fd < 0) {
		snprintf(why, n, "%s", x->no_dmabuf[0] ? x->no_dmabuf : "no dma-buf exported");
		return NULL;
	}
	mr = reg(pd, x->dmabuf_off, x->len, (uint64_t)(uintptr_t)x->addr, x->dmabuf_fd, access);
	if (!mr)
		snprintf(why, n,
			 "ibv_reg_dmabuf_mr: %s (a kernel without CONFIG_PCI_P2PDMA or "
			 "CONFIG_DMABUF_MOVE_NOTIFY, or a NIC driver without dma-buf)",
			 strerror(errno));
	return mr;
}

struct ibv_mr *gdr_vx_reg_rocm(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
			       const char **method)
{
	bool by_addr = x->flags & GDR_XMEM_BY_ADDR;
	char dwhy[400] = "";
	struct ibv_mr *mr;
	int e;

	if (!by_addr) {
		mr = reg_dmabuf(pd, x, access, dwhy, sizeof(dwhy));
		if (mr) {
			*method = "dma-buf";
			return mr;
		}
		if (x->flags & GDR_XMEM_BY_DMABUF) {
			gdr_err("dma-buf registration of %s: %s: try without --use_rocm_dmabuf "
				"(amdgpu_peermem)",
				x->desc, dwhy);
			return NULL;
		}
		gdr_info("dma-buf not usable (%s); trying amdgpu_peermem", dwhy);
	}
	mr = ibv_reg_mr(pd, x->addr, x->len, access);
	if (mr) {
		*method = "peermem";
		return mr;
	}
	e = errno;
	gdr_err("registering %zu bytes of %s with the NIC failed (%s): %s: load amdgpu_peermem "
		"(`sudo modprobe amdgpu_peermem`) or use a kernel and ROCm (>= 6) with dma-buf; "
		"gdr_doctor says which is missing",
		x->len, x->desc, by_addr ? "amdgpu_peermem" : "dma-buf, then amdgpu_peermem",
		strerror(e));
	return NULL;
}
