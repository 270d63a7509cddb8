/* SPDX-License-Identifier: MIT */
/*
 * Memory as memory exports it (mem.h's export op), for a transport to register
 * (xport.h's reg): the address and its kind, and a dma-buf fd and offset where
 * the configuration asks for dma-buf. Memory knows nothing of the NIC; the
 * transport decides how to register and says why it could not.
 */
#ifndef GDR_XMEM_H
#define GDR_XMEM_H

#include <stddef.h>
#include <stdint.h>

enum gdr_xmem_kind { GDR_XMEM_HOST = 0, GDR_XMEM_CUDA = 1, GDR_XMEM_ROCM = 2 };

/*
 * How the memory asks to be registered (flags). Neither BY_ flag: by its dma-buf
 * where it has one, else (or when that fails) by address.
 */
#define GDR_XMEM_BY_DMABUF   (1u << 0) /* its dma-buf alone (--use_cuda_dmabuf, ...) */
#define GDR_XMEM_BY_ADDR     (1u << 1) /* its address alone (host; --use_cuda_peermem) */
#define GDR_XMEM_PCIE	     (1u << 2) /* the dma-buf is mapped through PCIe BAR1 */
#define GDR_XMEM_DATA_DIRECT (1u << 3) /* register through the NIC's data-direct device */

struct gdr_xmem {
	void *addr; /* the address the NIC uses (host VA or device pointer) */
	size_t len;
	enum gdr_xmem_kind kind;
	int device;	     /* the GPU's index in its runtime (kind != HOST) */
	int dmabuf_fd;	     /* >= 0: the memory's dma-buf (its owner closes it), else -1 */
	uint64_t dmabuf_off; /* addr's offset in that dma-buf */
	unsigned int flags;  /* GDR_XMEM_* */
	const char *desc;    /* for messages: "host memory", "GPU 0 NVIDIA H100 (0000:19:00.0)" */
	/* dmabuf_fd < 0 although dma-buf was asked for: why there is none (else "") */
	char no_dmabuf[320];
};

#endif
