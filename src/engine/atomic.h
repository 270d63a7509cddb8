/* SPDX-License-Identifier: MIT */
/* Atomic tests' --validate: the server's counter against the count of operations the run made. */
#ifndef GDR_ATOMIC_H
#define GDR_ATOMIC_H

#include <stdint.h>
#include "ctx.h"

/* The counter's final value after ops operations of -A's kind from 0 (pure). */
uint64_t gdr_atomic_expected(int atomic_op, uint64_t ops);
/* Server, before the run: the counter (first 8 bytes of the tx region) to 0. 0 or -1. */
int gdr_atomic_zero(struct gdr_ctx *c);
/*
 * A gdr_check_fn for the server: arg points to the uint64_t count of
 * operations; the counter must equal gdr_atomic_expected of it.
 */
int gdr_atomic_check(struct gdr_ctx *c, void *arg, char *note, size_t n);

#endif
