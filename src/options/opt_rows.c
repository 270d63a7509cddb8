/* SPDX-License-Identifier: MIT */
/* Option rows: finding a row, its label, its default, and which rows were given. */
#include <string.h>
#include "optengine.h"

static uint64_t *set_words(const struct gdr_optdef *d, const void *settings)
{
	return (uint64_t *)((char *)(uintptr_t)settings + d->set_off);
}

bool gdr_opt_row_set(const struct gdr_optdef *d, const void *settings, const struct gdr_opt *e)
{
	size_t i = (size_t)(e - d->rows);

	return set_words(d, settings)[i / 64] >> (i % 64) & 1;
}

void gdr_opt_mark_set(const struct gdr_optdef *d, void *settings, const struct gdr_opt *e)
{
	size_t i = (size_t)(e - d->rows);

	set_words(d, settings)[i / 64] |= 1ULL << (i % 64);
}

bool gdr_opt_is_set(const struct gdr_optdef *d, const void *settings, const void *field)
{
	size_t off = (size_t)((const char *)field - (const char *)settings);

	for (size_t i = 0; i < d->nrows; i++) {
		const struct gdr_opt *e = &d->rows[i];

		if (e->span && off >= e->off && off < e->off + e->span &&
		    gdr_opt_row_set(d, settings, e))
			return true;
	}
	return false;
}

const char *gdr_opt_default(const struct gdr_optdef *d, const struct gdr_opt *e, const void *ctx)
{
	return d->default_of ? d->default_of(e, ctx) : e->def;
}

const char *gdr_opt_label(const struct gdr_opt *e, char *buf, size_t len)
{
	if (e->letter)
		snprintf(buf, len, "-%c", e->letter);
	else
		snprintf(buf, len, "--%s", e->name);
	return buf;
}

const struct gdr_opt *gdr_opt_find(const struct gdr_optdef *d, const char *name)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	return NULL;
}
