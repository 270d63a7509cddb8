/* SPDX-License-Identifier: MIT */
/* Atomic tests' --validate: the server's counter against the count of operations the run made. */
#include "config.h"
#include <stdio.h>
#include "atomic.h"
#include "staged.h"

uint64_t gdr_atomic_expected(int atomic_op, uint64_t ops)
{
	if (atomic_op == GDR_ATOMIC_CAS) /* the first swaps 0 for 1; the others find 1 */
		return ops ? 1 : 0;
	return ops; /* each adds 1 */
}

int gdr_atomic_zero(struct gdr_ctx *c)
{
	return gdr_mem_fill_byte(gdr_test_mem(c), 0, GDR_ATOMIC_BYTES, 0);
}

int gdr_atomic_check(struct gdr_ctx *c, void *arg, char *note, size_t n)
{
	struct gdr_mem *m = gdr_test_mem(c);
	uint64_t ops = *(const uint64_t *)arg, want = gdr_atomic_expected(c->o->atomic_op, ops);
	uint64_t got = 0;

	if (m->ops->to_host(m, &got, 0, sizeof(got))) {
		snprintf(note, n, "validation failed: cannot read the atomic counter");
		return -1;
	}
	if (got == want)
		return 0;
	snprintf(note, n,
		 "validation failed: the counter is %llu after %llu %s operations, expected %llu",
		 (unsigned long long)got, (unsigned long long)ops,
		 c->o->atomic_op == GDR_ATOMIC_CAS ? "compare-and-swap" : "fetch-and-add",
		 (unsigned long long)want);
	return -1;
}
