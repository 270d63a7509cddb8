/* SPDX-License-Identifier: MIT */
/*
 * The dma-buf export's range: which page-aligned range of a buffer a GPU
 * runtime exports, and the buffer's offset in it (the transport registers
 * the dma-buf: transport/verbs/verbs_reg.h).
 */
#ifndef GDR_DMABUF_H
#define GDR_DMABUF_H

#include <stddef.h>
#include <stdint.h>

/*
 * The range to export for [addr, addr+len): base rounded down to page (a
 * power of two), span rounded up so it ends on a page boundary, and offset =
 * addr - base, the MR offset into the dma-buf. Returns 0, or -1 when page is
 * not a power of two or the range wraps.
 */
int gdr_dmabuf_range(uint64_t addr, size_t len, size_t page, uint64_t *base, size_t *span,
		     uint64_t *offset);

#endif
