/* SPDX-License-Identifier: MIT */
/*
 * gdr_stage_bw --time (stagebw/stage_copy.c, stage_timed_iters): a measurement's copies
 * follow from the rate the warm-up measured, so its time is about --time whatever the
 * copy's speed (the --matrix fallback without an RDMA port took 20 minutes in a VM when
 * the copies were sized for an assumed 25 GB/s). The copies' "time" here is a model, not a
 * clock: n copies of c seconds each.
 */
#include "config.h"
#include <stdint.h>
#include "check.h"
#include "stage_copy.h"

struct model {
	double per_copy; /* seconds a copy takes */
	uint64_t copies; /* the warm-up's copies, all of its runs */
	int runs, fail_at;
};

static double measure(void *ctx, uint64_t n)
{
	struct model *m = ctx;

	if (++m->runs == m->fail_at)
		return -1;
	m->copies += n;
	return m->per_copy * (double)n;
}

/* The copies for secs at per_copy, and the warm-up's own time into *warm. */
static uint64_t timed(double secs, double per_copy, double *warm)
{
	struct model m = {.per_copy = per_copy};
	uint64_t n = stage_timed_iters(secs, measure, &m);

	*warm = (double)m.copies * per_copy;
	return n;
}

int main(void)
{
	double warm;
	uint64_t n;

	/* 1 ms a copy (1 GB/s at 1 MiB): 1 s is 1000 copies; the warm-up under 0.3 s */
	n = timed(1, 0.001, &warm);
	CHECK(n == 1000 && warm < 0.3, "%llu copies, warm-up %g s", (unsigned long long)n, warm);
	/* 1000x slower (an emulated copy): 1 copy, not 40 of an assumed rate */
	n = timed(1, 1, &warm);
	CHECK(n == 1 && warm == 2, "%llu copies, warm-up %g s", (unsigned long long)n, warm);
	/* 2 us a copy: 0.5 s is 250000 copies */
	n = timed(0.5, 2e-6, &warm);
	CHECK(n >= 249999 && n <= 250001 && warm < 0.15, "%llu copies, warm-up %g s",
	      (unsigned long long)n, warm);
	/* a copy that takes no time: the most, not a division by zero */
	n = timed(1, 0, &warm);
	CHECK(n == 100000000, "%llu", (unsigned long long)n);
	/* a failed run: 0 */
	{
		struct model m = {.per_copy = 0.001, .fail_at = 3};

		CHECK(stage_timed_iters(1, measure, &m) == 0);
	}
	return CHECK_DONE();
}
