/* SPDX-License-Identifier: MIT */
/*
 * The HIP runtime double (a test tool, never installed): a libamdhip64 whose
 * "GPUs" are host memory. Device memory is memfd mappings (the fd is the dma-buf
 * stand-in the HSA export hands out); each stream runs its work on a thread of
 * its own, after a delay, in order. Built twice from these files:
 * libamdhip64.so.6 exports hsa_amd_portable_export_dmabuf (ROCm >= 5.6) and
 * libamdhip64.so.5 does not (ROCm < 5.6), so GDR_LIBHSA picks whether the export is
 * present. Environment (read once, at the first call):
 *   GDR_HIP_DOUBLE_DEVICES   number of devices (default 2, 0..HDBL_MAX_DEV)
 *   GDR_HIP_DOUBLE_FIXTURE   file of "BUS-ID NUMA-NODE [XGMI-GROUP]" lines, one per
 *                            device (devices of one group are xGMI peers)
 *   GDR_HIP_DOUBLE_DELAY_US  delay before each stream operation runs (default 100)
 *   GDR_HIP_DOUBLE_FAIL      nodevice | alloc[:N] | copy:N | export (comma-separated):
 *                            hipGetDeviceCount answers hipErrorNoDevice; allocations
 *                            after the N-th fail; the copy after the N-th fails; the
 *                            dma-buf export fails
 * A process forked after the double initialised (its first call) gets hipErrorNotInitialized
 * from every call, as from the CUDA double after cuInit (not verified on AMD hardware here).
 */
#ifndef GDR_HDBL_H
#define GDR_HDBL_H

#include <stddef.h>
#include <stdint.h>

#define HDBL_EXPORT  __attribute__((visibility("default")))
#define HDBL_MAX_DEV 8
#define HDBL_NAME    "gdrperf HIP double (test tool, not a GPU)"

/* hipError_t values the double answers (ROCm's numbers). */
enum {
	HDBL_SUCCESS = 0,
	HDBL_INVALID_VALUE = 1,
	HDBL_OUT_OF_MEMORY = 2,
	HDBL_NOT_INITIALIZED = 3,
	HDBL_INVALID_DEVICE = 101,
	HDBL_NO_DEVICE = 100,
	HDBL_NOT_READY = 600,
	HDBL_ILLEGAL_ADDRESS = 700,
	HDBL_INVALID_HANDLE = 400,
};

struct hdbl_conf {
	int ndev;
	char bus[HDBL_MAX_DEV][16];
	int numa[HDBL_MAX_DEV];
	int xgmi[HDBL_MAX_DEV]; /* xGMI group, -1 none */
	unsigned delay_us;
	long fail_nodevice;
	long fail_alloc; /* allocations that succeed before the rest fail; -1 never */
	long fail_copy;	 /* copies that succeed before one fails; -1 never */
	long fail_export;
};
extern struct hdbl_conf hdbl_conf;
/* Load the configuration once; 0, or -1 after one line on stderr. */
int hdbl_init(void);
/*
 * Every entry point's first check: 0, hipErrorNotInitialized in a process forked after the
 * runtime initialised (the fork rule), invalid value (a bad configuration) or no device.
 */
int hdbl_enter(void);
/* The calling thread's device (hipSetDevice). */
int hdbl_device(void);
/* 0 when an allocation may succeed, else the error; the same for a copy. */
int hdbl_fault_alloc(void);
int hdbl_fault_copy(void);

/* Device memory (hdbl_mem.c): the allocation holding [p, p+len), or NULL. */
struct hdbl_alloc {
	uintptr_t base;
	size_t len;
	int fd;
	int dev;
	struct hdbl_alloc *next;
};
const struct hdbl_alloc *hdbl_find(uintptr_t p, size_t len);
/* Check one copy's pointers against its kind; 0 or the error. */
int hdbl_check_copy(void *dst, const void *src, size_t len, int kind);

#endif
