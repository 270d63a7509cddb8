/* SPDX-License-Identifier: MIT */
/*
 * ROCm memory backend (AMD GPUs, through hip_api.c): GPU choice by HIP index or
 * PCI bus id, hipMalloc buffers exported for the NIC as a dma-buf (the HSA
 * export, ROCm >= 5.6) or by address (amdgpu_peermem;
 * transport/verbs/verbs_reg_rocm.c registers), copies on HIP streams
 * (--use_rocm, --use_rocm_dmabuf; docs/rocm.md).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "affinity.h"
#include "cuda_topo.h"
#include "gpu_pick.h"
#include "hip_api.h"
#include "log.h"
#include "mem.h"
#include "mem_rocm.h"

#define GPU_PAGE (2UL << 20) /* allocations are rounded to this for the export */

struct rocm_priv {
	const struct gdr_hip_api *hip;
	int index;
	void *dptr;
	enum gdr_mem_reg want;
	const struct gdr_hsa_dmabuf *hsa; /* the dma-buf export, once loaded */
	int dmabuf_fd;			  /* the buffer's dma-buf, -1 until exported */
	uint64_t dmabuf_off;
	gdr_hip_stream streams[GDR_MEM_STREAMS];
};

static struct rocm_priv *P(struct gdr_mem *m)
{
	return m->priv;
}

/*
 * One line for the first HIP error of a run; later ones follow from it. Each
 * run starts afresh (gdr_mem_rocm_init), as for CUDA.
 */
static int reported;

static int check(gdr_hip_err r, const char *what)
{
	if (r == GDR_HIP_SUCCESS)
		return 0;
	if (!__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		gdr_err("%s: %s", what, gdr_hip_strerror(r));
	return -1;
}

/* The calling thread's device (HIP keeps it per thread; ops may run anywhere). */
static int cur(struct rocm_priv *p)
{
	return check(p->hip->hipSetDevice(p->index), "hipSetDevice");
}

/* Close the buffer's dma-buf, if it was exported. */
static void close_dmabuf(struct rocm_priv *p)
{
	if (p->dmabuf_fd >= 0 && p->hsa)
		p->hsa->close_dmabuf(p->dmabuf_fd);
	p->dmabuf_fd = -1;
}

static void rocm_free(struct gdr_mem *m)
{
	struct rocm_priv *p = P(m);

	if (!p)
		return;
	p->hip->hipSetDevice(p->index);
	for (int i = 0; i < GDR_MEM_STREAMS; i++)
		if (p->streams[i])
			p->hip->hipStreamDestroy(p->streams[i]);
	close_dmabuf(p);
	if (p->dptr)
		p->hip->hipFree(p->dptr);
	free(p);
	m->priv = NULL;
	m->addr = NULL;
	m->len = 0;
}

static int rocm_alloc(struct gdr_mem *m, size_t len)
{
	struct rocm_priv *p = P(m);
	size_t alen;
	gdr_hip_err r;

	if (!len || len > SIZE_MAX - GPU_PAGE) {
		gdr_err("GPU buffer of %zu bytes: invalid size", len);
		return -1;
	}
	if (cur(p))
		return -1;
	close_dmabuf(p);
	if (p->dptr)
		p->hip->hipFree(p->dptr);
	p->dptr = NULL;
	alen = (len + GPU_PAGE - 1) & ~(GPU_PAGE - 1);
	r = p->hip->hipMalloc(&p->dptr, alen);
	if (r != GDR_HIP_SUCCESS) {
		gdr_err("hipMalloc of %zu bytes on %s: %s", alen, m->desc, gdr_hip_strerror(r));
		p->dptr = NULL;
		return -1;
	}
	m->addr = p->dptr;
	m->len = len;
	return 0;
}

/*
 * The export (mem.h): the device pointer, and its dma-buf (the HSA export, kept
 * open until the buffer is freed) unless amdgpu_peermem alone was asked for.
 * The transport registers it and names what failed.
 */
static int rocm_export(struct gdr_mem *m, struct gdr_xmem *x)
{
	struct rocm_priv *p = P(m);
	uint64_t off = 0;
	int fd = -1, r;

	if (!p->dptr) {
		gdr_err("registering GPU memory before allocating it");
		return -1;
	}
	if (cur(p))
		return -1;
	gdr_mem_export_base(m, x, GDR_XMEM_ROCM, p->index,
			    p->want == GDR_MEM_REG_DMABUF    ? GDR_XMEM_BY_DMABUF
			    : p->want == GDR_MEM_REG_PEERMEM ? GDR_XMEM_BY_ADDR
							     : 0);
	if (p->want == GDR_MEM_REG_PEERMEM)
		return 0;
	if (p->dmabuf_fd < 0) {
		if (!p->hsa && gdr_hsa_dmabuf_load(&p->hsa, x->no_dmabuf, sizeof(x->no_dmabuf)))
			return 0;
		r = p->hsa->export_dmabuf(m->addr, m->len, &fd, &off);
		if (r != GDR_HSA_SUCCESS) {
			snprintf(x->no_dmabuf, sizeof(x->no_dmabuf),
				 "hsa_amd_portable_export_dmabuf failed (HSA status 0x%x)", r);
			return 0;
		}
		p->dmabuf_fd = fd;
		p->dmabuf_off = off;
	}
	x->dmabuf_fd = p->dmabuf_fd;
	x->dmabuf_off = p->dmabuf_off;
	return 0;
}

static int range_ok(struct gdr_mem *m, size_t off, size_t len)
{
	if (off > m->len || len > m->len - off) {
		gdr_err("GPU copy [%zu, +%zu) outside the %zu-byte buffer", off, len, m->len);
		return 0;
	}
	return 1;
}

static int rocm_to_host(struct gdr_mem *m, void *dst, size_t off, size_t len)
{
	struct rocm_priv *p = P(m);

	if (!range_ok(m, off, len) || cur(p))
		return -1;
	return check(p->hip->hipMemcpy(dst, (char *)p->dptr + off, len, GDR_HIP_D2H),
		     "hipMemcpy (device to host)");
}

static int rocm_from_host(struct gdr_mem *m, size_t off, const void *src, size_t len)
{
	struct rocm_priv *p = P(m);

	if (!range_ok(m, off, len) || cur(p))
		return -1;
	return check(p->hip->hipMemcpy((char *)p->dptr + off, src, len, GDR_HIP_H2D),
		     "hipMemcpy (host to device)");
}

static bool stream_ok(int s)
{
	if (s >= 0 && s < GDR_MEM_STREAMS)
		return true;
	gdr_err("stream %d out of range 0..%d", s, GDR_MEM_STREAMS - 1);
	return false;
}

static int rocm_copy_async(struct gdr_mem *m, enum gdr_copy_dir dir, size_t off, void *host,
			   size_t len, int s)
{
	struct rocm_priv *p = P(m);
	char *d;

	if (!range_ok(m, off, len) || !stream_ok(s) || cur(p))
		return -1;
	if (!p->streams[s] && check(p->hip->hipStreamCreate(&p->streams[s]), "hipStreamCreate"))
		return -1;
	d = (char *)p->dptr + off;
	if (dir == GDR_TO_HOST)
		return check(p->hip->hipMemcpyAsync(host, d, len, GDR_HIP_D2H, p->streams[s]),
			     "hipMemcpyAsync (device to host)");
	return check(p->hip->hipMemcpyAsync(d, host, len, GDR_HIP_H2D, p->streams[s]),
		     "hipMemcpyAsync (host to device)");
}

static int rocm_sync(struct gdr_mem *m, int s)
{
	struct rocm_priv *p = P(m);

	if (!stream_ok(s))
		return -1;
	if (!p->streams[s])
		return 0;
	return check(p->hip->hipStreamSynchronize(p->streams[s]), "hipStreamSynchronize");
}

static int rocm_poll(struct gdr_mem *m, int s)
{
	struct rocm_priv *p = P(m);
	gdr_hip_err r;

	if (!stream_ok(s))
		return -1;
	if (!p->streams[s])
		return 1;
	r = p->hip->hipStreamQuery(p->streams[s]);
	if (r == GDR_HIP_SUCCESS)
		return 1;
	if (r == GDR_HIP_ERROR_NOT_READY)
		return 0;
	check(r, "hipStreamQuery");
	return -1;
}

static void *rocm_host_alloc(struct gdr_mem *m, size_t len)
{
	struct rocm_priv *p = P(m);
	void *h = NULL;
	gdr_hip_err r;

	if (!p->hip->hipHostMalloc) {
		gdr_err("pinned host memory: this HIP runtime has no hipHostMalloc");
		return NULL;
	}
	if (cur(p))
		return NULL;
	r = p->hip->hipHostMalloc(&h, len, 0);
	if (r != GDR_HIP_SUCCESS) {
		gdr_err("pinned host memory (hipHostMalloc) of %zu bytes: %s", len,
			gdr_hip_strerror(r));
		return NULL;
	}
	return h;
}

static void rocm_host_free(struct gdr_mem *m, void *h, size_t len)
{
	struct rocm_priv *p = P(m);

	(void)len;
	if (h && p->hip->hipHostFree)
		p->hip->hipHostFree(h);
}

static const struct gdr_mem_ops rocm_ops = GDR_MEM_OPS(rocm, "rocm", NULL, .device = true);

/* HIP's index of the GPU at bus (any case, any domain width), or -1. */
static int by_bus_id(const struct gdr_hip_api *hip, const char *bus)
{
	char bdf[32];
	int dev = -1;

	if (gdr_pci_normalize(bus, bdf, sizeof(bdf)))
		return -1;
	return hip->hipDeviceGetByPCIBusId(&dev, bdf) == GDR_HIP_SUCCESS ? dev : -1;
}

/*
 * GPU i's PCI address in sysfs, normalised ("dddd:bb:dd.f"), or "" unknown;
 * his (may be NULL) gets HIP's own string, normalised. An MI300X partition
 * (CPX, DPX...: ROCm >= 6.2) reads function N there, which sysfs does not
 * have: its GPU is function 0 of the same device. HIP's string is for HIP
 * (hipDeviceGetByPCIBusId), the sysfs one for NUMA, topology and link.
 */
static void bus_ids(const struct gdr_hip_api *hip, int i, char *bdf, size_t n, char *his, size_t hn)
{
	char raw[32] = "", path[PATH_MAX];

	if (hip->hipDeviceGetPCIBusId(raw, sizeof(raw), i) != GDR_HIP_SUCCESS ||
	    gdr_pci_normalize(raw, bdf, n)) {
		bdf[0] = 0;
		if (his)
			his[0] = 0;
		return;
	}
	if (his)
		snprintf(his, hn, "%s", bdf);
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", gdr_sysfs_root(), bdf);
	if (strlen(bdf) > 1 && bdf[strlen(bdf) - 1] != '0' && access(path, F_OK))
		bdf[strlen(bdf) - 1] = '0';
}

static void bus_of(const struct gdr_hip_api *hip, int i, char *bdf, size_t n)
{
	bus_ids(hip, i, bdf, n, NULL, 0);
}

/* --use_rocm=auto: the rule of --use_cuda=auto (gpu_pick.h) over HIP's GPUs. */
static int pick_auto(const struct gdr_hip_api *hip, const char *rdma_dev)
{
	char bdfs[64][32];
	const char *list[64];
	int count = hip->ndev > 64 ? 64 : hip->ndev;

	for (int i = 0; i < count; i++) {
		list[i] = bdfs[i];
		bus_of(hip, i, bdfs[i], sizeof(bdfs[i]));
	}
	return gdr_pick_gpu_said("--use_rocm", list, count, rdma_dev);
}

const char *gdr_mem_rocm_loaded(void)
{
	return gdr_hip_loaded();
}

int gdr_mem_rocm_count(char *why, size_t n)
{
	const struct gdr_hip_api *hip;

	return gdr_hip_load(&hip, why, n) ? -1 : hip->ndev;
}

int gdr_mem_rocm_bdf(int index, char *out, size_t n, char *why, size_t wn)
{
	const struct gdr_hip_api *hip;

	if (gdr_hip_load(&hip, why, wn))
		return -1;
	if (index < 0)
		index = (-index - 1) % hip->ndev; /* the local rank's GPU, as for CUDA */
	if (index >= hip->ndev) {
		snprintf(why, wn, "no AMD GPU %d (ROCm sees %d)", index, hip->ndev);
		return -1;
	}
	bus_of(hip, index, out, n);
	if (!out[0]) {
		snprintf(why, wn, "no PCI address for AMD GPU %d", index);
		return -1;
	}
	return 0;
}

int gdr_mem_rocm_init(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev)
{
	const struct gdr_hip_api *hip;
	struct rocm_priv *p;
	char why[512], name[96] = "", bus[32] = "", his[32] = "";
	int idx;

	__atomic_store_n(&reported, 0, __ATOMIC_RELAXED); /* a new run: its first error is said */
	if (gdr_hip_load(&hip, why, sizeof(why))) {
		gdr_err("--use_rocm: %s", why);
		return -1;
	}
	if (cfg->gpu_bus_id) {
		idx = by_bus_id(hip, cfg->gpu_bus_id);
		if (idx < 0) {
			gdr_err("--use_rocm=%s: no AMD GPU at that PCI address (%d visible to "
				"ROCm)",
				cfg->gpu_bus_id, hip->ndev);
			return -1;
		}
	} else if (cfg->gpu == GDR_MEM_GPU_AUTO) {
		idx = pick_auto(hip, rdma_dev);
	} else if (cfg->gpu >= 0 && cfg->gpu < hip->ndev) {
		idx = cfg->gpu;
	} else {
		gdr_err("--use_rocm=%d: ROCm sees %d AMD GPU(s), 0..%d", cfg->gpu, hip->ndev,
			hip->ndev - 1);
		return -1;
	}
	if (check(hip->hipSetDevice(idx), "hipSetDevice"))
		return -1;
	p = calloc(1, sizeof(*p));
	if (!p) {
		gdr_err("out of memory");
		return -1;
	}
	p->hip = hip;
	p->index = idx;
	p->want = cfg->reg;
	p->dmabuf_fd = -1;
	if (hip->hipDeviceGetName(name, sizeof(name), idx) != GDR_HIP_SUCCESS)
		snprintf(name, sizeof(name), "unknown AMD GPU");
	bus_ids(hip, idx, bus, sizeof(bus), his, sizeof(his));
	memset(m, 0, sizeof(*m));
	m->ops = &rocm_ops;
	m->priv = p;
	m->cfg = *cfg;
	snprintf(m->gpu_name, sizeof(m->gpu_name), "%s", name);
	snprintf(m->gpu_pci, sizeof(m->gpu_pci), "%s", bus[0] ? bus : "?");
	if (strcmp(his, bus))
		snprintf(m->desc, sizeof(m->desc), "GPU %d %.64s (%.24s, partition %.24s)", idx,
			 name, m->gpu_pci, his);
	else
		snprintf(m->desc, sizeof(m->desc), "GPU %d %s (%s)", idx, name, m->gpu_pci);
	if (cfg->gpu == GDR_MEM_GPU_AUTO && rdma_dev)
		snprintf(m->near_dev, sizeof(m->near_dev), "%s", rdma_dev);
	return 0;
}
