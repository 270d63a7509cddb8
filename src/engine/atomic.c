/* SPDX-License-Identifier: MIT */
/* Atomic tests' counters (one per QP and ring slot) and --validate: their sum against the run. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include "atomic.h"
#include "log.h"
#include "staging.h"

static size_t slots(const struct gdr_opts *o)
{
	return gdr_direct_slots(GDR_ATOMIC_BYTES, o->tx_depth, false);
}

size_t gdr_atomic_ncounters(const struct gdr_opts *o)
{
	if (o->atomic_contention || o->kind == GDR_KIND_LAT)
		return 1;
	return (size_t)(o->num_qps ? o->num_qps : 1) * slots(o);
}

uint64_t gdr_atomic_offset(const struct gdr_opts *o, uint32_t q, size_t slot)
{
	if (gdr_atomic_ncounters(o) == 1)
		return 0;
	return ((uint64_t)q * slots(o) + slot % slots(o)) * GDR_ATOMIC_STRIDE;
}

uint64_t gdr_atomic_expected(const struct gdr_opts *o, uint64_t ops, uint32_t nqp)
{
	uint64_t per_qp, n = gdr_atomic_ncounters(o);

	if (o->atomic_op != GDR_ATOMIC_CAS)
		return ops; /* each adds 1 */
	if (n == 1)
		return ops ? 1 : 0;
	nqp = nqp ? nqp : 1;
	per_qp = ops / nqp;
	return (uint64_t)nqp * (per_qp < slots(o) ? per_qp : slots(o));
}

void gdr_atomic_op(const struct gdr_opts *o, struct gdr_xop *op, uint64_t roff)
{
	bool cas = o->atomic_op == GDR_ATOMIC_CAS;

	op->kind = cas ? GDR_XOP_CSWAP : GDR_XOP_FADD;
	op->roff = roff;
	op->len = GDR_ATOMIC_BYTES;
	op->cmp = 0;
	op->add_swap = 1; /* add 1; or swap 0 for 1 */
	op->inline_ok = false;
}

int gdr_atomic_zero(struct gdr_conn *c, const struct gdr_path *p)
{
	return gdr_mem_fill_byte(gdr_test_mem(c, p), 0,
				 gdr_atomic_ncounters(c->o) * GDR_ATOMIC_STRIDE, 0);
}

int gdr_atomic_check(struct gdr_conn *c, void *arg, char *note, size_t n)
{
	const struct gdr_atomic_run *run = arg;
	struct gdr_mem *m = gdr_test_mem(c, run->p);
	size_t nc = gdr_atomic_ncounters(c->o);
	uint64_t ops = run->ops, want = gdr_atomic_expected(c->o, ops, c->nqp);
	uint64_t got = 0, *lines = malloc(nc * GDR_ATOMIC_STRIDE);

	if (!lines || m->ops->to_host(m, lines, 0, nc * GDR_ATOMIC_STRIDE)) {
		free(lines);
		snprintf(note, n, "validation failed: cannot read the atomic counters");
		return -1;
	}
	for (size_t i = 0; i < nc; i++)
		got += lines[i * (GDR_ATOMIC_STRIDE / sizeof(*lines))];
	free(lines);
	if (got == want)
		return 0;
	snprintf(note, n,
		 "validation failed: the %zu counter%s sum to %llu after %llu %s operations, "
		 "expected %llu",
		 nc, nc == 1 ? "" : "s", (unsigned long long)got, (unsigned long long)ops,
		 c->o->atomic_op == GDR_ATOMIC_CAS ? "compare-and-swap" : "fetch-and-add",
		 (unsigned long long)want);
	return -1;
}
