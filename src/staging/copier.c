/* SPDX-License-Identifier: MIT */
/*
 * The copier registry and the calls every user goes through (copier.h):
 * counters, lanes and the bounded drain are kept here once, so a copier
 * only moves bytes.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "clock.h"
#include "copier.h"
#include "log.h"

/*
 * The copiers built in: GDR_COPIERS (copier_names.h), gdr_copier_<name>_ops in
 * copier_<name>.c. A copier that cannot run on this host is still listed:
 * its open fails with the reason (library absent, module not loaded, ...).
 */
#define DECLARE(name, NAME) extern const struct gdr_copier_ops gdr_copier_##name##_ops;
GDR_COPIERS(DECLARE)
#undef DECLARE

#define ENTRY(name, NAME) &gdr_copier_##name##_ops,
static const struct gdr_copier_ops *const copiers[] = {GDR_COPIERS(ENTRY)};
#undef ENTRY

#define NCOPIERS (sizeof(copiers) / sizeof(copiers[0]))

const struct gdr_copier_ops *gdr_copier_find(const char *name)
{
	for (size_t i = 0; name && i < NCOPIERS; i++)
		if (!strcmp(copiers[i]->name, name))
			return copiers[i];
	return NULL;
}

const struct gdr_copier_ops *gdr_copier_of(enum gdr_copier_kind k)
{
	for (size_t i = 0; i < NCOPIERS; i++)
		if (copiers[i]->kind == k)
			return copiers[i];
	return NULL;
}

bool gdr_copier_blocks(enum gdr_copier_kind k)
{
	const struct gdr_copier_ops *ops = gdr_copier_of(k);

	return ops && ops->blocks;
}

enum gdr_copier_kind gdr_copier_default(const struct gdr_mem *data)
{
	return gdr_mem_on_device(data) ? GDR_COPIER_CE : GDR_COPIER_MEMCPY;
}

int gdr_copier_open(struct gdr_copier *cp, enum gdr_copier_kind k, struct gdr_mem *data,
		    uint8_t *host, size_t host_len, unsigned int lanes, uint64_t timeout_ns,
		    char *why, size_t n)
{
	const struct gdr_copier_ops *ops =
	    gdr_copier_of(k == GDR_COPIER_AUTO ? gdr_copier_default(data) : k);

	*cp = (struct gdr_copier){
	    .data = data,
	    .host = host,
	    .host_len = host_len,
	    .lanes = !lanes || lanes > GDR_COPIER_LANES ? GDR_COPIER_LANES : lanes,
	    .timeout_ns = timeout_ns,
	};
	if (!ops) {
		snprintf(why, n, "this copier is not built in");
		return -1;
	}
	if (ops->open && ops->open(cp, why, n))
		return -1;
	cp->ops = ops; /* set last: close skips a copier that did not open */
	return 0;
}

int gdr_copier_ready(enum gdr_copier_kind k, struct gdr_mem *data, char *why, size_t n)
{
	const struct gdr_copier_ops *ops = gdr_copier_of(k);

	if (!ops) {
		snprintf(why, n, "this copier is not built in");
		return -1;
	}
	return ops->ready ? ops->ready(data, why, n) : 0;
}

unsigned int gdr_copier_room(const struct gdr_copier *cp, enum gdr_copy_dir d)
{
	return cp->lanes - (unsigned int)(cp->submitted[d] - cp->done[d]);
}

int gdr_copier_submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, void *host,
		      size_t len)
{
	if (cp->ops->submit(cp, d, off, host, len))
		return -1;
	cp->submitted[d]++;
	return 0;
}

int gdr_copier_submit_list(struct gdr_copier *cp, enum gdr_copy_dir d, const uint64_t *off,
			   uint32_t n, size_t blk, void *host)
{
	if (!cp->ops->submit_list) {
		gdr_err("%s copier: block lists not built", cp->ops->name);
		return -1;
	}
	if (cp->ops->submit_list(cp, d, off, n, blk, host))
		return -1;
	cp->submitted[d]++;
	return 0;
}

bool gdr_copier_takes_lists(enum gdr_copier_kind k)
{
	const struct gdr_copier_ops *ops = gdr_copier_of(k);

	return ops && ops->submit_list;
}

int gdr_copier_reap(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	int n = cp->ops->reap(cp, d);

	if (n > 0)
		cp->done[d] += (uint64_t)n;
	return n;
}

int gdr_copier_drain(struct gdr_copier *cp, enum gdr_copy_dir d)
{
	uint64_t t0 = gdr_now_ns();

	if (cp->ops->drain)
		return cp->ops->drain(cp, d);
	while (cp->done[d] < cp->submitted[d]) {
		if (gdr_copier_reap(cp, d) < 0)
			return -1;
		if (cp->done[d] < cp->submitted[d] && gdr_now_ns() - t0 > cp->timeout_ns) {
			gdr_err("%s copier: %llu copies still pending after %g s", cp->ops->name,
				(unsigned long long)(cp->submitted[d] - cp->done[d]),
				(double)cp->timeout_ns * 1e-9);
			return -1;
		}
	}
	return 0;
}

int gdr_copier_park(struct gdr_copier *cp)
{
	return cp->ops && cp->ops->park ? cp->ops->park(cp) : 0;
}

int gdr_copier_resume(struct gdr_copier *cp, char *why, size_t n)
{
	return cp->ops && cp->ops->resume ? cp->ops->resume(cp, why, n) : 0;
}

void gdr_copier_close(struct gdr_copier *cp)
{
	if (cp->ops && cp->ops->close)
		cp->ops->close(cp);
	cp->ops = NULL;
}
