/* SPDX-License-Identifier: MIT */
/*
 * The sm copier's doorbell page: one layout shared by the kernel
 * (sm_copy.cu), the host side (copier_sm.c) and the CUDA driver double that
 * plays the kernel in tests. It lives in mapped pinned host memory; the
 * kernel gets its device address.
 *
 * A slot describes one copy; there is one slot per lane per direction. The
 * kernel has bps blocks per slot ("parts"), block b serving slot b / bps as
 * part b % bps. The host fills dev, host, len, dir, then writes seq (one
 * greater than the slot's previous) last. Part 0 alone polls seq over PCIe;
 * when it changes it fences, reads the slot and copies it to device memory
 * (the kernel's relay[slot], seq last), where the other parts poll. Each part
 * copies its share (units of 16 bytes where both sides allow, bytes at
 * the edges, strided over the parts) and releases seq to its ack at system
 * scope. The copy is complete when every part's ack equals seq. A copy
 * shorter than GDR_SM_SPLIT is part 0's alone: it copies it whole and does
 * not relay it, and only ack[slot][0] counts. seq =
 * GDR_SM_STOP in a slot ends its blocks. Each block writes ready[b] = 1 when
 * it starts.
 */
#ifndef GDR_SM_PROTO_H
#define GDR_SM_PROTO_H

#include <stdint.h>

#define GDR_SM_KERNEL	 "gdr_sm_copy" /* extern "C" entry point of sm_copy.cu */
#define GDR_SM_MAX_SLOTS 8	       /* lanes x 2 directions (GDR_COPIER_LANES is 4) */
#define GDR_SM_MAX_PARTS 8	       /* blocks per slot */
#define GDR_SM_THREADS	 256	       /* threads per block */
#define GDR_SM_STOP	 UINT64_MAX    /* seq that ends the slot's blocks */
#define GDR_SM_SPLIT	 65536	       /* copies this long or longer use every part */

struct gdr_sm_slot {   /* written by the host; one 64-byte line */
	uint64_t dev;  /* device address of the test memory */
	uint64_t host; /* device-visible address of the host memory */
	uint64_t len;  /* bytes */
	uint32_t dir;  /* 0: device to host, 1: host to device (enum gdr_copy_dir) */
	uint32_t pad0;
	uint64_t seq; /* the doorbell: written last (the fields above: two 16-byte loads) */
	uint64_t pad1[3];
};

struct gdr_sm_bell {
	uint64_t ready[GDR_SM_MAX_SLOTS * GDR_SM_MAX_PARTS]; /* kernel: block started */
	struct gdr_sm_slot slot[GDR_SM_MAX_SLOTS];
	uint64_t ack[GDR_SM_MAX_SLOTS][GDR_SM_MAX_PARTS]; /* kernel: seq done, per part */
};

#endif
