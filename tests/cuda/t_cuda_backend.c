/* SPDX-License-Identifier: MIT */
/*
 * The CUDA backend on a real GPU: selection by index and bus id, allocation,
 * dma-buf export and the export a transport registers, synchronous and asynchronous
 * round trips, error paths.
 * Skips (77) where no driver or GPU is present.
 */
#include "config.h"
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cuda_api.h"
#include "cuda_skip.h"
#include "log.h"
#include "mem.h"

#include "../unit/check.h"
#include "pattern.h"

static void cfg_idx(struct gdr_mem_cfg *o, int idx)
{
	memset(o, 0, sizeof(*o));
	o->gpu = idx;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void sync_round_trip(struct gdr_mem *m)
{
	const size_t len = m->len;
	uint8_t *a = malloc(len), *b = malloc(len);
	/* odd offsets and lengths, the whole buffer, a single byte */
	const size_t offs[] = {0, 1, 4093, len / 2 + 7, len - 1};
	const size_t lens[] = {len, 1000003, 65537, 12345, 1};
	size_t i;

	CHECK(a && b);
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		size_t off = offs[i], n = lens[i] < len - off ? lens[i] : len - off;
		uint32_t seed = 7 + i;

		pattern_fill(a, n, off, seed);
		memset(b, 0xA5, n);
		CHECK(m->ops->from_host(m, off, a, n) == 0);
		CHECK(m->ops->to_host(m, b, off, n) == 0);
		CHECK(pattern_first_bad(b, n, off, seed) == n);
	}
	/* neighbours are untouched: write a middle range, check the bytes around it */
	memset(a, 0, len);
	CHECK(m->ops->from_host(m, 0, a, len) == 0);
	pattern_fill(a, 4096, 8192, 99);
	CHECK(m->ops->from_host(m, 8192, a, 4096) == 0);
	CHECK(m->ops->to_host(m, b, 0, len) == 0);
	CHECK(b[8191] == 0 && b[8192 + 4096] == 0);
	CHECK(pattern_first_bad(b + 8192, 4096, 8192, 99) == 4096);
	/* out-of-range copies are refused, not performed */
	CHECK(m->ops->to_host(m, b, len - 10, 11) == -1);
	CHECK(m->ops->from_host(m, len + 1, a, 0) == -1);
	free(a);
	free(b);
}

static void async_round_trip(struct gdr_mem *m)
{
	const size_t len = m->len, chunk = len / GDR_MEM_STREAMS;
	uint8_t *h = m->ops->host_alloc(m, len), *g = m->ops->host_alloc(m, len);
	double t0;
	int s, busy_seen = 0, rc;

	CHECK(h && g);
	if (!h || !g)
		return;
	pattern_fill(h, len, 0, 1234);
	memset(g, 0, len);
	/* idle streams poll as idle */
	for (s = 0; s < GDR_MEM_STREAMS; s++)
		CHECK(m->ops->poll(m, s) == 1);
	for (s = 0; s < GDR_MEM_STREAMS; s++)
		CHECK(m->ops->copy_async(m, GDR_FROM_HOST, s * chunk, h + s * chunk, chunk, s) ==
		      0);
	for (s = 0; s < GDR_MEM_STREAMS; s++)
		CHECK(m->ops->sync(m, s) == 0);
	/* back, in reverse stream order, waited for by polling */
	for (s = 0; s < GDR_MEM_STREAMS; s++)
		CHECK(m->ops->copy_async(m, GDR_TO_HOST, s * chunk, g + s * chunk, chunk,
					 GDR_MEM_STREAMS - 1 - s) == 0);
	t0 = now_s();
	for (s = 0; s < GDR_MEM_STREAMS; s++) {
		while ((rc = m->ops->poll(m, s)) == 0 && now_s() - t0 < 10)
			busy_seen = 1;
		CHECK(rc == 1);
	}
	CHECK(pattern_first_bad(g, GDR_MEM_STREAMS * chunk, 0, 1234) == GDR_MEM_STREAMS * chunk);
	printf("  async: %d streams x %zu B round trip ok (busy seen while polling: %s)\n",
	       GDR_MEM_STREAMS, chunk, busy_seen ? "yes" : "no");
	/* bad stream indexes */
	CHECK(m->ops->copy_async(m, GDR_TO_HOST, 0, g, 16, GDR_MEM_STREAMS) == -1);
	CHECK(m->ops->sync(m, -1) == -1);
	CHECK(m->ops->poll(m, GDR_MEM_STREAMS) == -1);
	m->ops->host_free(m, h, len);
	m->ops->host_free(m, g, len);
}

/*
 * The export (mem.h) the transport registers, as each registration choice asks: auto
 * (dma-buf first where the GPU can export it, silently by address where it cannot),
 * --use_cuda_peermem (the address alone), --use_cuda_dmabuf, --use_cuda_pcie_mapping
 * and --use_data_direct (the dma-buf alone; a refused export says why).
 */
static void export_as(enum gdr_mem_reg reg, bool pcie, bool dd, int supported)
{
	const unsigned int want =
	    (reg == GDR_MEM_REG_PEERMEM ? GDR_XMEM_BY_ADDR : 0) |
	    (reg == GDR_MEM_REG_DMABUF || pcie || dd ? GDR_XMEM_BY_DMABUF : 0) |
	    (pcie || dd ? GDR_XMEM_PCIE : 0) | (dd ? GDR_XMEM_DATA_DIRECT : 0);
	long page = sysconf(_SC_PAGESIZE);
	struct gdr_mem m = {0};
	struct gdr_mem_cfg o;
	struct gdr_xmem x, y;

	cfg_idx(&o, 0);
	o.reg = reg;
	o.pcie_mapping = pcie;
	o.data_direct = dd;
	CHECK(gdr_mem_cuda_init(&m, &o, NULL) == 0 && m.ops->alloc(&m, (2u << 20) + 100) == 0);
	if (!m.addr)
		return;
	memset(&x, 0x5a, sizeof(x));
	CHECK(m.ops->export(&m, &x) == 0);
	CHECK(x.addr == m.addr && x.len == m.len && x.kind == GDR_XMEM_CUDA && x.device == 0);
	CHECK(x.desc == m.desc && x.flags == want);
	if (reg == GDR_MEM_REG_PEERMEM || (!(want & GDR_XMEM_BY_DMABUF) && !supported))
		CHECK(x.dmabuf_fd == -1 && !x.no_dmabuf[0], "by address, nothing to say");
	else if (x.dmabuf_fd >= 0) {
		CHECK(fcntl(x.dmabuf_fd, F_GETFD) != -1 && !x.no_dmabuf[0]);
		CHECK(x.dmabuf_off < (uint64_t)page &&
		      ((uintptr_t)x.addr - x.dmabuf_off) % (uint64_t)page == 0);
		CHECK(m.ops->export(&m, &y) == 0 && y.dmabuf_fd == x.dmabuf_fd, "exported once");
	} else /* a GPU or platform that refuses: the transport names why */
		CHECK(strstr(x.no_dmabuf, "dma-buf") || strstr(x.no_dmabuf, "DMA_BUF"), "%s",
		      x.no_dmabuf);
	printf("  export (reg %d%s%s): flags %#x, %s%s\n", (int)reg, pcie ? ", pcie" : "",
	       dd ? ", data direct" : "", x.flags, x.dmabuf_fd >= 0 ? "dma-buf" : "no dma-buf ",
	       x.no_dmabuf);
	m.ops->free(&m);
}

int main(void)
{
	const struct gdr_cuda_api *cu;
	struct gdr_mem m = {0}, m2 = {0}, bad = {0};
	struct gdr_mem_cfg o;
	char why[256], name0[96], pci0[32], upper[32];
	int count = 0, fd, supported = 0, i;
	size_t len = (8u << 20) + 4099; /* not a multiple of any page */
	CUdevice dev;

	gdr_set_prog("t_cuda_backend");
	cu = cuda_or_skip();
	CHECK(cu->cuDeviceGetCount(&count) == CUDA_SUCCESS && count >= 1);
	printf("driver CUDA %d.%d, %d GPU(s)\n", cu->driver_version / 1000,
	       cu->driver_version % 1000 / 10, count);

	/* by index */
	cfg_idx(&o, 0);
	CHECK(gdr_mem_cuda_init(&m, &o, NULL) == 0);
	if (failures)
		return 1;
	CHECK(!strcmp(m.ops->kind, "cuda"));
	CHECK(m.gpu_name[0] && m.gpu_pci[0] && strstr(m.desc, m.gpu_name));
	CHECK(!strncmp(m.desc, "GPU 0 ", 6));
	printf("  index 0: %s\n", m.desc);
	snprintf(name0, sizeof(name0), "%s", m.gpu_name);
	snprintf(pci0, sizeof(pci0), "%s", m.gpu_pci);
	CHECK(m.ops->alloc(&m, len) == 0);
	CHECK(m.addr != NULL && m.len == len);

	CHECK(cu->cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
	CHECK(cu->cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev) ==
	      CUDA_SUCCESS);
	/* cuMemsetD8 through the raw API, seen through the backend's to_host */
	{
		uint8_t *b = malloc(len);
		size_t k, badk = len;

		CHECK(cu->cuMemsetD8((CUdeviceptr)(uintptr_t)m.addr, 0x5c, len) == CUDA_SUCCESS);
		CHECK(b && m.ops->to_host(&m, b, 0, len) == 0);
		for (k = 0; b && k < len; k++)
			if (b[k] != 0x5c) {
				badk = k;
				break;
			}
		CHECK(badk == len);
		free(b);
	}
	sync_round_trip(&m);
	async_round_trip(&m);
	/* Validation flushes GPUDirect RDMA writes first (a no-op where ordering is native). */
	CHECK(m.ops->flush_nic_writes && m.ops->flush_nic_writes(&m) == 0);

	/* dma-buf export */
	fd = gdr_mem_cuda_export_dmabuf(&m, why, sizeof(why));
	if (supported) {
		CHECK(fd >= 0 && fcntl(fd, F_GETFD) != -1);
		CHECK(gdr_mem_cuda_export_dmabuf(&m, why, sizeof(why)) == fd); /* exported once */
		printf("  dma-buf: fd %d exported for the %zu-byte buffer\n", fd, m.len);
	} else {
		CHECK(fd == -1 && strstr(why, "dma-buf"));
		printf("  dma-buf: not supported by this GPU/driver: %s\n", why);
	}

	export_as(GDR_MEM_REG_AUTO, false, false, supported);
	export_as(GDR_MEM_REG_PEERMEM, false, false, supported);
	export_as(GDR_MEM_REG_DMABUF, false, false, supported);
	export_as(GDR_MEM_REG_AUTO, true, false, supported);
	export_as(GDR_MEM_REG_AUTO, false, true, supported);

	/* by bus id: same GPU, any spelling */
	memset(&o, 0, sizeof(o));
	o.gpu = GDR_MEM_GPU_NONE;
	for (i = 0; pci0[i] && i < (int)sizeof(upper) - 1; i++)
		upper[i] = (pci0[i] >= 'a' && pci0[i] <= 'f') ? pci0[i] - 32 : pci0[i];
	upper[i] = 0;
	o.gpu_bus_id = upper;
	CHECK(gdr_mem_cuda_init(&m2, &o, NULL) == 0);
	CHECK(!strcmp(m2.gpu_pci, pci0) && !strcmp(m2.gpu_name, name0));
	printf("  bus id %s: %s\n", upper, m2.desc);
	CHECK(m2.ops->alloc(&m2, 4096) == 0);
	m2.ops->free(&m2);
	CHECK(m2.priv == NULL && m2.addr == NULL);

	/* auto without an RDMA device to compare with: GPU 0 */
	cfg_idx(&o, GDR_MEM_GPU_AUTO);
	CHECK(gdr_mem_cuda_init(&m2, &o, "no_such_rdma_dev") == 0);
	CHECK(!strncmp(m2.desc, "GPU 0 ", 6));
	m2.ops->free(&m2);

	/* error paths: one line, -1, nothing allocated */
	printf("  expected errors follow:\n");
	fflush(stdout);
	cfg_idx(&o, count);
	CHECK(gdr_mem_cuda_init(&bad, &o, NULL) == -1 && bad.priv == NULL);
	cfg_idx(&o, 1000);
	CHECK(gdr_mem_cuda_init(&bad, &o, NULL) == -1 && bad.priv == NULL);
	memset(&o, 0, sizeof(o));
	o.gpu = GDR_MEM_GPU_NONE;
	o.gpu_bus_id = "00ff:fe:1f.7";
	CHECK(gdr_mem_cuda_init(&bad, &o, NULL) == -1 && bad.priv == NULL);
	o.gpu_bus_id = "not-a-bdf";
	CHECK(gdr_mem_cuda_init(&bad, &o, NULL) == -1 && bad.priv == NULL);
	CHECK(m.ops->alloc(&m, 0) == -1);

	m.ops->free(&m);
	CHECK(m.priv == NULL);
	return CHECK_DONE("on %s (%s)", name0, pci0);
}
