/* SPDX-License-Identifier: MIT */
/*
 * Host memory's export (mem.h), what the transport registers: its address and
 * length, by address alone, no dma-buf; the same for the staged path's bounce
 * buffers (host memory a data backend allocates).
 */
#include "config.h"
#include <string.h>
#include "check.h"
#include "mem.h"

static void host_export(struct gdr_mem *m, const char *what)
{
	struct gdr_xmem x;

	memset(&x, 0x5a, sizeof(x));
	CHECK(m->ops->export(m, &x) == 0, "%s", what);
	CHECK(x.addr == m->addr && x.len == m->len && x.kind == GDR_XMEM_HOST, "%s", what);
	CHECK(x.flags == GDR_XMEM_BY_ADDR && x.dmabuf_fd == -1 && !x.no_dmabuf[0], "%s", what);
	CHECK(x.device == -1 && x.desc == m->desc, "%s", what);
}

int main(void)
{
	struct gdr_mem_cfg cfg = {.gpu = GDR_MEM_GPU_NONE};
	struct gdr_mem m = {0}, data = {0}, b;

	CHECK(gdr_mem_init(&m, &cfg, NULL) == 0 && m.ops->alloc(&m, 12345) == 0);
	CHECK(m.addr && m.len == 12345);
	host_export(&m, "host memory");
	CHECK(gdr_mem_init(&data, &cfg, NULL) == 0);
	CHECK(gdr_mem_bounce_init(&b, &data, 65536) == 0 && b.addr);
	host_export(&b, "bounce buffers");
	b.ops->free(&b);
	gdr_mem_fini(&m);
	gdr_mem_fini(&data);
	return CHECK_DONE();
}
