/* SPDX-License-Identifier: MIT */
/*
 * The sm copier's doorbell page: one layout shared by the kernel
 * (sm_copy.cu), the host side (copier_sm.c) and the CUDA driver double that
 * plays the kernel in tests. It lives in mapped pinned host memory; the
 * kernel gets its device address.
 *
 * A slot describes one copy; there is one slot per lane per direction. The
 * kernel has bps blocks per slot ("parts"), block b serving slot b / bps as
 * part b % bps. The host fills dev_off, host_off and len_dir, then writes
 * the doorbell seq, one greater than the slot's previous seq (mod 2^32).
 * Part 0 alone polls the slot over PCIe with one 16-byte load (acquire): a
 * copy is there when seq != the last seen, and its fields came with it (the
 * host wrote them before seq, in the same 16 bytes). One load per poll, not
 * two: a second load in flight to the line cost about 2 us a copy on the
 * H200 (2026-11-27, against ../shared/probes' minimal kernel). Addresses are
 * offsets from the test memory's and the bounce memory's device addresses,
 * kernel arguments (so each is at most 4 GiB). Part 0 copies the request to
 * device memory (the kernel's relay[slot], same layout) for the other parts,
 * which poll it there. Each part copies its share (units of 16 bytes where
 * both sides allow, bytes at the edges, strided over the parts), fences (GPU
 * scope when the data went to device memory, acquire-release system scope
 * when it went to host memory) and writes seq to its ack. The copy is
 * complete when every part's ack equals seq. A copy shorter than
 * GDR_SM_SPLIT is part 0's alone: it copies it whole and does not relay it,
 * and only ack[slot][0] counts. dir = GDR_SM_DIR_STOP with a new seq ends
 * the slot's blocks. Each block writes ready[b] = 1 when it starts.
 *
 * A block list (copier.h submit_list, a KV batch): dir = GDR_SM_DIR_LIST,
 * len the bytes of one block (blk), host_off where block 0 goes in the
 * bounce memory (block k at host_off + k x blk), and dev_off = n | d << 31:
 * n blocks (1..GDR_SM_LIST_MAX), d the direction (0: device to host, 1:
 * host to device). Block k's test-memory offset is list[slot][k], the
 * slot's block table in this page: the host writes list[slot][0..n) before
 * the slot's fields and seq (the release store that publishes them covers
 * the table as it covers the bounce data), and only when the slot's
 * previous copy is acknowledged by every part (the kernel has read the
 * table by then). The kernel reads the table after the acquire that saw
 * seq, on the same chain as the data (part 0's acquire, the relay for the
 * other parts), into shared memory. A block shorter than GDR_SM_SPLIT is
 * one part's (block k: part k mod bps), a longer one is every part's, each
 * block copied as a single copy of its length would be; a list is always
 * relayed, and every part acknowledges it.
 */
#ifndef GDR_SM_PROTO_H
#define GDR_SM_PROTO_H

#include <stdint.h>

#define GDR_SM_KERNEL	 "gdr_sm_copy" /* extern "C" entry point of sm_copy.cu */
/*
 * The committed PTX's ISA and target (scripts/gpu/sm-ptx.sh writes them and
 * checks that ptxas accepts the code under them; t_sm_ptx.sh fails when
 * sm_copy.ptx says more): the oldest the kernel needs (.relaxed, .acquire,
 * fence.acq_rel: PTX 6.0, sm_70), so every driver from that ISA's on loads it.
 */
#define GDR_SM_PTX_ISA	  "6.0"
#define GDR_SM_PTX_TARGET "sm_70"
#define GDR_SM_PTX_DRIVER "R384 (CUDA 9.0)" /* the oldest driver that loads PTX 6.0 */
#define GDR_SM_MAX_SLOTS 8	       /* lanes x 2 directions (GDR_COPIER_LANES is 4) */
#define GDR_SM_MAX_PARTS 8	       /* blocks per slot */
#define GDR_SM_THREADS	 256	       /* threads per block */
#define GDR_SM_DIR_STOP	 2	       /* dir that ends the slot's blocks */
#define GDR_SM_DIR_LIST	 3	       /* dir of a block list: the direction in dev_off */
#define GDR_SM_LIST_MAX	 1024	       /* blocks of one list (the table's entries) */
#define GDR_SM_SPLIT	 65536	       /* copies this long or longer use every part */

#define GDR_SM_LEN_MAX ((1U << 30) - 1) /* bytes of one copy: len_dir's low 30 bits */

/*
 * An idle slot's poll backs off: part 0 polls back to back until its
 * doorbell has stayed unchanged for GDR_SM_IDLE_NS since the slot's last
 * copy, then pauses between polls (spinning on the GPU's own clock, no
 * memory access), the pause doubling from GDR_SM_PAUSE_MIN_NS up to
 * GDR_SM_PAUSE_MAX_NS, and polls back to back again after the next copy
 * (the other parts' poll of the relay in device memory likewise). A
 * direction not in use then reads host memory at most once per
 * GDR_SM_PAUSE_MAX_NS instead of once per PCIe round trip, and leaves the
 * link to the direction being timed (a second block polling host memory
 * cost device-to-host copies about 0.4 us each on the H200, 2026-11-27).
 * The price: a copy that comes after an idle spell of t > GDR_SM_IDLE_NS
 * waits up to about (t - GDR_SM_IDLE_NS) / 2 longer, never more than
 * GDR_SM_PAUSE_MAX_NS; a staged ping-pong whose round trip is shorter than
 * GDR_SM_IDLE_NS (a real NIC's, copies included) never pays it.
 * (The -D overrides are for measuring variants: scripts/gpu/sm-variants.sh.)
 */
#ifndef GDR_SM_IDLE_NS
#define GDR_SM_IDLE_NS 100000
#endif
#ifndef GDR_SM_PAUSE_MIN_NS
#define GDR_SM_PAUSE_MIN_NS 256
#endif
#ifndef GDR_SM_PAUSE_MAX_NS
#define GDR_SM_PAUSE_MAX_NS 16384
#endif
#ifndef GDR_SM_SHORT_PATH
#define GDR_SM_SHORT_PATH 1 /* aligned short copies: one unit per thread, no loop (sm_copy.cu) */
#endif
#ifndef GDR_SM_POLL_RELAXED
#define GDR_SM_POLL_RELAXED 0 /* 1: the doorbell poll without acquire (a variant, measured) */
#endif
#ifndef GDR_SM_RELAY_BACKOFF
#define GDR_SM_RELAY_BACKOFF 1 /* the other parts' poll of the relay backs off the same way */
#endif

struct gdr_sm_slot {	   /* written by the host; one 64-byte line, read as its first 16 bytes */
	uint32_t dev_off;  /* bytes from the test memory's device address (kernel argument) */
	uint32_t host_off; /* bytes from the bounce memory's device address (kernel argument) */
	uint32_t len_dir; /* bytes | dir << 30; dir 0: device to host, 1: host to device, 2: stop */
	uint32_t seq;	  /* the doorbell: written last */
	uint64_t pad[6];
};

struct gdr_sm_bell {
	uint64_t ready[GDR_SM_MAX_SLOTS * GDR_SM_MAX_PARTS]; /* kernel: block started */
	struct gdr_sm_slot slot[GDR_SM_MAX_SLOTS];
	uint64_t ack[GDR_SM_MAX_SLOTS][GDR_SM_MAX_PARTS]; /* kernel: seq done, per part */
	uint32_t list[GDR_SM_MAX_SLOTS][GDR_SM_LIST_MAX]; /* host: a list's dev offsets */
};

#endif
