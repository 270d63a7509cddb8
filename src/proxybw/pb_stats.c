/* SPDX-License-Identifier: MIT */
/* gdr_proxy_bw's latency statistics (proxybw.h), shared by its latency and ping rows. */
#include "config.h"
#include <stdlib.h>
#include "log.h"
#include "proxybw.h"
#include "stats.h"

/* Median and p99 in us of samples (ns) past the first tenth (warm-up, as the anchor drops). */
int pb_lat_stats(const uint64_t *ns, size_t n, struct gdr_lat_stats *st)
{
	static const double q99 = 99.0;
	size_t skip = n / 10, k = n - skip;
	double *us = malloc(k * sizeof(double));
	int rc;

	if (!us) {
		gdr_err("out of memory for %zu samples", k);
		return -1;
	}
	for (size_t i = 0; i < k; i++)
		us[i] = (double)ns[skip + i] * 1e-3;
	rc = gdr_stats_compute(us, k, &q99, 1, st);
	free(us);
	return rc;
}
