/* SPDX-License-Identifier: MIT */
/*
 * The run's copiers (staging.h): one per kind, opened at first use (the
 * --stage_copy probe or the first size that stages with it) on the run's
 * buffers and kept until the run's last size, since neither the buffers nor
 * the lanes change between sizes: an sm copier loads its module and
 * allocates its doorbells once per run, not per size and per probe. Between
 * uses a copier is parked (the sm kernel ends), so no path but the staged
 * one is timed with it resident.
 */
#include "config.h"
#include <stdio.h>
#include "log.h"
#include "staging.h"

static struct run_cp {
	struct gdr_copier cp;
	const struct gdr_mem *data; /* what it was opened on: another run's are stale */
	const uint8_t *host;
} run_cp[GDR_COPIER_MEMCPY + 1];

void gdr_staging_close_run(void)
{
	for (size_t k = 0; k < sizeof(run_cp) / sizeof(run_cp[0]); k++) {
		gdr_copier_close(&run_cp[k].cp);
		run_cp[k] = (struct run_cp){0};
	}
}

/* Kind k's run copier for c, parked or running; NULL with why when it cannot open. */
static struct gdr_copier *run_copier(struct gdr_conn *c, enum gdr_copier_kind k, char *why,
				     size_t n)
{
	struct run_cp *r = &run_cp[k];

	if (r->cp.ops && (r->data != &c->data || r->host != c->bounce.addr))
		gdr_staging_close_run(); /* a previous run's, left open by an error */
	if (!r->cp.ops) {
		if (gdr_copier_open(&r->cp, k, &c->data, c->bounce.addr, 2 * c->region_len,
				    c->o->kind == GDR_KIND_LAT ? 1 : 0,
				    (uint64_t)(c->o->timeout * 1e9), why, n))
			return NULL;
		r->data = &c->data;
		r->host = c->bounce.addr;
	}
	return &r->cp;
}

int gdr_staging_take(struct gdr_staging *s, struct gdr_conn *c, enum gdr_copier_kind k, char *why,
		     size_t n)
{
	struct gdr_copier *cp = run_copier(c, k, why, n);

	if (!cp || gdr_copier_resume(cp, why, n))
		return -1;
	s->kind = k;
	s->cp = *cp;
	s->home = cp;
	return 0;
}

/* Every copy reaped (bounded by the copier's timeout), then parked. 0 or -1 (printed). */
static int park(struct gdr_copier *cp)
{
	if (gdr_copier_drain(cp, GDR_TO_HOST) || gdr_copier_drain(cp, GDR_FROM_HOST))
		return -1;
	return gdr_copier_park(cp);
}

int gdr_staging_path(struct gdr_staging *s, bool staged)
{
	char why[160];

	if (!staged)
		return park(&s->cp);
	if (gdr_copier_resume(&s->cp, why, sizeof(why))) {
		gdr_err("staging: %s", why);
		return -1;
	}
	return 0;
}

void gdr_staging_end(struct gdr_staging *s)
{
	if (!s->home) {
		gdr_copier_close(&s->cp);
		return;
	}
	/* parked before anything else runs; a copier that cannot park is closed (bounded) */
	if (park(&s->cp))
		gdr_copier_close(&s->cp);
	*s->home = s->cp;
	if (!s->cp.ops)
		gdr_staging_close_run();
	s->home = NULL;
}
