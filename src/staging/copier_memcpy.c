/* SPDX-License-Identifier: MIT */
/* The memcpy copier: host test memory, each copy complete when it is submitted. */
#include "config.h"
#include <string.h>
#include "copier.h"

static int memcpy_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host,
			 size_t len)
{
	uint8_t *mem = (uint8_t *)cp->data->addr + off;

	if (d == GDR_TO_HOST)
		memcpy(host, mem, len);
	else
		memcpy(mem, host, len);
	return 0;
}

static int memcpy_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			      uint32_t n, size_t blk, void *host)
{
	for (uint32_t k = 0; k < n; k++)
		memcpy_submit(cp, d, (size_t)off[k], (uint8_t *)host + (size_t)k * blk, blk);
	return 0;
}

static int memcpy_reap(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	return (int)(cp->submitted[d] - cp->done[d]);
}

const struct gdr_copier_ops gdr_copier_memcpy_ops = {
    .name = "memcpy",
    .kind = GDR_COPIER_MEMCPY,
    .submit = memcpy_submit,
    .submit_list = memcpy_submit_list,
    .reap = memcpy_reap,
};
