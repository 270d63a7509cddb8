/* SPDX-License-Identifier: MIT */
/*
 * The copy-rate probe: a copier alone at one size's chunk, no network, every
 * lane busy; --compare runs it before each size and exchanges the rate.
 */
#include "config.h"
#include "clock.h"
#include "log.h"
#include "session.h"
#include "staging.h"

#define WARMUP_S 0.002
#define BUDGET_S 0.010

static double now_s(void)
{
	return (double)gdr_now_ns() * 1e-9;
}

/*
 * Keep every lane of the directions busy until the budget is spent:
 * device->host from test memory [0, span) into host [0, span), host->device
 * from host [rx, rx + span) into test memory [rx, rx + span). A copier that
 * blocks (its submit is the copy) is held to the budget copy by copy, one
 * copy per direction at least: a slow one would otherwise fill every lane
 * past it.
 */
static double probe_dirs(struct gdr_copier *cp, unsigned int dirs, size_t chunk, size_t span,
			 size_t rx, double budget_s)
{
	uint64_t slots = span / chunk ? span / chunk : 1, bytes = 0;
	double t0 = now_s(), t;

	do {
		for (int d = GDR_TO_HOST; d <= GDR_FROM_HOST; d++) {
			if (!(dirs & 1u << d))
				continue;
			if (gdr_copier_reap(cp, (enum gdr_copy_dir)d) < 0)
				return -1;
			for (unsigned int k = 0;
			     gdr_copier_room(cp, (enum gdr_copy_dir)d) &&
			     (!k || !cp->ops->blocks || now_s() - t0 < budget_s);
			     k++) {
				size_t off = (size_t)(cp->submitted[d] % slots) * chunk +
					     (d == GDR_FROM_HOST ? rx : 0);

				if (gdr_copier_submit(cp, (enum gdr_copy_dir)d, off, cp->host + off,
						      chunk))
					return -1;
				bytes += chunk;
			}
		}
		t = now_s();
	} while (t - t0 < budget_s);
	for (int d = GDR_TO_HOST; d <= GDR_FROM_HOST; d++)
		if ((dirs & 1u << d) && gdr_copier_drain(cp, (enum gdr_copy_dir)d))
			return -1;
	t = now_s();
	return t > t0 ? (double)bytes / (t - t0) : 0;
}

/*
 * The copy directions this side times: a sender's and a read target's
 * device->host, a receiver's and a read requester's host->device.
 */
static unsigned int timed_dirs(const struct gdr_conn *c)
{
	bool active = c->role.requester, passive = c->role.target;

	if (c->role.def->fetches)
		return (active ? 1u << GDR_FROM_HOST : 0) | (passive ? 1u << GDR_TO_HOST : 0);
	return (active ? 1u << GDR_TO_HOST : 0) | (passive ? 1u << GDR_FROM_HOST : 0);
}

static double slower(double a, double b)
{
	if (a <= 0)
		return b;
	if (b <= 0)
		return a;
	return a < b ? a : b;
}

double gdr_staging_probe(const struct gdr_conn *c, const struct gdr_staging *s,
			 struct gdr_copier *cp, double budget_s)
{
	unsigned int dirs = timed_dirs(c);

	if (!dirs)
		return 0;
	return probe_dirs(cp, dirs, s->chunk, gdr_stage_ring_bytes(&s->plan), c->region_len,
			  budget_s);
}

int gdr_staging_copy_rate(struct gdr_conn *c, struct gdr_staging *s, double *Bps)
{
	uint64_t peer = 0;
	double mine;

	if (gdr_staging_probe(c, s, &s->cp, WARMUP_S) < 0)
		return -1;
	mine = gdr_staging_probe(c, s, &s->cp, BUDGET_S);
	if (mine < 0)
		return -1;
	if (c->is_server ? gdr_sync_send(c, GDR_STEP_COPY_RATE, (uint64_t)mine) ||
			       gdr_sync_expect(c, GDR_STEP_COPY_RATE, &peer)
			 : gdr_sync_expect(c, GDR_STEP_COPY_RATE, &peer) ||
			       gdr_sync_send(c, GDR_STEP_COPY_RATE, (uint64_t)mine))
		return -1;
	*Bps = slower(mine, (double)peer);
	return 0;
}
