/* SPDX-License-Identifier: MIT */
/*
 * Long options are typed in full: getopt_long would take "--report_gbit" for
 * --report_gbits (GNU prefix matching), so a typo could silently pick an
 * option. This pass runs first and refuses abbreviations, naming the option.
 */
#include <string.h>
#include "log.h"
#include "optengine.h"

static const struct gdr_opt *by_letter(const struct gdr_optdef *d, char c)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].letter == c)
			return &d->rows[i];
	return NULL;
}

static const struct gdr_opt *by_name(const struct gdr_optdef *d, const char *s, size_t n,
				     bool prefix)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const char *name = d->rows[i].name;

		if (!strncmp(name, s, n) && (prefix || !name[n]))
			return &d->rows[i];
	}
	return NULL;
}

/* Whether "-xyz" ends in a letter that takes its argument from the next word. */
static bool short_takes_next(const struct gdr_optdef *d, const char *a)
{
	for (const char *p = a + 1; *p; p++) {
		const struct gdr_opt *e = by_letter(d, *p);

		if (!e)
			return false;
		if (e->arg)
			return !e->arg_opt && !p[1];
	}
	return false;
}

int gdr_opt_exact(const struct gdr_optdef *d, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *name = a + 2;
		const struct gdr_opt *e;
		size_t n;

		if (!strcmp(a, "--"))
			return 0;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] != '-') {
			i += short_takes_next(d, a);
			continue;
		}
		n = strcspn(name, "=");
		e = by_name(d, name, n, false);
		if (e) {
			i += e->arg && !e->arg_opt && !name[n];
			continue;
		}
		e = n ? by_name(d, name, n, true) : NULL;
		if (e) {
			gdr_err(
			    "unknown option '--%.*s': long options are not abbreviated (did you "
			    "mean --%s?)",
			    (int)(n < 64 ? n : 64), name, e->name);
			return -1;
		}
	}
	return 0;
}
