/* SPDX-License-Identifier: MIT */
/* dma-buf export range (memory), data direct's IOVA rule and run-time ibv_reg_dmabuf_mr (transport). */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include "dmabuf.h"
#include "verbs_reg.h"

#include "check.h"

static void range(uint64_t addr, size_t len, size_t page, uint64_t want_base, size_t want_span,
		  uint64_t want_off)
{
	uint64_t base = 1, off = 1;
	size_t span = 1;

	CHECK(gdr_dmabuf_range(addr, len, page, &base, &span, &off) == 0);
	CHECK(base == want_base);
	CHECK(span == want_span);
	CHECK(off == want_off);
	/* The exported range covers the buffer and is page aligned. */
	CHECK(base % page == 0 && span % page == 0);
	CHECK(base + off == addr && off + len <= span);
}

int main(void)
{
	const char *(*volatile name_fn)(struct ibv_device *) = ibv_get_device_name;
	uint64_t b, o;
	size_t s;

	range(0x7f0000000000ULL, 4096, 4096, 0x7f0000000000ULL, 4096, 0);
	range(0x7f0000000200ULL, 100, 4096, 0x7f0000000000ULL, 4096, 0x200);
	/* Unaligned start crossing a page: two pages. */
	range(0x7f0000000f00ULL, 0x200, 4096, 0x7f0000000000ULL, 8192, 0xf00);
	range(0x10000 + 512, (2 << 20) - 512, 65536, 0x10000, 2 << 20, 512);
	range(0x200000, 2 << 20, 2 << 20, 0x200000, 2 << 20, 0);
	range(0, 1, 4096, 0, 4096, 0);
	/* Bad page sizes and wrapping ranges are refused. */
	CHECK(gdr_dmabuf_range(0x1000, 10, 0, &b, &s, &o) == -1);
	CHECK(gdr_dmabuf_range(0x1000, 10, 3000, &b, &s, &o) == -1);
	CHECK(gdr_dmabuf_range(UINT64_MAX - 10, 100, 4096, &b, &s, &o) == -1);
	CHECK(gdr_dmabuf_range(UINT64_MAX - 10, 5, 4096, &b, &s, &o) == -1);
	/* data direct: the kernel's rule is a page-aligned IOVA, not a 2 MiB-aligned one */
	CHECK(gdr_dd_iova_ok(0x7f0000201000, 4096), "page-aligned, not 2 MiB-aligned: taken");
	CHECK(gdr_dd_iova_ok(0x7f0000200000, 65536));
	CHECK(!gdr_dd_iova_ok(0x7f0000200800, 4096), "inside a page: refused");
	CHECK(!gdr_dd_iova_ok(0x7f0000201000, 65536), "64 KiB pages");
	CHECK(!gdr_dd_iova_ok(0x1000, 0) && !gdr_dd_iova_ok(0x1000, 3000), "no page size");
	/* This build host's rdma-core (>= 34) has it; older ones give NULL. */
	CHECK(name_fn != NULL); /* links libibverbs, as the binaries do */
	CHECK(gdr_ibv_reg_dmabuf_mr() != NULL);
	CHECK(gdr_ibv_reg_dmabuf_mr() == gdr_ibv_reg_dmabuf_mr());
	return CHECK_DONE();
}
