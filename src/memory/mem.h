/* SPDX-License-Identifier: MIT */
/*
 * Memory backends: host and CUDA memory behind one small interface, so the
 * tests never branch on where memory lives: what the layers above ask of
 * memory, a backend's ops answer (device, bar_map), never its name.
 */
#ifndef GDR_MEM_H
#define GDR_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xmem.h"

struct gdr_mem;

/* What memory to set up (the caller's options, in memory's terms). */
#define GDR_MEM_GPU_NONE (-1) /* host memory */
#define GDR_MEM_GPU_AUTO (-2) /* the GPU nearest the RDMA device */
enum gdr_mem_reg { GDR_MEM_REG_AUTO = 0, GDR_MEM_REG_DMABUF = 1, GDR_MEM_REG_PEERMEM = 2 };
/* The GPU runtime whose memory a GPU index or bus id names (CUDA and ROCm are peers). */
enum gdr_mem_api { GDR_MEM_API_CUDA = 0, GDR_MEM_API_ROCM = 1, GDR_MEM_NAPIS };
struct gdr_mem_cfg {
	enum gdr_mem_api api;	/* which runtime's GPU (--use_cuda or --use_rocm) */
	int gpu;                /* GPU index, GDR_MEM_GPU_NONE or GDR_MEM_GPU_AUTO */
	const char *gpu_bus_id; /* the GPU at this PCI address instead; or NULL */
	enum gdr_mem_reg reg;   /* how GPU memory is registered */
	bool pcie_mapping;      /* dma-buf mapped through BAR1 */
	bool data_direct;       /* mlx5dv data-direct dma-buf registration */
	bool hugepages;         /* host memory on 2 MiB hugepages */
	const char *pairing;    /* GDR_MEM_GPU_AUTO: the pairing file to take it from (pairing.h) */
	int port;               /* the RDMA device's port (-i) the pairing row names; 0 any */
};

enum gdr_copy_dir { GDR_TO_HOST = 0, GDR_FROM_HOST = 1 };

struct gdr_mem_ops {
	const char *kind; /* "host", "cuda": its name in headers and in QPINFO, never a test */
	/*
	 * On a device (a GPU): no NUMA node and no inline data from it, the NIC
	 * reaches it peer to peer, staging copies it with the device's engine
	 * (ce), --compare measures host memory first as the wire's reference.
	 */
	bool device;
	bool bar_map; /* gdrcopy can map it through BAR1 (CUDA device memory) */
	/* Allocate len bytes; m->addr is the address the NIC uses. */
	int (*alloc)(struct gdr_mem *m, size_t len);
	void (*free)(struct gdr_mem *m);
	/*
	 * Export [addr, addr+len) for a transport to register (xmem.h): the
	 * address, its kind and GPU, how the configuration asks it registered,
	 * and the dma-buf (fd, offset) where it asks for one; an export that
	 * failed leaves dmabuf_fd -1 and says why in no_dmabuf. 0, or -1 with
	 * one line printed (memory not set up).
	 */
	int (*export)(struct gdr_mem *m, struct gdr_xmem *x);
	/* Synchronous copies between this memory (at offset off) and host memory. */
	int (*to_host)(struct gdr_mem *m, void *dst, size_t off, size_t len);
	int (*from_host)(struct gdr_mem *m, size_t off, const void *src, size_t len);
	/*
	 * Asynchronous copy on stream s (0 <= s < GDR_MEM_STREAMS), for the
	 * staging pipeline; host is pinned host memory. gdr_mem_sync waits for
	 * stream s; poll returns 1 when stream s is idle, 0 if busy, -1 error.
	 * Host memory implements these with memcpy (always complete).
	 */
	int (*copy_async)(struct gdr_mem *m, enum gdr_copy_dir dir, size_t off, void *host,
			  size_t len, int s);
	int (*sync)(struct gdr_mem *m, int s);
	int (*poll)(struct gdr_mem *m, int s);
	/*
	 * Make the NIC's writes into this memory visible to to_host (GPU:
	 * flush GPUDirect RDMA writes); NULL when nothing is needed.
	 */
	int (*flush_nic_writes)(struct gdr_mem *m);
	/* Pinned host memory suitable as bounce buffer for this backend. */
	void *(*host_alloc)(struct gdr_mem *m, size_t len);
	void (*host_free)(struct gdr_mem *m, void *p, size_t len);
	/* Optional: the GPU's NUMA node as its runtime knows it, -1 unknown (NULL: sysfs). */
	int (*numa)(const struct gdr_mem *m);
	/* Optional: true when this process's context on the GPU is an MPS client (NULL: no). */
	bool (*mps)(const struct gdr_mem *m);
};

#define GDR_MEM_STREAMS 8

/*
 * A backend's ops table from its functions <prefix>_alloc, <prefix>_free, ...
 * and its answers (.device = ..., .bar_map = ...).
 */
#define GDR_MEM_OPS(prefix, name, flush, ...)                                                      \
	{                                                                                          \
		.kind = name, .alloc = prefix##_alloc, .free = prefix##_free,                      \
		.export = prefix##_export, .to_host = prefix##_to_host,                            \
		.from_host = prefix##_from_host,                                                   \
		.copy_async = prefix##_copy_async, .sync = prefix##_sync, .poll = prefix##_poll,   \
		.flush_nic_writes = flush, .host_alloc = prefix##_host_alloc,                      \
		.host_free = prefix##_host_free, __VA_ARGS__                                       \
	}

struct gdr_mem {
	const struct gdr_mem_ops *ops;
	void *addr;             /* NIC-visible address (host VA or CUDA device pointer) */
	size_t len;
	bool hugepages;         /* host: use MAP_HUGETLB */
	const char *reg_method; /* "host", "dma-buf", "peermem", ... once the transport registered it */
	char desc[160];         /* "host memory" / "GPU 0 NVIDIA H100 80GB HBM3 (0000:19:00.0)" */
	char gpu_name[96];      /* empty for host */
	char gpu_pci[32];       /* empty for host */
	char near_dev[64];      /* --use_cuda=auto: the RDMA device the GPU was picked near */
	char fail[112];         /* why memory could not be read back (flush_nic_writes failed) */
	void *priv;             /* backend state; bounce buffers: the data backend */
	struct gdr_mem_cfg cfg; /* what gdr_mem_init was asked for (to pick again near another device) */
};

/* Is m's memory on a device (set up, and its backend says so)? */
static inline bool gdr_mem_on_device(const struct gdr_mem *m)
{
	return m->ops && m->ops->device;
}

/* Does m's GPU run this process's kernels under MPS (beside other processes', not in turns)? */
static inline bool gdr_mem_mps(const struct gdr_mem *m)
{
	return gdr_mem_on_device(m) && m->ops->mps && m->ops->mps(m);
}

/*
 * Set up m for the memory cfg asks for: host, or a GPU of cfg->api (CUDA, ROCm)
 * by index, bus id or auto (the GPU nearest rdma_dev).
 */
int gdr_mem_init(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev);
/* The GPUs the runtime api sees (>= 1), or -1 with one line in why (nothing printed). */
int gdr_mem_gpu_count(enum gdr_mem_api api, char *why, size_t n);
/* The option that names api's GPUs, for messages: "--use_cuda", "--use_rocm". */
const char *gdr_mem_api_option(enum gdr_mem_api api);
/* Its short name in labels ("cuda:0", "rocm:auto"): "cuda", "rocm". */
const char *gdr_mem_api_name(enum gdr_mem_api api);
/*
 * The PCI address ("dddd:bb:dd.f") of api's GPU index (index < 0: local rank
 * -index-1 modulo the GPU count), without setting it up. 0, or -1 with why.
 */
int gdr_mem_gpu_bdf(enum gdr_mem_api api, int index, char *out, size_t n, char *why, size_t wn);
/*
 * The path of a GPU runtime this process loaded (and so initialised, or asked to), else NULL.
 * A child forked from such a process without exec cannot use the GPU (CUDA answers every
 * call CUDA_ERROR_NOT_INITIALIZED there): the launchers check it before they fork.
 */
const char *gdr_mem_runtime_loaded(void);
/* The NUMA node of m's GPU: the runtime's answer, else sysfs; -1 unknown or host memory. */
int gdr_mem_gpu_numa(const struct gdr_mem *m);
void gdr_mem_fini(struct gdr_mem *m);
/* Pinned host bounce buffers of len bytes for the data backend (staged path). */
int gdr_mem_bounce_init(struct gdr_mem *b, struct gdr_mem *data, size_t len);

extern const struct gdr_mem_ops gdr_mem_host_ops;
#ifdef HAVE_CUDA
/* CUDA backend: selects a GPU per cfg (index, bus id, auto near rdma_dev). */
int gdr_mem_cuda_init(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev);
/* CUDA's GPU count and a GPU's PCI address, for gdr_mem_gpu_count and gdr_mem_gpu_bdf. */
int gdr_mem_cuda_count(char *why, size_t n);
int gdr_mem_cuda_bdf(int index, char *out, size_t n, char *why, size_t wn);
const char *gdr_mem_cuda_loaded(void);
#endif

/* The validation pattern: byte at offset off for a given seed. */
static inline uint8_t gdr_pattern_byte(size_t off, uint32_t seed)
{
	uint64_t x = (uint64_t)off * 0x9E3779B97F4A7C15ULL + seed * 0xBF58476D1CE4E5B9ULL;

	return (uint8_t)(x >> 56);
}

/* Fill [off, off+len) with the pattern / with a constant byte (through to/from_host). */
int gdr_mem_fill_pattern(struct gdr_mem *m, size_t off, size_t len, uint32_t seed);
int gdr_mem_fill_byte(struct gdr_mem *m, size_t off, size_t len, uint8_t byte);
/*
 * Check that [off, off+len) holds the pattern of source offsets
 * [src_off, src_off+len). Returns 0; -1 and *bad = first bad offset; or -2
 * when the memory could not be read back (flush or copy failed, printed).
 */
int gdr_mem_check_pattern(struct gdr_mem *m, size_t off, size_t src_off, size_t len,
			  uint32_t seed, size_t *bad);

/* What every export says: m's address, length and description, kind, GPU index, no dma-buf. */
void gdr_mem_export_base(const struct gdr_mem *m, struct gdr_xmem *x, enum gdr_xmem_kind kind,
			 int device, unsigned int flags);

#endif
