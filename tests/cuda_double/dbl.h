/* SPDX-License-Identifier: MIT */
/*
 * The CUDA driver double (a test tool, never installed): shared state of its
 * files. Device memory is host memory of its own memfd mappings; stream work
 * runs on one worker thread per stream. Environment (read once, at cuInit):
 *   GDR_DOUBLE_DEVICES   number of devices (default 2, at most DBL_MAX_DEV)
 *   GDR_DOUBLE_FIXTURE   file of "BUS-ID NUMA-NODE [NVLINK-GROUP]" lines, one per
 *                        device (devices of one group are NVLink peers)
 *   GDR_DOUBLE_DELAY_US  delay before each stream operation runs (default 200)
 *   GDR_DOUBLE_FAIL      alloc | alloc:N | copy:N | ctxlost:N | flush[:N] | launch |
 *                        stuck[:N] (comma-separated; launch: cuLaunchKernel fails; stuck: the
 *                        sm kernel acknowledges N copies, then none, and ignores stop; the
 *                        gpu-proxy kernels write N descriptors, then none, and ignore stop)
 *   GDR_DOUBLE_UNORDERED 1: stream work completes late and out of order
 *   GDR_DOUBLE_VERSION   driver version reported (default 13000); below 12080 the
 *                        driver lacks cuMemcpyBatchAsync, below 13000 it has the 12.8 form
 *   GDR_DOUBLE_ORDERING  GPU_DIRECT_RDMA_WRITES_ORDERING attribute (default 0)
 *   GDR_DOUBLE_PCIE_MAPPING 0: refuse the dma-buf PCIe (BAR1) mapping flag as a driver
 *                        without it does (default 1: accepted)
 *   GDR_DOUBLE_SLICE_US  time slice of one process's persistent kernels on a GPU while
 *                        another process's wait (default 2000; 0: no slicing, dbl_slice.c)
 *   GDR_DOUBLE_TEAR_US   a gpu-proxy descriptor's words are stored apart, seq's first, the
 *                        other when the proxy completed it or after this (default 0: at once)
 *   GDR_DOUBLE_MPS       1: as under MPS (so is CUDA_MPS_PIPE_DIRECTORY naming a folder):
 *                        processes' kernels run at once; CU_DEVICE_ATTRIBUTE_MPS_ENABLED 1
 */
#ifndef GDR_DBL_H
#define GDR_DBL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda.h>

#define DBL_EXPORT  __attribute__((visibility("default")))
#define DBL_MAX_DEV 8
#define DBL_NAME    "gdrperf CUDA double (test tool, not a GPU)"
#define DBL_WAIT_S  60 /* the longest any call of the double blocks */

/* Run-time configuration, from the environment (dbl_conf.c). */
struct dbl_conf {
	int ndev;
	char bus[DBL_MAX_DEV][16]; /* "0000:1a:00.0" */
	int numa[DBL_MAX_DEV];
	int nvlink[DBL_MAX_DEV]; /* NVLink group, -1 none: peers over PCIe only */
	unsigned delay_us;
	int unordered;
	int version;
	int ordering;
	int flush_options; /* GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS bits */
	int pcie_mapping; /* CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE accepted */
	long slice_us;	  /* time slice between processes' kernels on a GPU, 0: none */
	long tear_us;	  /* gp descriptor: the longest wait between its two words */
	int mps;	  /* as under MPS: no time slicing */
	long fail_alloc;   /* allocations that succeed before the rest fail; -1 never */
	long fail_copy;	   /* copies that succeed before one fails; -1 never */
	long fail_ctxlost; /* copies before the context is lost; -1 never */
	long fail_copies;  /* copies that succeed before every later one fails; -1 never */
	long fail_flush;   /* GPUDirect RDMA write flushes that succeed before one fails; -1 never */
	long fail_launch;  /* cuLaunchKernel fails */
	long fail_stuck;   /* copies the sm kernel acknowledges before it hangs; -1 never */
};
extern struct dbl_conf dbl_conf;
extern int dbl_inited;
/* Reads the environment; 0, or -1 after one line on stderr naming the bad value. */
int dbl_conf_load(void);

/* A primary context: one per device. */
struct dbl_ctx {
	int dev;
	int refs;
};
/* The calling thread's current context (NULL when none), and the device's. */
struct dbl_ctx *dbl_current(void);
struct dbl_ctx *dbl_primary(int dev);

/* Sticky loss of every context (GDR_DOUBLE_FAIL=ctxlost:N). */
extern volatile int dbl_lost;
#define DBL_LOST_ERR CUDA_ERROR_CONTEXT_IS_DESTROYED
#define DBL_COPY_ERR CUDA_ERROR_ECC_UNCORRECTABLE
#define DBL_FLUSH_ERR CUDA_ERROR_UNKNOWN
/* Common entry check: initialised, not lost, a current context. */
CUresult dbl_enter(struct dbl_ctx **ctx);
/* Count one copy or memset against the fault plan: 0 or the error to report. */
CUresult dbl_fault_copy(void);
/* 0 when an allocation may succeed, else the error to report. */
CUresult dbl_fault_alloc(void);
/* The next GPUDirect RDMA write flush: CUDA_SUCCESS or the injected error. */
CUresult dbl_fault_flush(void);

/* The primary context of dev was destroyed: its modules go (dbl_kernel.c). */
void dbl_modules_drop(int dev);

/* Device memory (dbl_mem.c). */
struct dbl_alloc {
	uintptr_t base;
	size_t len;
	int fd; /* memfd behind the mapping: the dma-buf stand-in */
	int dev;
};
/* The allocation holding [p, p+len), or NULL. Holds no lock on return. */
const struct dbl_alloc *dbl_find(uintptr_t p, size_t len);
/* 1 when [p, p+len) lies in pinned host memory (cuMemAllocHost, cuMemHostAlloc, registered). */
int dbl_host_pinned(uintptr_t p, size_t len);

/* Streams (dbl_stream.c): NULL means the context's default stream. */
struct dbl_stream;
enum dbl_op_kind { DBL_OP_COPY, DBL_OP_SET, DBL_OP_RECORD, DBL_OP_WAIT, DBL_OP_KERNEL };
struct dbl_op {
	enum dbl_op_kind kind;
	void *dst;
	const void *src;
	size_t len;
	unsigned char val;
	CUresult fail; /* injected: the stream's error when this op runs */
	struct dbl_event *ev;
	uint64_t gen; /* RECORD/WAIT: the event generation */
	CUresult (*kernel)(void *arg); /* KERNEL: runs on the stream's thread until it returns */
	void *arg;
	struct dbl_op *next;
};
CUresult dbl_stream_submit(CUstream s, const struct dbl_op *op);

/* Entry points, looked up by name through cuGetProcAddress (dbl_proc.c). */
struct dbl_fn {
	const char *name;
	void *fn;
	int min_ver; /* the oldest CUDA version whose ABI this entry has */
};
extern const struct dbl_fn dbl_dev_fns[], dbl_mem_fns[], dbl_stream_fns[], dbl_proc_fns[],
    dbl_kernel_fns[];
/* cuMemcpyBatchAsync's two forms (dbl_batch.c): an entry newer than the driver is unknown. */
extern const struct dbl_fn dbl_batch_fns[];

/* The gpu-proxy kernel (dbl_gp.c) on GPU dev: its state from the launch's params (NULL: invalid), its run. */
void *dbl_gp_new(void **params, unsigned int gx, int dev);
CUresult dbl_gp_run(void *k);

/*
 * Time slicing between processes (dbl_slice.c): a persistent kernel on GPU dev
 * enters before it starts (blocks until its process holds the GPU's slice),
 * ticks in its loop (gives the slice up when it is over and another process
 * waits, then waits for its turn) and leaves when it ends.
 */
bool dbl_slicing(void);
void dbl_slice_enter(int dev);
void dbl_slice_tick(int dev);
void dbl_slice_leave(int dev);

/* Monotonic clock in nanoseconds; an absolute deadline s seconds from now. */
uint64_t dbl_now_ns(void);
void dbl_deadline(struct timespec *ts, int s);

#endif
