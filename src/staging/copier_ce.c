/* SPDX-License-Identifier: MIT */
/*
 * The copy engine copier ("ce"): the memory backend's asynchronous copies on
 * its streams, device->host on streams 0..L-1 and host->device on L..2L-1
 * (L lanes), one copy in flight per stream; a drain synchronises the streams.
 * A block list is its blocks' copies queued on one stream: the stream goes
 * idle only once every one of them completed (stream order), so the list
 * is one lane entry, reaped as a unit.
 */
#include "config.h"
#include "copier_ce.h"

/* Stream of the n-th copy of direction d. */
int gdr_copier_ce_stream(const struct gdr_copier *cp, enum gdr_copy_dir d, uint64_t n)
{
	return (int)((d == GDR_TO_HOST ? 0 : cp->lanes) + n % cp->lanes);
}

int gdr_copier_ce_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host,
			 size_t len)
{
	return cp->data->ops->copy_async(cp->data, d, off, host, len,
					 gdr_copier_ce_stream(cp, d, cp->submitted[d]));
}

static int ce_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			  uint32_t n, size_t blk, void *host)
{
	/* cp->submitted[d] stays put until the list is queued: every block on one lane's stream */
	for (uint32_t k = 0; k < n; k++)
		if (gdr_copier_ce_submit(cp, d, (size_t)off[k], (uint8_t *)host + (size_t)k * blk,
					 blk))
			return -1;
	return 0;
}

int gdr_copier_ce_reap(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	int n = 0;

	for (uint64_t k = cp->done[d]; k < cp->submitted[d]; k++, n++) {
		int idle = cp->data->ops->poll(cp->data, gdr_copier_ce_stream(cp, d, k));

		if (idle < 0)
			return -1;
		if (!idle)
			break;
	}
	return n;
}

int gdr_copier_ce_drain(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	for (; cp->done[d] < cp->submitted[d]; cp->done[d]++)
		if (cp->data->ops->sync(cp->data, gdr_copier_ce_stream(cp, d, cp->done[d])))
			return -1;
	return 0;
}

const struct gdr_copier_ops gdr_copier_ce_ops = {
    .name = "ce",
    .kind = GDR_COPIER_CE,
    .submit = gdr_copier_ce_submit,
    .submit_list = ce_submit_list,
    .reap = gdr_copier_ce_reap,
    .drain = gdr_copier_ce_drain,
};
