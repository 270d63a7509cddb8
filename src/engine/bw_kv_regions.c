/* SPDX-License-Identifier: MIT */
/*
 * The KV pool as M memory regions (--regions=M, bw_kv.h, docs/kv.md): for
 * one cell the server registers each region of its pool on its own (a part of
 * the path's memory, which stays registered whole) and sends the client their
 * keys, one SYNC step each, in order; the client's blocks name the key of the
 * region their slot is in (gdr_bw_kv_op). The regions are dropped after the
 * cell: a region is a whole number of the cell's blocks, so its bytes follow
 * the block size.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "bw_kv.h"
#include "log.h"
#include "mem.h"
#include "region.h"
#include "session.h"
#include "xport.h"

int gdr_bw_kv_regions(struct gdr_conn *c, struct gdr_path *p, uint64_t pool_off, uint64_t block,
		      uint64_t slots, uint32_t m, struct gdr_bw_kv_regs *r)
{
	uint64_t per = gdr_kv_region_slots(slots, m);
	struct gdr_xmem x;

	memset(r, 0, sizeof(*r));
	if (!per) {
		gdr_err("--regions=%u: does not divide the pool's %llu slots", m,
			(unsigned long long)slots);
		return -1;
	}
	r->bytes = per * block;
	r->key = calloc(m, sizeof(*r->key));
	r->mr = calloc(m, sizeof(*r->mr));
	if (!r->key || !r->mr) {
		gdr_err("out of memory for %u regions", m);
		goto fail;
	}
	if (!c->is_server) { /* the server's keys, region by region */
		for (r->n = 0; r->n < m; r->n++)
			if (gdr_sync_expect(c, GDR_STEP_KV_KEY, &r->key[r->n]))
				goto fail;
		return 0;
	}
	if (p->mem->ops->export(p->mem, &x))
		goto fail;
	for (r->n = 0; r->n < m; r->n++) {
		struct gdr_xmem part = x;
		uint64_t off = pool_off + r->n * r->bytes;

		part.addr = (uint8_t *)x.addr + off;
		part.len = (size_t)r->bytes;
		if (x.dmabuf_fd >= 0)
			part.dmabuf_off = x.dmabuf_off + off;
		if (c->xp->reg(c->xd, &part,
			       GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_WRITE | GDR_XA_REMOTE_READ,
			       &r->mr[r->n], NULL)) {
			gdr_err(
			    "--regions=%u: cannot register region %u of the pool (%llu bytes at "
			    "offset %llu); the device's memory-region limit, or the locked-memory "
			    "one, may be below it",
			    m, r->n, (unsigned long long)r->bytes, (unsigned long long)off);
			goto fail;
		}
		r->key[r->n] = c->xp->key(r->mr[r->n]);
	}
	for (uint32_t i = 0; i < m; i++)
		if (gdr_sync_send(c, GDR_STEP_KV_KEY, r->key[i]))
			goto fail;
	return 0;
fail:
	gdr_bw_kv_regions_free(c, r);
	return -1;
}

void gdr_bw_kv_regions_free(struct gdr_conn *c, struct gdr_bw_kv_regs *r)
{
	if (r->mr)
		for (uint32_t i = 0; i < r->n; i++)
			if (r->mr[i])
				c->xp->dereg(r->mr[i]);
	free(r->mr);
	free(r->key);
	memset(r, 0, sizeof(*r));
}
