/* SPDX-License-Identifier: MIT */
/* The gdrcopy copier (see copier_gdrcopy.h). */
#include "config.h"
#include "copier_gdrcopy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gdrapi.h"
#include "log.h"

struct gc_state {
	const struct gdr_gdrapi *api;
	void *g;
	struct gdr_gdrapi_mh mh;
	int pinned;
	void *map;	   /* what gdr_map returned: the first pinned GPU page */
	size_t map_len;	   /* bytes pinned and mapped, whole GPU pages */
	uint8_t *data;	   /* the test buffer's first byte inside the mapping */
	unsigned ready[2]; /* copies done since the last reap, per direction */
	/* device->host copies above GDR_GDRCOPY_D2H_MAX go to the copy engine, on the
	 * test memory's device->host streams: submitted and completed so far */
	uint64_t ce_sub, ce_done;
};

/* gdr_get_info_v2's mapping_type in words */
static const char *mapping_name(const struct gdr_gdrapi_info *info, bool v2)
{
	if (!v2)
		return info->wc_mapping ? "write-combining" : "not write-combining (v1 info)";
	switch (info->mapping_type) {
	case 1:
		return "write-combining";
	case 2:
		return "caching";
	case 3:
		return "device";
	default:
		return "none";
	}
}

static void gc_release(struct gc_state *s)
{
	if (s->map && s->api->gdr_unmap(s->g, s->mh, s->map, s->map_len))
		gdr_warn("gdrcopy: gdr_unmap failed");
	if (s->pinned && s->api->gdr_unpin_buffer(s->g, s->mh))
		gdr_warn("gdrcopy: gdr_unpin_buffer failed");
	if (s->g && s->api->gdr_close(s->g))
		gdr_warn("gdrcopy: gdr_close failed");
	free(s);
}

static int gc_open(struct gdr_copier *cp, char *why, size_t n)
{
	static int said;
	const struct gdr_gdrapi *api;
	struct gdr_gdrapi_info info;
	struct gc_state *s;
	uintptr_t addr, base;
	size_t head;
	int rc;

	if (!cp->data || !cp->data->ops->bar_map || !cp->data->addr || !cp->data->len) {
		snprintf(why, n,
			 "gdrcopy maps CUDA GPU memory through BAR1 only (test memory is %s)",
			 cp->data && cp->data->ops ? cp->data->ops->kind : "absent");
		return -1;
	}
	if (gdr_gdrapi_load(&api, why, n))
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(why, n, "gdrcopy: out of memory");
		return -1;
	}
	s->api = api;
	s->g = gdr_gdrapi_open(api, why, n);
	if (!s->g)
		goto fail;
	/* cp->data->addr is a CUdeviceptr: pin from its GPU page, keep the offset. */
	addr = (uintptr_t)cp->data->addr;
	base = addr & ~(uintptr_t)(GDR_GPU_PAGE_SIZE - 1);
	head = addr - base;
	s->map_len = (head + cp->data->len + GDR_GPU_PAGE_SIZE - 1) & ~(GDR_GPU_PAGE_SIZE - 1);
	rc = api->gdr_pin_buffer(s->g, (unsigned long)base, s->map_len, 0, 0, &s->mh);
	if (rc) {
		snprintf(why, n,
			 "gdr_pin_buffer of %zu bytes of GPU memory failed: %s (GPUDirect RDMA "
			 "pinning refused: BAR1 space or driver support)",
			 s->map_len, strerror(rc));
		goto fail;
	}
	s->pinned = 1;
	rc = api->gdr_map(s->g, s->mh, &s->map, s->map_len);
	if (rc) {
		s->map = NULL;
		snprintf(why, n, "gdr_map of %zu bytes failed: %s (mapping refused)", s->map_len,
			 strerror(rc));
		goto fail;
	}
	memset(&info, 0, sizeof(info));
	rc = api->gdr_get_info(s->g, s->mh, &info);
	if (rc) {
		snprintf(why, n, "gdr_get_info failed: %s", strerror(rc));
		goto fail;
	}
	/* The mapping starts at info.va's page; it must hold the whole buffer. */
	if (info.va > addr || addr - info.va + cp->data->len > info.mapped_size ||
	    addr - info.va + cp->data->len > s->map_len) {
		snprintf(why, n,
			 "gdr_get_info: the mapping (GPU 0x%llx, %llu bytes) does not cover the "
			 "buffer (0x%llx, %zu bytes)",
			 (unsigned long long)info.va, (unsigned long long)info.mapped_size,
			 (unsigned long long)addr, cp->data->len);
		goto fail;
	}
	s->data = (uint8_t *)s->map + (addr - info.va);
	cp->priv = s;
	if (!said) { /* once a process: every size opens it again */
		said = 1;
		gdr_info("gdrcopy: BAR1 mapping %s; host->device by CPU stores through it, "
			 "device->host only up to %d B (CPU reads of BAR1 are slow), above that "
			 "the copy engine",
			 mapping_name(&info, api->info_v2), GDR_GDRCOPY_D2H_MAX);
	}
	return 0;
fail:
	gc_release(s);
	return -1;
}

/* Count the copy engine's finished device->host copies in order (wait: all of them). */
static int ce_finish(struct gdr_copier *cp, struct gc_state *s, bool wait)
{
	while (s->ce_done < s->ce_sub) {
		int stream = (int)(s->ce_done % cp->lanes);
		int idle = wait ? (cp->data->ops->sync(cp->data, stream) ? -1 : 1)
				: cp->data->ops->poll(cp->data, stream);

		if (idle < 0)
			return -1;
		if (!idle)
			break;
		s->ce_done++;
		s->ready[GDR_TO_HOST]++;
	}
	return 0;
}

static int gc_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host, size_t len)
{
	struct gc_state *s = cp->priv;
	uint8_t *h = host;
	int rc;

	if ((d != GDR_TO_HOST && d != GDR_FROM_HOST) || off > cp->data->len ||
	    len > cp->data->len - off || h < cp->host || h > cp->host + cp->host_len ||
	    len > (size_t)(cp->host + cp->host_len - h)) {
		gdr_err("gdrcopy: copy of %zu bytes at offset %zu is outside the buffers", len,
			off);
		return -1;
	}
	if (d == GDR_TO_HOST && len > GDR_GDRCOPY_D2H_MAX) {
		/* the copy engine, one copy in flight per device->host stream */
		if (cp->data->ops->copy_async(cp->data, d, off, h, len,
					      (int)(s->ce_sub % cp->lanes)))
			return -1;
		s->ce_sub++;
		return 0;
	}
	if (d == GDR_TO_HOST && ce_finish(cp, s, true)) /* in order: the engine's first */
		return -1;
	if (d == GDR_FROM_HOST)
		rc = s->api->gdr_copy_to_mapping(s->mh, s->data + off, h, len);
	else
		rc = s->api->gdr_copy_from_mapping(s->mh, h, s->data + off, len);
	if (rc) {
		gdr_err("gdrcopy: %s of %zu bytes failed: %s",
			d == GDR_FROM_HOST ? "gdr_copy_to_mapping" : "gdr_copy_from_mapping", len,
			strerror(rc));
		return -1;
	}
	s->ready[d]++;
	return 0;
}

/*
 * A block list: every block through the mapping (the copy engine's earlier
 * copies first, for the order), then one copy ready. Device->host blocks too,
 * whatever their size: CPU reads of BAR1 are slow above GDR_GDRCOPY_D2H_MAX,
 * where a single copy would take the copy engine (docs/kv.md: ce is a KV
 * run's default).
 */
static int gc_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			  uint32_t n, size_t blk, void *host)
{
	struct gc_state *s = cp->priv;
	uint8_t *h = host;
	int rc = 0;

	if ((d != GDR_TO_HOST && d != GDR_FROM_HOST) || h < cp->host ||
	    (size_t)n * blk > (size_t)(cp->host + cp->host_len - h)) {
		gdr_err("gdrcopy: a list of %u blocks of %zu bytes is outside the buffers", n, blk);
		return -1;
	}
	if (d == GDR_TO_HOST && ce_finish(cp, s, true))
		return -1;
	for (uint32_t k = 0; k < n && !rc; k++, h += blk) {
		if (off[k] > cp->data->len || blk > cp->data->len - off[k]) {
			gdr_err("gdrcopy: block %u at offset %llu is outside the buffers", k,
				(unsigned long long)off[k]);
			return -1;
		}
		rc = d == GDR_FROM_HOST
			 ? s->api->gdr_copy_to_mapping(s->mh, s->data + off[k], h, blk)
			 : s->api->gdr_copy_from_mapping(s->mh, h, s->data + off[k], blk);
	}
	if (rc) {
		gdr_err("gdrcopy: a block list's copy failed: %s", strerror(rc));
		return -1;
	}
	s->ready[d]++;
	return 0;
}

static int gc_reap(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	struct gc_state *s = cp->priv;
	int k;

	if (d != GDR_TO_HOST && d != GDR_FROM_HOST) {
		gdr_err("gdrcopy: no copy direction %d", (int)d);
		return -1;
	}
	if (d == GDR_TO_HOST && ce_finish(cp, s, false))
		return -1;
	k = (int)s->ready[d];
	s->ready[d] = 0;
	return k;
}

static void gc_close(struct gdr_copier *cp)
{
	if (cp->priv && ce_finish(cp, cp->priv, true)) /* no copy left running on the buffers */
		gdr_warn("gdrcopy: a copy-engine copy failed at close");
	if (cp->priv)
		gc_release(cp->priv);
	cp->priv = NULL;
}

const struct gdr_copier_ops gdr_copier_gdrcopy_ops = {
    .name = "gdrcopy",
    .kind = GDR_COPIER_GDRCOPY,
    .open = gc_open,
    .submit = gc_submit,
    .submit_list = gc_submit_list,
    .reap = gc_reap,
    .close = gc_close,
    .blocks = true,
};
