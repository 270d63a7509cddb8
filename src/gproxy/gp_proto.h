/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy path's queues: one layout shared by the kernel (gp_kernel.cu),
 * the host proxy (gproxy.c) and the CUDA driver double that plays the kernel
 * in tests. It lives in mapped pinned host memory; the kernel gets its device
 * address. This is the pattern of NCCL GIN's proxy backend and UCCL's proxy:
 * the GPU says what to send, a CPU thread posts it.
 *
 * One queue per kernel producer (block q, thread 0) and per proxy thread.
 * The kernel numbers its descriptors 1, 2, ... n; descriptor i goes to
 * desc[i % GDR_GP_RING] as two 8-byte words, in one 16-byte store (one PCIe
 * write), but the PTX memory model makes a vector store a set of scalar
 * stores in no given order (NCCL GIN's proxy marks every 8-byte word for
 * this), so each word carries its own check: word 1 is seq = i, word 0 holds
 * i's low 16 bits (chk) beside idx and len. The proxy takes a slot when its
 * seq is the number it expects next and word 0, read after it, holds the same
 * chk (else it reads again: word 0 is on its way). Word 0 left from the
 * slot's previous lap (descriptor i - GDR_GP_RING) never matches. In rate
 * mode the kernel fences before each batch of descriptors (fence.acq_rel.sys:
 * a release of the messages' data, which the NIC reads once the proxy
 * posts); in latency mode after its one descriptor
 * (gp_kernel.cu says why). The proxy completes descriptors in order and writes
 * their count to done (a release); the kernel polls done (ld.acquire.sys: one
 * PCIe read per poll) to keep at most `window` descriptors outstanding and,
 * in latency mode, to time each one. Every wait of the kernel is bounded by
 * its timeout argument and ends early when the host writes stop; it says how
 * it ended in status. The host's waits are bounded in gproxy.c.
 */
#ifndef GDR_GP_PROTO_H
#define GDR_GP_PROTO_H

#include <stdint.h>

#define GDR_GP_KERNEL "gdr_gp_kernel" /* extern "C" entry point of gp_kernel.cu */
/*
 * The committed PTX's ISA and target (scripts/gpu/sm-ptx.sh gp writes and
 * checks them, as for the sm copier): ld.acquire, fence.acq_rel and
 * %globaltimer need PTX 6.0 and sm_70.
 */
#define GDR_GP_PTX_ISA	  "6.0"
#define GDR_GP_PTX_TARGET "sm_70"
#define GDR_GP_PTX_DRIVER "R384 (CUDA 9.0)"
#define GDR_GP_MAX_Q	  8	/* kernel producers and proxy threads */
#define GDR_GP_RING	  1024	/* descriptors per queue (a power of two) */
#define GDR_GP_MAX_SLOTS  65535 /* message slots: idx is 16 bits */

/* The kernel's modes (its mode argument). */
#define GDR_GP_LAT  0 /* one descriptor at a time, each timed into samples[] */
#define GDR_GP_RATE 1 /* up to window outstanding, one fence per batch */
/*
 * Kernel-to-kernel ping-pong (latency of write and send): message i is the
 * peer's seq byte GDR_GP_MARK(i) arriving in the last byte of the receive
 * slot (rx, GPU memory the NIC writes); the reply writes the same byte into
 * the last byte of the send slot (tx), fences (fence.acq_rel.sys: the NIC
 * reads it once the proxy posts) and stores descriptor i. The side with first
 * set sends before it waits and times each round trip into samples[]; the
 * other waits, then replies. At most window descriptors not completed.
 */
#define GDR_GP_PING 2
/* The marker of message i (1..n): 1..254, as lat.c's seq(i - 1): never 0 (cleared) nor 255. */
#define GDR_GP_MARK(i) ((uint8_t)(((i)-1) % 254 + 1))

/* How the kernel ended (status). */
#define GDR_GP_RUNNING 0
#define GDR_GP_DONE    1 /* every descriptor completed */
#define GDR_GP_TIMEOUT 2 /* a wait for done passed the timeout: the proxy stopped */
#define GDR_GP_STOPPED 3 /* the host wrote stop */
#define GDR_GP_NOPEER  4 /* ping: a wait for the peer's message passed the timeout */

struct gdr_gp_desc {  /* two 8-byte words, each arriving whole, in either order */
	uint16_t idx; /* word 0: the message: its slot in the test memory (the prebuilt WR) */
	uint16_t chk; /* word 0: seq's low 16 bits, word 0's own check */
	uint32_t len; /* word 0: bytes */
	uint32_t op;  /* word 1: reserved: 0 */
	uint32_t seq; /* word 1: the descriptor's number */
};
/* The two words of descriptor seq (little-endian, as the GPU and the hosts it runs on). */
#define GDR_GP_CHK(seq) ((uint16_t)((seq)&0xffff))
#define GDR_GP_WORD0(idx, seq, len)                                                                \
	((uint64_t)(uint16_t)(idx) | (uint64_t)GDR_GP_CHK(seq) << 16 |                             \
	 (uint64_t)(uint32_t)(len) << 32)
#define GDR_GP_WORD1(seq) ((uint64_t)(uint32_t)(seq) << 32)

struct gdr_gp_queue {
	struct gdr_gp_desc desc[GDR_GP_RING]; /* kernel -> proxy */
	uint64_t done;			      /* proxy -> kernel: descriptors completed */
	uint64_t pad0[7];
	uint64_t stop; /* host -> kernel: end now */
	uint64_t pad1[7];
	uint64_t ready;	 /* kernel: started */
	uint64_t status; /* kernel: GDR_GP_* how it ended */
	uint64_t t0, t1; /* kernel: globaltimer before the first descriptor, after the last */
	uint64_t at;	 /* kernel: the descriptor it waited for when it ended early */
	uint64_t rx, tx; /* host -> kernel, ping: device addresses of the slots' last bytes */
	uint64_t first;	 /* host -> kernel, ping: 1 sends first (and times), 0 answers */
};

#endif
