/* SPDX-License-Identifier: MIT */
/* --interval: a progress line every S seconds during long duration runs (on stderr). */
#ifndef GDR_PROGRESS_H
#define GDR_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct gdr_progress {
	uint64_t every_ns; /* 0: off */
	uint64_t t0, next_ns, last_ns, last_done;
	uint64_t size;
	bool gbits;
};

void gdr_progress_start(struct gdr_progress *p, double interval_s, uint64_t size, bool gbits,
			uint64_t now);
void gdr_progress_print(struct gdr_progress *p, uint64_t now, uint64_t done);

/* Cheap enough for a hot loop: one compare when nothing is due. */
static inline void gdr_progress_tick(struct gdr_progress *p, uint64_t now, uint64_t done)
{
	if (p->every_ns && now >= p->next_ns)
		gdr_progress_print(p, now, done);
}

#endif
