/* SPDX-License-Identifier: MIT */
/* --interval progress lines: the bandwidth of the last S seconds of a duration run. */
#include "config.h"
#include <stdio.h>
#include "log.h"
#include "progress.h"

void gdr_progress_start(struct gdr_progress *p, double interval_s, uint64_t size, bool gbits,
			uint64_t now)
{
	*p = (struct gdr_progress){
		.every_ns = interval_s > 0 ? (uint64_t)(interval_s * 1e9) : 0,
		.t0 = now,
		.last_ns = now,
		.size = size,
		.gbits = gbits,
	};
	p->next_ns = now + p->every_ns;
}

void gdr_progress_print(struct gdr_progress *p, uint64_t now, uint64_t done)
{
	double dt = (double)(now - p->last_ns) * 1e-9;
	double msgs = (double)(done - p->last_done);
	double Bps = dt > 0 ? msgs * (double)p->size / dt : 0;

	fprintf(stderr, "%s: [%7.1f s] %llu bytes: %.2f %s, %.6f Mpps over the last %.1f s\n",
		gdr_prog(), (double)(now - p->t0) * 1e-9, (unsigned long long)p->size,
		p->gbits ? Bps * 8 / 1e9 : Bps / 1048576.0, p->gbits ? "Gb/sec" : "MiB/sec",
		dt > 0 ? msgs / dt / 1e6 : 0, dt);
	p->last_ns = now;
	p->last_done = done;
	p->next_ns = now + p->every_ns;
}
