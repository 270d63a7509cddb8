/* SPDX-License-Identifier: MIT */
/*
 * dma-buf registration helpers: the page-aligned export range of a buffer,
 * and ibv_reg_dmabuf_mr resolved at run time (rdma-core >= 34), so the
 * binaries start on older rdma-core, where host memory still works.
 */
#ifndef GDR_DMABUF_H
#define GDR_DMABUF_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

/*
 * The range to export for [addr, addr+len): base rounded down to page (a
 * power of two), span rounded up so it ends on a page boundary, and offset =
 * addr - base, the MR offset into the dma-buf. Returns 0, or -1 when page is
 * not a power of two or the range wraps.
 */
int gdr_dmabuf_range(uint64_t addr, size_t len, size_t page, uint64_t *base, size_t *span,
		     uint64_t *offset);

/*
 * mlx5 data direct registers in KSM mode, where the kernel (mlx5 mr.c,
 * reg_user_mr_dmabuf_by_data_direct) takes only an IOVA aligned to the host's
 * page (a power of two): 1 when iova is, else 0. The dma-buf offset is free.
 */
int gdr_dd_iova_ok(uint64_t iova, size_t page);

typedef struct ibv_mr *(*gdr_reg_dmabuf_fn)(struct ibv_pd *pd, uint64_t offset, size_t length,
					    uint64_t iova, int fd, int access);

/* libibverbs' ibv_reg_dmabuf_mr, or NULL when it predates rdma-core 34. */
gdr_reg_dmabuf_fn gdr_ibv_reg_dmabuf_mr(void);

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

#endif
