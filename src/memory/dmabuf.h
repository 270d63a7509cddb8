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

typedef struct ibv_mr *(*gdr_reg_dmabuf_fn)(struct ibv_pd *pd, uint64_t offset, size_t length,
					    uint64_t iova, int fd, int access);

/* libibverbs' ibv_reg_dmabuf_mr, or NULL when it predates rdma-core 34. */
gdr_reg_dmabuf_fn gdr_ibv_reg_dmabuf_mr(void);

#endif
