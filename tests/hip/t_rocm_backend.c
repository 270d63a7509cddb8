/* SPDX-License-Identifier: MIT */
/*
 * The ROCm memory backend over the HIP double (t_rocm_backend.sh sets GDR_LIBHIP):
 * "ok": GPU by index and by bus id, a 3 MiB buffer written and read back, the
 * staging copies on two streams (poll, sync), pinned host memory; "index N" and
 * "bus ID": only the choice, so the script can check the refusal's one line; "place N
 * NIC": GPU N's NUMA node and PCIe position against NIC, as the product reads them.
 * "export peermem|dmabuf": the export a registration choice gives. Registration itself
 * needs a verbs device: the e2e suite's part, not this test's.
 */
#include "config.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_pick.h"
#include "log.h"
#include "mem.h"

#define LEN (3u << 20)

static int fails;
#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			printf("FAIL line %d: %s\n", __LINE__, #c);                                \
			fails++;                                                                   \
		}                                                                                  \
	} while (0)

static void round_trip(struct gdr_mem *m)
{
	unsigned char *a = malloc(LEN), *b = malloc(LEN), *h;
	int busy = 0;

	if (m->ops->alloc(m, LEN)) {
		fails++;
		free(a);
		free(b);
		return;
	}
	CHECK(m->addr && m->len == LEN);
	CHECK(gdr_mem_on_device(m) && !strcmp(m->ops->kind, "rocm"));
	for (unsigned i = 0; i < LEN; i++)
		a[i] = (unsigned char)(i * 7 + 1);
	CHECK(m->ops->from_host(m, 0, a, LEN) == 0);
	memset(b, 0, LEN);
	CHECK(m->ops->to_host(m, b, 0, LEN) == 0 && !memcmp(a, b, LEN));
	/* staging: halves on streams 0 and 5 from pinned memory, then back */
	h = m->ops->host_alloc(m, LEN);
	CHECK(h != NULL);
	if (h) {
		memset(h, 0x5a, LEN);
		CHECK(m->ops->copy_async(m, GDR_FROM_HOST, 0, h, LEN / 2, 0) == 0);
		CHECK(m->ops->copy_async(m, GDR_FROM_HOST, LEN / 2, h + LEN / 2, LEN / 2, 5) == 0);
		busy = m->ops->poll(m, 0) == 0 || m->ops->poll(m, 5) == 0;
		CHECK(m->ops->sync(m, 0) == 0 && m->ops->sync(m, 5) == 0);
		CHECK(m->ops->poll(m, 0) == 1 && m->ops->poll(m, 5) == 1 &&
		      m->ops->poll(m, 3) == 1);
		memset(h, 0, LEN);
		CHECK(m->ops->copy_async(m, GDR_TO_HOST, 0, h, LEN, 2) == 0);
		CHECK(m->ops->sync(m, 2) == 0);
		CHECK(h[0] == 0x5a && h[LEN - 1] == 0x5a);
		m->ops->host_free(m, h, LEN);
	}
	printf("round trip ok (a stream was seen busy: %s)\n", busy ? "yes" : "no");
	/* outside the buffer, and a stream out of range: refused */
	CHECK(m->ops->to_host(m, b, LEN - 1, 2) == -1);
	CHECK(m->ops->copy_async(m, GDR_TO_HOST, 0, b, 1, GDR_MEM_STREAMS) == -1);
	free(a);
	free(b);
}

/*
 * The export (mem.h) the verbs transport registers: the device pointer, and the HSA
 * dma-buf (exported once per buffer) unless amdgpu_peermem alone is asked for.
 */
static void export_checks(struct gdr_mem *m)
{
	struct gdr_xmem x, y;
	int fd;

	memset(&x, 0x5a, sizeof(x));
	CHECK(m->ops->export(m, &x) == 0);
	CHECK(x.addr == m->addr && x.len == m->len && x.kind == GDR_XMEM_ROCM && x.device == 1);
	CHECK(x.desc == m->desc && x.flags == 0 && !x.no_dmabuf[0]);
	CHECK(x.dmabuf_fd >= 0 && fcntl(x.dmabuf_fd, F_GETFD) != -1);
	fd = x.dmabuf_fd;
	CHECK(m->ops->export(m, &y) == 0 && y.dmabuf_fd == fd && y.dmabuf_off == x.dmabuf_off);
	printf("export: dma-buf fd %d at offset %llu\n", fd, (unsigned long long)x.dmabuf_off);
}

/* "export WHAT": the export of a fresh GPU 1 buffer when WHAT ("peermem", "dmabuf") is asked. */
static int export_as(const char *what)
{
	struct gdr_mem_cfg cfg = {.api = GDR_MEM_API_ROCM, .gpu = 1};
	struct gdr_mem m = {0};
	struct gdr_xmem x;
	int ok;

	cfg.reg = !strcmp(what, "peermem") ? GDR_MEM_REG_PEERMEM : GDR_MEM_REG_DMABUF;
	if (gdr_mem_init(&m, &cfg, NULL) || m.ops->alloc(&m, LEN) || m.ops->export(&m, &x))
		return 1;
	printf("export %s: flags %#x fd %s%s%s\n", what, x.flags, x.dmabuf_fd >= 0 ? "yes" : "no",
	       x.no_dmabuf[0] ? ": " : "", x.no_dmabuf);
	ok = cfg.reg == GDR_MEM_REG_PEERMEM ? x.flags == GDR_XMEM_BY_ADDR && x.dmabuf_fd == -1
					    : x.flags == GDR_XMEM_BY_DMABUF;
	m.ops->free(&m);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct gdr_mem m = {0};
	struct gdr_mem_cfg cfg = {
	    .api = GDR_MEM_API_ROCM, .gpu = 1, .gpu_bus_id = NULL, .reg = GDR_MEM_REG_AUTO};

	gdr_set_prog("t_rocm_backend");
	if (argc == 3 && !strcmp(argv[1], "index")) {
		cfg.gpu = atoi(argv[2]);
		return gdr_mem_init(&m, &cfg, NULL) ? 1 : (m.ops->free(&m), 0);
	}
	/* "auto NIC...": the GPU --use_rocm=auto gives each RDMA device */
	if (argc >= 3 && !strcmp(argv[1], "auto")) {
		cfg.gpu = GDR_MEM_GPU_AUTO;
		for (int i = 2; i < argc; i++) {
			if (gdr_mem_init(&m, &cfg, argv[i]))
				return 1;
			printf("%s -> %s near %s\n", argv[i], m.desc, m.near_dev);
			gdr_mem_fini(&m);
		}
		return 0;
	}
	/* "place N NIC": GPU N's NUMA node and PCIe position against NIC (sysfs's view) */
	if (argc == 4 && !strcmp(argv[1], "place")) {
		const char *bdf[1] = {m.gpu_pci};
		char why[256];

		cfg.gpu = atoi(argv[2]);
		if (gdr_mem_init(&m, &cfg, NULL))
			return 1;
		gdr_pick_gpu(bdf, 1, argv[3], why, sizeof(why));
		printf("%s: NUMA node %d, %s\n", m.desc, gdr_mem_gpu_numa(&m), why);
		m.ops->free(&m);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "export"))
		return export_as(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "bus")) {
		cfg.gpu_bus_id = argv[2];
		if (gdr_mem_init(&m, &cfg, NULL))
			return 1;
		printf("%s\n", m.desc);
		m.ops->free(&m);
		return 0;
	}
	CHECK(gdr_mem_init(&m, &cfg, NULL) == 0);
	if (fails)
		return 1;
	printf("%s\n", m.desc);
	round_trip(&m);
	if (m.addr) /* round_trip allocated it */
		export_checks(&m);
	m.ops->free(&m);
	return fails ? 1 : 0;
}
