/* SPDX-License-Identifier: MIT */
/* CUDA memory backend: GPU selection, device buffers, their export (dma-buf), copies. */
#include "config.h"
#include "cuda_api.h"

#ifdef HAVE_CUDA

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuda_topo.h"
#include "gpu_pick.h"
#include "dmabuf.h"
#include "log.h"
#include "mem.h"
#include "pairing.h"

#define GPU_PAGE (2UL << 20) /* allocations are rounded to this for dma-buf export */

struct cuda_priv {
	const struct gdr_cuda_api *cu;
	CUdevice dev;
	int index;
	CUcontext ctx;
	CUdeviceptr dptr;
	size_t alloc_len;
	int dmabuf_fd;
	uint64_t dmabuf_off; /* m->addr - start of the exported (page-aligned) range */
	bool dmabuf_ok;      /* device attribute DMA_BUF_SUPPORTED */
	bool flush_writes;   /* GPUDirect RDMA writes need a flush before the GPU reads */
	const char *no_flush; /* they would need one, but the platform cannot: why */
	bool no_flush_said;
	enum gdr_mem_reg want;
	bool pcie_mapping; /* --use_cuda_pcie_mapping: export mapped through BAR1 */
	bool data_direct;  /* --use_data_direct: mlx5dv data-direct registration */
	CUstream streams[GDR_MEM_STREAMS];
};

static struct cuda_priv *P(struct gdr_mem *m)
{
	return m->priv;
}

/*
 * The first CUDA error of a run is reported; later ones of that run follow
 * from it (a lost context fails every call, teardown included), so they stay
 * quiet: one line per failure. Each run starts afresh (gdr_mem_cuda_init), so
 * a --persistent server names the cause of every client's failure, not only
 * the first of the process.
 */
static int reported;

static int check(CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return 0;
	if (!__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		gdr_err("%s: %s", what, gdr_cuda_strerror(r));
	return -1;
}

/* Make the context current in the calling thread (cheap; ops may run anywhere). */
static int cur(struct cuda_priv *p)
{
	return check(p->cu->cuCtxSetCurrent(p->ctx), "cuCtxSetCurrent");
}

static void cuda_free(struct gdr_mem *m)
{
	struct cuda_priv *p = P(m);
	int i;

	if (!p)
		return;
	p->cu->cuCtxSetCurrent(p->ctx);
	for (i = 0; i < GDR_MEM_STREAMS; i++)
		if (p->streams[i]) {
			p->cu->cuStreamDestroy(p->streams[i]);
			p->streams[i] = NULL;
		}
	if (p->dmabuf_fd >= 0)
		close(p->dmabuf_fd);
	if (p->dptr)
		p->cu->cuMemFree(p->dptr);
	p->cu->cuDevicePrimaryCtxRelease(p->dev);
	free(p);
	m->priv = NULL;
	m->addr = NULL;
	m->len = 0;
}

static int cuda_alloc(struct gdr_mem *m, size_t len)
{
	struct cuda_priv *p = P(m);
	unsigned int one = 1;
	size_t alen;
	CUresult r;

	if (!len || len > SIZE_MAX - GPU_PAGE) {
		gdr_err("GPU buffer of %zu bytes: invalid size", len);
		return -1;
	}
	if (cur(p))
		return -1;
	if (p->dptr) {
		if (p->dmabuf_fd >= 0)
			close(p->dmabuf_fd);
		p->dmabuf_fd = -1;
		p->cu->cuMemFree(p->dptr);
		p->dptr = 0;
	}
	alen = (len + GPU_PAGE - 1) & ~(GPU_PAGE - 1);
	r = p->cu->cuMemAlloc(&p->dptr, alen);
	if (r != CUDA_SUCCESS) {
		gdr_err("cuMemAlloc of %zu bytes on %s: %s%s", alen, m->desc, gdr_cuda_strerror(r),
			r == CUDA_ERROR_OUT_OF_MEMORY ? ": use smaller sizes or fewer QPs" : "");
		p->dptr = 0;
		return -1;
	}
	/* Synchronous memory operations on this buffer, as RDMA needs. */
	r = p->cu->cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, p->dptr);
	if (r != CUDA_SUCCESS)
		gdr_warn("cuPointerSetAttribute(SYNC_MEMOPS): %s", gdr_cuda_strerror(r));
	p->alloc_len = alen;
	m->addr = (void *)(uintptr_t)p->dptr;
	m->len = len;
	return 0;
}

int gdr_mem_cuda_export_dmabuf(struct gdr_mem *m, char *why, size_t n)
{
	struct cuda_priv *p = P(m);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t base, off;
	size_t span;
	int fd = -1;
	CUresult r;

	if (p->dmabuf_fd >= 0)
		return p->dmabuf_fd;
	if (!p->cu->cuMemGetHandleForAddressRange) {
		snprintf(why, n, "the NVIDIA driver is older than CUDA 11.7 (no dma-buf export)");
		return -1;
	}
	if (!p->dmabuf_ok) {
		snprintf(why, n,
			 "%s does not support dma-buf (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED=0; "
			 "needs an open kernel module driver and Linux >= 5.12)",
			 m->desc);
		return -1;
	}
	/* The exported range must start and end on host pages; the MR starts at off. */
	if (gdr_dmabuf_range(p->dptr, m->len, page > 0 ? (size_t)page : 4096, &base, &span,
			     &off)) {
		snprintf(why, n, "GPU buffer at 0x%llx: no page-aligned range covers it",
			 (unsigned long long)p->dptr);
		return -1;
	}
	if (cur(p))
		return -1;
	r = p->cu->cuMemGetHandleForAddressRange(&fd, (CUdeviceptr)base, span,
						 CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD,
						 p->pcie_mapping ? GDR_DMABUF_MAPPING_PCIE : 0);
	if ((r != CUDA_SUCCESS || fd < 0) && p->pcie_mapping) {
		snprintf(why, n,
			 "%s: the driver refused the PCIe (BAR1) mapping of "
			 "the dma-buf (cuMemGetHandleForAddressRange, "
			 "CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE): %s: it needs a driver and "
			 "platform that offer it",
			 p->data_direct ? "--use_data_direct (exports with the PCIe mapping, as "
					  "perftest does)"
					: "--use_cuda_pcie_mapping",
			 gdr_cuda_strerror(r));
		return -1;
	}
	if (r != CUDA_SUCCESS || fd < 0) {
		snprintf(why, n, "cuMemGetHandleForAddressRange(DMA_BUF_FD): %s",
			 gdr_cuda_strerror(r));
		return -1;
	}
	p->dmabuf_fd = fd;
	p->dmabuf_off = off;
	return fd;
}

/*
 * The export (mem.h): the device pointer, and its dma-buf where the
 * configuration asks for one: --use_cuda_dmabuf, --use_cuda_pcie_mapping and
 * --use_data_direct ask for it alone, auto for it first where the GPU and driver
 * can export (else by address, nvidia-peermem, without a word), --use_cuda_peermem
 * for the address alone. The transport registers and names what failed.
 */
static int cuda_export(struct gdr_mem *m, struct gdr_xmem *x)
{
	struct cuda_priv *p = P(m);
	unsigned int flags = p->want == GDR_MEM_REG_DMABUF    ? GDR_XMEM_BY_DMABUF
			     : p->want == GDR_MEM_REG_PEERMEM ? GDR_XMEM_BY_ADDR
							      : 0;
	int fd;

	if (!p->dptr) {
		gdr_err("registering GPU memory before allocating it");
		return -1;
	}
	if (cur(p))
		return -1;
	flags |= p->pcie_mapping ? GDR_XMEM_PCIE : 0;
	flags |= p->data_direct ? GDR_XMEM_DATA_DIRECT : 0;
	gdr_mem_export_base(m, x, GDR_XMEM_CUDA, p->index, flags);
	if (p->want == GDR_MEM_REG_PEERMEM ||
	    (p->want == GDR_MEM_REG_AUTO && (!p->dmabuf_ok || !p->cu->cuMemGetHandleForAddressRange)))
		return 0;
	fd = gdr_mem_cuda_export_dmabuf(m, x->no_dmabuf, sizeof(x->no_dmabuf));
	if (fd < 0) {
		if (!x->no_dmabuf[0])
			snprintf(x->no_dmabuf, sizeof(x->no_dmabuf), "the dma-buf export failed");
		return 0;
	}
	x->dmabuf_fd = fd;
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

static int cuda_to_host(struct gdr_mem *m, void *dst, size_t off, size_t len)
{
	struct cuda_priv *p = P(m);

	if (!range_ok(m, off, len) || cur(p))
		return -1;
	return check(p->cu->cuMemcpyDtoH(dst, p->dptr + off, len), "cuMemcpyDtoH");
}

static int cuda_from_host(struct gdr_mem *m, size_t off, const void *src, size_t len)
{
	struct cuda_priv *p = P(m);

	if (!range_ok(m, off, len) || cur(p))
		return -1;
	return check(p->cu->cuMemcpyHtoD(p->dptr + off, src, len), "cuMemcpyHtoD");
}

static bool stream_ok(int s)
{
	if (s >= 0 && s < GDR_MEM_STREAMS)
		return true;
	gdr_err("stream %d out of range 0..%d", s, GDR_MEM_STREAMS - 1);
	return false;
}

static CUstream stream(struct cuda_priv *p, int s)
{
	if (!stream_ok(s))
		return NULL;
	if (!p->streams[s] &&
	    check(p->cu->cuStreamCreate(&p->streams[s], CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
		return NULL;
	return p->streams[s];
}

static int cuda_copy_async(struct gdr_mem *m, enum gdr_copy_dir dir, size_t off, void *host,
			   size_t len, int s)
{
	struct cuda_priv *p = P(m);
	/* m->addr, the device pointer (p->dptr), or a view's start inside it */
	CUdeviceptr at = (CUdeviceptr)(uintptr_t)m->addr + off;
	CUstream st;

	if (!range_ok(m, off, len) || cur(p) || !(st = stream(p, s)))
		return -1;
	if (dir == GDR_TO_HOST)
		return check(p->cu->cuMemcpyDtoHAsync(host, at, len, st), "cuMemcpyDtoHAsync");
	return check(p->cu->cuMemcpyHtoDAsync(at, host, len, st), "cuMemcpyHtoDAsync");
}

#if CUDA_VERSION >= 12080
/*
 * Every block's source in stream order (after the stream's earlier work: the
 * NIC's data is there once the staged loop queues the copy), the host side's
 * location named; the hints matter only for managed or pageable memory.
 */
static void batch_attr(struct cuda_priv *p, int dir, CUmemcpyAttributes *a)
{
	CUmemLocation gpu = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = (int)p->dev};
	CUmemLocation host = {.type = CU_MEM_LOCATION_TYPE_HOST, .id = 0};

	*a = (CUmemcpyAttributes){
	    .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM,
	    .srcLocHint = dir == GDR_TO_HOST ? gpu : host,
	    .dstLocHint = dir == GDR_TO_HOST ? host : gpu,
	};
}
#endif

int gdr_mem_cuda_copy_list(struct gdr_mem *m, int dir, const uint64_t *off, uint32_t n, size_t blk,
			   void *host, int s)
{
#if CUDA_VERSION >= 12080
	struct cuda_priv *p = P(m);
	CUdeviceptr *dst = calloc(n ? n : 1, sizeof(*dst)), *src = calloc(n ? n : 1, sizeof(*src));
	size_t *len = calloc(n ? n : 1, sizeof(*len)), idx = 0, fail = SIZE_MAX;
	CUmemcpyAttributes a;
	CUstream st = NULL;
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	int rc = -1;

	if (!dst || !src || !len) {
		gdr_err("cuMemcpyBatchAsync: no memory for a %u-block list", n);
		goto out;
	}
	for (uint32_t k = 0; k < n; k++) {
		CUdeviceptr g = (CUdeviceptr)(uintptr_t)m->addr + off[k];
		CUdeviceptr h = (CUdeviceptr)(uintptr_t)((uint8_t *)host + (size_t)k * blk);

		if (!range_ok(m, (size_t)off[k], blk))
			goto out;
		dst[k] = dir == GDR_TO_HOST ? h : g;
		src[k] = dir == GDR_TO_HOST ? g : h;
		len[k] = blk;
	}
	if (cur(p) || !(st = stream(p, s)))
		goto out;
	batch_attr(p, dir, &a);
	r = gdr_cuda_memcpy_batch(p->cu, dst, src, len, n, &a, &idx, 1, &fail, st);
	if (r != CUDA_SUCCESS && fail != SIZE_MAX && fail < n)
		gdr_err("cuMemcpyBatchAsync (%u blocks of %zu B): %s at block %zu (offset %llu)", n,
			blk, gdr_cuda_strerror(r), fail, (unsigned long long)off[fail]);
	else
		rc = check(r, "cuMemcpyBatchAsync");
	if (r == CUDA_SUCCESS)
		rc = 0;
out:
	free(dst);
	free(src);
	free(len);
	return rc;
#else
	(void)m, (void)dir, (void)off, (void)n, (void)blk, (void)host, (void)s;
	gdr_err("cuMemcpyBatchAsync: built with CUDA headers before 12.8");
	return -1;
#endif
}

/* Stream s exists (1, context current), was never used (0), or error (-1). */
static int live_stream(struct cuda_priv *p, int s)
{
	if (!stream_ok(s))
		return -1;
	if (!p->streams[s])
		return 0;
	return cur(p) ? -1 : 1;
}

static int cuda_sync(struct gdr_mem *m, int s)
{
	struct cuda_priv *p = P(m);
	int live = live_stream(p, s);

	if (live <= 0)
		return live;
	return check(p->cu->cuStreamSynchronize(p->streams[s]), "cuStreamSynchronize");
}

static int cuda_poll(struct gdr_mem *m, int s)
{
	struct cuda_priv *p = P(m);
	int live = live_stream(p, s);
	CUresult r;

	if (live <= 0)
		return live < 0 ? -1 : 1;
	r = p->cu->cuStreamQuery(p->streams[s]);
	if (r == CUDA_SUCCESS)
		return 1;
	if (r == CUDA_ERROR_NOT_READY)
		return 0;
	check(r, "cuStreamQuery");
	return -1;
}

/*
 * Before the GPU reads what the NIC wrote (validation), make GPUDirect RDMA
 * writes visible to it, where the device does not order them natively.
 */
static int cuda_flush_nic_writes(struct gdr_mem *m)
{
	struct cuda_priv *p = P(m);

	CUresult r;

	if (p->no_flush && !p->no_flush_said) {
		p->no_flush_said = true;
		gdr_info("note: GPU %d cannot flush GPUDirect RDMA writes (%s): the data check "
			 "reads what the NIC wrote without a flush",
			 p->index, p->no_flush);
	}
	if (!p->flush_writes || cur(p))
		return p->flush_writes ? -1 : 0;
	r = p->cu->cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
					      CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER);
	if (r == CUDA_SUCCESS)
		return 0;
	/* The caller names it (data not checked); the text travels to the peer too. */
	snprintf(m->fail, sizeof(m->fail), "cuFlushGPUDirectRDMAWrites failed: %s",
		 gdr_cuda_strerror(r));
	return -1;
}

static void *cuda_host_alloc(struct gdr_mem *m, size_t len)
{
	struct cuda_priv *p = P(m);
	void *h = NULL;
	CUresult r;

	if (cur(p))
		return NULL;
	/* Mapped for the GPU as well, where it can be: the sm copier's kernel reaches it. */
	if (p->cu->cuMemHostAlloc)
		r = p->cu->cuMemHostAlloc(&h, len,
					  CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
	else
		r = p->cu->cuMemAllocHost(&h, len);
	if (r != CUDA_SUCCESS) {
		gdr_err("pinned host memory (cuMemHostAlloc) of %zu bytes: %s%s", len,
			gdr_cuda_strerror(r),
			r == CUDA_ERROR_OUT_OF_MEMORY ? ": not enough pinnable host memory" : "");
		return NULL;
	}
	return h;
}

static void cuda_host_free(struct gdr_mem *m, void *h, size_t len)
{
	struct cuda_priv *p = P(m);

	(void)len;
	if (h && !cur(p))
		p->cu->cuMemFreeHost(h);
}

/* The driver's HOST_NUMA_ID of the GPU, -1 unknown (gdr_mem_gpu_numa reads sysfs then). */
static int cuda_numa(const struct gdr_mem *m)
{
	const struct cuda_priv *p = m->priv;
	int v = -1;

	if (p->cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, p->dev) !=
	    CUDA_SUCCESS)
		return -1;
	return v;
}

/* The driver's MPS_ENABLED: contexts on the GPU are MPS clients (false where it cannot say). */
static bool cuda_mps(const struct gdr_mem *m)
{
	const struct cuda_priv *p = m->priv;
	int v = 0;

	return p->cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MPS_ENABLED, p->dev) ==
		   CUDA_SUCCESS &&
	       v == 1;
}

static const struct gdr_mem_ops cuda_ops =
    GDR_MEM_OPS(cuda, "cuda", cuda_flush_nic_writes, .device = true, .bar_map = true,
		.numa = cuda_numa, .mps = cuda_mps);

const char *gdr_mem_cuda_loaded(void)
{
	return gdr_cuda_loaded();
}

int gdr_mem_cuda_count(char *why, size_t n)
{
	const struct gdr_cuda_api *cu;
	int count = 0;
	CUresult r;

	if (gdr_cuda_load(&cu, why, n))
		return -1;
	r = cu->cuDeviceGetCount(&count);
	if (r != CUDA_SUCCESS) {
		snprintf(why, n, "cuDeviceGetCount: %s", gdr_cuda_strerror(r));
		return -1;
	}
	if (count < 1) {
		snprintf(why, n, "no CUDA device on this host");
		return -1;
	}
	return count;
}

int gdr_mem_cuda_bdf(int index, char *out, size_t n, char *why, size_t wn)
{
	const struct gdr_cuda_api *cu;
	int count = gdr_mem_cuda_count(why, wn);
	char raw[32];
	CUdevice dev;

	if (count < 1)
		return -1;
	if (gdr_cuda_load(&cu, why, wn))
		return -1;
	if (index < 0) /* the local rank's GPU: local rank modulo the count */
		index = (-index - 1) % count;
	if (index >= count) {
		snprintf(why, wn, "no CUDA device %d (the host has %d)", index, count);
		return -1;
	}
	if (cu->cuDeviceGet(&dev, index) != CUDA_SUCCESS ||
	    cu->cuDeviceGetPCIBusId(raw, sizeof(raw), dev) != CUDA_SUCCESS ||
	    gdr_pci_normalize(raw, out, n)) {
		snprintf(why, wn, "no PCI address for CUDA device %d", index);
		return -1;
	}
	return 0;
}

int gdr_mem_cuda_batch_ok(struct gdr_mem *m, char *why, size_t n)
{
	if (m->ops != &cuda_ops) {
		snprintf(why, n, "the test memory is %s memory, not CUDA GPU memory", m->ops->kind);
		return -1;
	}
	return gdr_cuda_batch_ok(P(m)->cu, why, n);
}

int gdr_mem_cuda_use(struct gdr_mem *m, const struct gdr_cuda_api **api, CUcontext *ctx,
		     char *why, size_t n)
{
	struct cuda_priv *p = m->ops == &cuda_ops ? P(m) : NULL;
	CUresult r;

	if (!p) {
		snprintf(why, n, "the test memory is %s memory, not CUDA GPU memory", m->ops->kind);
		return -1;
	}
	r = p->cu->cuCtxSetCurrent(p->ctx);
	if (r != CUDA_SUCCESS) {
		snprintf(why, n, "cuCtxSetCurrent: %s", gdr_cuda_strerror(r));
		return -1;
	}
	*api = p->cu;
	*ctx = p->ctx;
	return 0;
}

/*
 * --use_cuda=auto --pairing=FILE: the GPU the measured pairing gives rdma_dev's port (0:
 * the first line naming rdma_dev), or -1 when
 * the file does not say (the reason printed; the pairing rule picks instead).
 */
static int pick_file(const char *file, char bdfs[][32], int count, const char *rdma_dev, int port)
{
	struct gdr_pairing_row row;
	char why[300], bdf[32];

	if (!rdma_dev) {
		gdr_warn("--pairing=%s: no RDMA device to look up; the pairing rule picks", file);
		return -1;
	}
	if (gdr_pairing_find(file, rdma_dev, port, &row, why, sizeof(why)) != 1) {
		gdr_warn("--pairing=%s; the pairing rule picks", why);
		return -1;
	}
	if (gdr_pci_normalize(row.gpu, bdf, sizeof(bdf)))
		bdf[0] = '\0';
	for (int i = 0; i < count; i++)
		if (bdf[0] && !strcmp(bdfs[i], bdf)) {
			gdr_info("--use_cuda=auto: GPU %d (%s) for %s (measured pairing in %s: "
				 "%.2f GB/s direct)",
				 i, bdf, rdma_dev, file, row.gbps);
			return i;
		}
	gdr_warn("--pairing=%s: GPU %s (paired with %s) is not a CUDA device here; the pairing "
		 "rule picks",
		 file, row.gpu, rdma_dev);
	return -1;
}

/* --use_cuda=auto (gpu_pick.h); prints the choice and the rule that made it. */
static int pick_auto(const struct gdr_cuda_api *cu, int count, const char *rdma_dev,
		     const char *pairing, int port)
{
	char bdfs[64][32], raw[32];
	const char *list[64];
	int i, best;
	CUdevice d;

	if (count > 64)
		count = 64;
	for (i = 0; i < count; i++) {
		list[i] = bdfs[i];
		if (cu->cuDeviceGet(&d, i) != CUDA_SUCCESS ||
		    cu->cuDeviceGetPCIBusId(raw, sizeof(raw), d) != CUDA_SUCCESS ||
		    gdr_pci_normalize(raw, bdfs[i], sizeof(bdfs[i])))
			bdfs[i][0] = 0;
	}
	if (pairing && (best = pick_file(pairing, bdfs, count, rdma_dev, port)) >= 0)
		return best;
	return gdr_pick_gpu_said("--use_cuda", list, count, rdma_dev);
}

static void list_gpus(const struct gdr_cuda_api *cu, int count, char *out, size_t n)
{
	size_t used = 0;
	int i;

	out[0] = 0;
	for (i = 0; i < count && used < n; i++) {
		char raw[32] = "?";
		CUdevice d;

		if (cu->cuDeviceGet(&d, i) == CUDA_SUCCESS)
			cu->cuDeviceGetPCIBusId(raw, sizeof(raw), d);
		used += snprintf(out + used, n - used, "%s%d=%s", i ? ", " : "", i, raw);
	}
}

/*
 * The device does not order GPUDirect RDMA writes for its own reads: can it
 * flush them (FLUSH_WRITES_OPTIONS has the HOST bit, and the driver has the
 * call)? NULL if so, else why not.
 */
static const char *no_flush(const struct gdr_cuda_api *cu, CUdevice dev)
{
	int opts = 0;

	if (!cu->cuFlushGPUDirectRDMAWrites)
		return "the driver has no cuFlushGPUDirectRDMAWrites";
	if (cu->cuDeviceGetAttribute(&opts, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS,
				     dev) != CUDA_SUCCESS ||
	    !(opts & CU_FLUSH_GPU_DIRECT_RDMA_WRITES_OPTION_HOST))
		return "GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS has no HOST bit";
	return NULL;
}

int gdr_mem_cuda_init(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev)
{
	const struct gdr_cuda_api *cu;
	struct cuda_priv *p;
	char why[256], list[256], bdf[32], raw[32];
	int count = 0, idx = -1, attr = 0;
	CUdevice dev;
	CUresult r;

	__atomic_store_n(&reported, 0, __ATOMIC_RELAXED); /* a new run: its first error is said */
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		gdr_err("%s: %s", cfg->gpu_bus_id ? "--use_cuda_bus_id" : "--use_cuda", why);
		return -1;
	}
	if (check(cu->cuDeviceGetCount(&count), "cuDeviceGetCount"))
		return -1;
	if (count < 1) {
		gdr_err("--use_cuda: no CUDA device on this host");
		return -1;
	}
	if (cfg->gpu_bus_id) {
		if (gdr_pci_normalize(cfg->gpu_bus_id, bdf, sizeof(bdf))) {
			gdr_err(
			    "--use_cuda_bus_id=%s: not a PCI address (expected e.g. 0000:19:00.0)",
			    cfg->gpu_bus_id);
			return -1;
		}
		r = cu->cuDeviceGetByPCIBusId(&dev, bdf);
		if (r != CUDA_SUCCESS) {
			list_gpus(cu, count, list, sizeof(list));
			gdr_err("--use_cuda_bus_id=%s: no CUDA device at that address (GPUs: %s)",
				cfg->gpu_bus_id, list);
			return -1;
		}
		for (idx = 0; idx < count; idx++) {
			CUdevice d;

			if (cu->cuDeviceGet(&d, idx) == CUDA_SUCCESS && d == dev)
				break;
		}
		if (idx == count)
			idx = (int)dev;
	} else {
		idx = cfg->gpu >= 0 ? cfg->gpu
				    : pick_auto(cu, count, rdma_dev, cfg->pairing, cfg->port);
		if (idx >= count) {
			gdr_err("--use_cuda=%d: this host has %d GPU%s (valid: 0..%d)", idx, count,
				count == 1 ? "" : "s", count - 1);
			return -1;
		}
		if (check(cu->cuDeviceGet(&dev, idx), "cuDeviceGet"))
			return -1;
	}

	p = calloc(1, sizeof(*p));
	if (!p) {
		gdr_err("out of memory");
		return -1;
	}
	p->cu = cu;
	p->dev = dev;
	p->index = idx;
	p->dmabuf_fd = -1;
	p->want = cfg->reg;
	/* perftest: --use_data_direct sets use_cuda_pcie_mapping (the engine reads PCIe) */
	p->pcie_mapping = cfg->pcie_mapping || cfg->data_direct;
	p->data_direct = cfg->data_direct;
	if (p->pcie_mapping || p->data_direct)
		p->want = GDR_MEM_REG_DMABUF; /* a dma-buf export: no fallback to nvidia-peermem */
	r = cu->cuDevicePrimaryCtxRetain(&p->ctx, dev);
	if (r != CUDA_SUCCESS) {
		gdr_err("cannot create a context on GPU %d: %s%s", idx, gdr_cuda_strerror(r),
			r == CUDA_ERROR_INVALID_DEVICE || r == CUDA_ERROR_OPERATING_SYSTEM
			    ? ""
			    : " (is the GPU in exclusive-process mode and busy?)");
		free(p);
		return -1;
	}
	if (cur(p)) {
		cu->cuDevicePrimaryCtxRelease(dev);
		free(p);
		return -1;
	}
	if (cu->cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev) ==
	    CUDA_SUCCESS)
		p->dmabuf_ok = attr != 0;
	/* Unknown ordering counts as none: flushing is then the safe choice. */
	attr = CU_GPU_DIRECT_RDMA_WRITES_ORDERING_NONE;
	cu->cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING, dev);
	if (attr < CU_GPU_DIRECT_RDMA_WRITES_ORDERING_OWNER) {
		p->no_flush = no_flush(cu, dev);
		p->flush_writes = !p->no_flush;
	}

	m->ops = &cuda_ops;
	m->priv = p;
	m->addr = NULL;
	m->len = 0;
	m->reg_method = NULL;
	if (cu->cuDeviceGetName(m->gpu_name, sizeof(m->gpu_name), dev) != CUDA_SUCCESS)
		snprintf(m->gpu_name, sizeof(m->gpu_name), "unknown GPU");
	if (cu->cuDeviceGetPCIBusId(raw, sizeof(raw), dev) != CUDA_SUCCESS ||
	    gdr_pci_normalize(raw, m->gpu_pci, sizeof(m->gpu_pci)))
		snprintf(m->gpu_pci, sizeof(m->gpu_pci), "?");
	snprintf(m->desc, sizeof(m->desc), "GPU %d %s (%s)", idx, m->gpu_name, m->gpu_pci);
	if (cfg->gpu == GDR_MEM_GPU_AUTO && rdma_dev)
		snprintf(m->near_dev, sizeof(m->near_dev), "%s", rdma_dev);
	return 0;
}

#endif /* HAVE_CUDA */
