/* SPDX-License-Identifier: MIT */
/*
 * Long options as typed: in full, in either spelling.
 * getopt_long would take "--report_gbit" for --report_gbits (GNU prefix
 * matching), so a typo could silently pick an option: abbreviations are
 * refused, naming the option. The table's names mix '_' and '-' as perftest's
 * do (--report_gbits, --report-both), so a user typing perftest's spelling or
 * the other one must not have to know which: '_' and '-' are the same
 * character in a long option's name (--expect_bw is --expect-bw).
 */
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "optengine.h"

static bool same_char(char a, char b)
{
	return a == b || ((a == '_' || a == '-') && (b == '_' || b == '-'));
}

/* Whether the n characters of s spell name (all of it, or its start when prefix). */
static bool spells(const char *name, const char *s, size_t n, bool prefix)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!name[i] || !same_char(name[i], s[i]))
			return false;
	return prefix || !name[i];
}

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
	for (size_t i = 0; i < d->nrows; i++)
		if (spells(d->rows[i].name, s, n, prefix))
			return &d->rows[i];
	return NULL;
}

const struct gdr_opt *gdr_opt_spelled(const struct gdr_optdef *d, const char *s)
{
	return by_name(d, s, strlen(s), false);
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

/* "--" + the row's name + what followed the typed name ("=value"); NULL: out of memory. */
static char *respell(const struct gdr_opt *e, const char *rest)
{
	size_t n = strlen(e->name) + strlen(rest) + 3;
	char *w = malloc(n);

	if (w)
		snprintf(w, n, "--%s%s", e->name, rest);
	return w;
}

/*
 * Walk argv's option words. With av (argc words, a copy of argv), a long
 * option typed in the other spelling is replaced there by a malloc'ed word in
 * the table's, its pointer also kept in owned[] (argc slots, NULL-filled).
 */
static int walk(const struct gdr_optdef *d, int argc, char **argv, char **av, char **owned)
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
			if (av && strncmp(e->name, name, n)) {
				owned[i] = av[i] = respell(e, name + n);
				if (!av[i]) {
					gdr_err("out of memory");
					return -1;
				}
			}
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

int gdr_opt_exact(const struct gdr_optdef *d, int argc, char **argv)
{
	return walk(d, argc, argv, NULL, NULL);
}

char **gdr_opt_respell(const struct gdr_optdef *d, int argc, char **argv, char ***owned)
{
	char **av = calloc((size_t)argc + 1, sizeof(*av));

	*owned = calloc((size_t)argc + 1, sizeof(**owned));
	if (!av || !*owned) {
		gdr_err("out of memory");
		free(av);
		free(*owned);
		*owned = NULL;
		return NULL;
	}
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	if (walk(d, argc, argv, av, *owned)) {
		gdr_opt_respell_free(av, *owned, argc);
		*owned = NULL;
		return NULL;
	}
	return av;
}

void gdr_opt_respell_free(char **av, char **owned, int argc)
{
	for (int i = 0; owned && i < argc; i++)
		free(owned[i]);
	free(owned);
	free(av);
}
