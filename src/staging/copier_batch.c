/* SPDX-License-Identifier: MIT */
/*
 * The batch copier ("batch"): the copy engine copier (copier_ce.c: its lanes'
 * streams, single copies, completion and drain) save that a block list is ONE
 * cuMemcpyBatchAsync on the lane's stream, every block's source read in stream
 * order: the driver's batched copy (CUDA 12.8+), one call where ce makes one
 * per block (docs/kv.md, "Staged"). The batch runs in stream order as a whole,
 * so the stream goes idle once every block landed: one lane entry, as ce's.
 * Open refuses memory that is not CUDA GPU memory and a driver without the
 * call, naming the driver's version.
 */
#include "config.h"
#include <stdio.h>
#include "copier_ce.h"

#ifdef HAVE_CUDA

#include "cuda_api.h"

static int batch_ready(struct gdr_mem *data, char *why, size_t n)
{
	return gdr_mem_cuda_batch_ok(data, why, n);
}

static int batch_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			     uint32_t n, size_t blk, void *host)
{
	return gdr_mem_cuda_copy_list(cp->data, (int)d, off, n, blk, host,
				      gdr_copier_ce_stream(cp, d, cp->submitted[d]));
}

#else /* !HAVE_CUDA */

static int batch_ready(struct gdr_mem *data, char *why, size_t n)
{
	(void)data;
	snprintf(why, n, "gdrperf was built without CUDA");
	return -1;
}

static int batch_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			     uint32_t n, size_t blk, void *host)
{
	(void)cp, (void)d, (void)off, (void)n, (void)blk, (void)host;
	return -1; /* never opens */
}

#endif /* HAVE_CUDA */

static int batch_open(struct gdr_copier *cp, char *why, size_t n)
{
	return batch_ready(cp->data, why, n);
}

const struct gdr_copier_ops gdr_copier_batch_ops = {
    .name = "batch",
    .kind = GDR_COPIER_BATCH,
    .open = batch_open,
    .ready = batch_ready,
    .submit = gdr_copier_ce_submit,
    .submit_list = batch_submit_list,
    .reap = gdr_copier_ce_reap,
    .drain = gdr_copier_ce_drain,
};
