/* SPDX-License-Identifier: MIT */
/*
 * Atomic tests' counters and --validate. Each QP's ring slot has its own
 * 8-byte counter, one per 64-byte line of the server's tx region, so no two
 * operations in flight share an address (a NIC serializes those, and in GPU
 * memory each one is a PCIe round trip): the rate measured is the NIC's.
 * --atomic_contention puts every operation on the one counter at offset 0,
 * the case of a contended lock or sequence number. --validate sums them.
 */
#ifndef GDR_ATOMIC_H
#define GDR_ATOMIC_H

#include <stddef.h>
#include <stdint.h>
#include "conn.h"

#define GDR_ATOMIC_STRIDE 64 /* bytes between counters: a cache line */

/* How many counters the test uses: QPs x ring slots, or 1 (contention, latency) (pure). */
size_t gdr_atomic_ncounters(const struct gdr_opts *o);
/* Byte offset in the peer's tx region of QP q's slot's counter (pure). */
uint64_t gdr_atomic_offset(const struct gdr_opts *o, uint32_t q, size_t slot);
/*
 * The counters' sum after ops operations of -A's kind from 0, spread over
 * nqp QPs evenly, each QP walking its slots in order (pure). Fetch-and-add:
 * ops. Compare-and-swap: the first operation on a counter swaps 0 for 1, the
 * others find 1, so the number of counters touched.
 */
uint64_t gdr_atomic_expected(const struct gdr_opts *o, uint64_t ops, uint32_t nqp);
/*
 * -A's operation (xport.h) on the 8-byte counter at roff of the peer's
 * region: fetch-and-add of 1, or compare-and-swap of 0 for 1; the old value
 * lands at the op's loff.
 */
void gdr_atomic_op(const struct gdr_opts *o, struct gdr_xop *op, uint64_t roff);
/* Server, before the run: every counter on path p to 0. 0 or -1. */
int gdr_atomic_zero(struct gdr_conn *c, const struct gdr_path *p);
/* What gdr_atomic_check is given: the path measured and the run's operations. */
struct gdr_atomic_run {
	const struct gdr_path *p;
	uint64_t ops;
};
/*
 * A gdr_check_fn for the server: arg points to a struct gdr_atomic_run; the
 * counters' sum must equal gdr_atomic_expected of its ops.
 */
int gdr_atomic_check(struct gdr_conn *c, void *arg, char *note, size_t n);

#endif
