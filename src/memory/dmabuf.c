/* SPDX-License-Identifier: MIT */
/* The dma-buf export's range (see dmabuf.h). */
#include "config.h"
#include "dmabuf.h"

int gdr_dmabuf_range(uint64_t addr, size_t len, size_t page, uint64_t *base, size_t *span,
		     uint64_t *offset)
{
	uint64_t end;

	if (!page || (page & (page - 1)) || addr > UINT64_MAX - len)
		return -1;
	end = addr + len;
	if (end > UINT64_MAX - (page - 1))
		return -1;
	*base = addr & ~(uint64_t)(page - 1);
	*offset = addr - *base;
	end = (end + page - 1) & ~(uint64_t)(page - 1);
	if (end - *base > SIZE_MAX)
		return -1;
	*span = (size_t)(end - *base);
	return 0;
}
