/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's registration (verbs_reg.c; gdr_vx_reg in verbs_xp.h):
 * memory's export (memory/xmem.h) registered by address (host memory,
 * nvidia-peermem, amdgpu_peermem), by dma-buf (ibv_reg_dmabuf_mr, resolved at
 * run time so the binaries start on rdma-core < 34) or through mlx5 data direct.
 */
#ifndef GDR_VERBS_REG_H
#define GDR_VERBS_REG_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include "xmem.h"

typedef struct ibv_mr *(*gdr_reg_dmabuf_fn)(struct ibv_pd *pd, uint64_t offset, size_t length,
					    uint64_t iova, int fd, int access);

/* libibverbs' ibv_reg_dmabuf_mr, or NULL when it predates rdma-core 34. */
gdr_reg_dmabuf_fn gdr_ibv_reg_dmabuf_mr(void);

/*
 * mlx5 data direct registers in KSM mode, where the kernel (mlx5 mr.c,
 * reg_user_mr_dmabuf_by_data_direct) takes only an IOVA aligned to the host's
 * page (a power of two): 1 when iova is, else 0. The dma-buf offset is free.
 */
int gdr_dd_iova_ok(uint64_t iova, size_t page);

/*
 * mlx5dv data direct (newer rdma-core; declared here, not taken from mlx5dv.h,
 * so older rdma-core builds): libmlx5.so.1 (or GDR_LIBMLX5) loaded at run time.
 */
#define GDR_MLX5DV_REG_DMABUF_ACCESS_DATA_DIRECT (1 << 0)
struct gdr_data_direct {
	int (*sysfs_path)(struct ibv_context *ctx, char *buf, size_t len);
	struct ibv_mr *(*reg_dmabuf_mr)(struct ibv_pd *pd, uint64_t offset, size_t length,
					uint64_t iova, int fd, int access, int mlx5_access);
};
/* The two entry points; 0, or -1 with what is missing in why. */
int gdr_data_direct_load(struct gdr_data_direct *dd, char *why, size_t n);

/* One line explaining why registering len bytes failed (memlock limit, ...). */
void gdr_explain_reg_failure(size_t len, int err);

/*
 * x registered with pd for the IBV_ACCESS_* bits, as its export asks: the MR
 * and *method ("host", "dma-buf", "dma-buf-pcie", "peermem", "data-direct+pci"),
 * or NULL with one line that names the cause and the fix.
 */
struct ibv_mr *gdr_vx_reg_mr(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
			     const char **method);

/*
 * GPU memory of one runtime registered as its export asks (verbs_reg_cuda.c,
 * verbs_reg_rocm.c): the MR and *method, or NULL with one line (cause, fix).
 */
struct ibv_mr *gdr_vx_reg_cuda(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
			       const char **method);
struct ibv_mr *gdr_vx_reg_rocm(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
			       const char **method);

#endif
