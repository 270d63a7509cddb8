/* SPDX-License-Identifier: MIT */
/*
 * The option engine's command line pass: getopt_long's arguments, the
 * defaults, parsing, the rules between options, all built from a program's
 * table (struct gdr_optdef).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "optengine.h"

#define LONG_ONLY_BASE 256 /* getopt val of row i without a letter: LONG_ONLY_BASE + i */

static int apply_defaults(const struct gdr_optdef *d, void *settings, const void *ctx)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct gdr_opt *e = &d->rows[i];
		const char *v = gdr_opt_default(d, e, ctx);

		if (v && gdr_opt_set(e, settings, v, false))
			return -1; /* a bad default in the table: the line names it */
	}
	return 0;
}

static const struct gdr_opt *row_by_val(const struct gdr_optdef *d, int val)
{
	if (val >= LONG_ONLY_BASE && (size_t)(val - LONG_ONLY_BASE) < d->nrows)
		return &d->rows[val - LONG_ONLY_BASE];
	for (size_t i = 0; i < d->nrows; i++)
		if (val > 0 && d->rows[i].letter == val)
			return &d->rows[i];
	return NULL;
}

static void build_getopt(const struct gdr_optdef *d, struct option *lo, char *shortopts)
{
	char *s = shortopts;

	*s++ = ':'; /* report a missing argument as ':' */
	for (size_t i = 0; i < d->nrows; i++) {
		const struct gdr_opt *e = &d->rows[i];

		lo[i] = (struct option){.name = e->name,
					.has_arg = !e->arg     ? no_argument
						   : e->arg_opt ? optional_argument
								: required_argument,
					.val = e->letter ? e->letter : LONG_ONLY_BASE + (int)i};
		if (e->letter) {
			*s++ = e->letter;
			if (e->arg)
				*s++ = ':';
			if (e->arg && e->arg_opt)
				*s++ = ':';
		}
	}
	lo[d->nrows] = (struct option){0};
	*s = '\0';
}

/* The option word as typed, without "=value". */
static void bad_word(char *buf, size_t len, const char *arg)
{
	size_t n = strcspn(arg, "=");

	snprintf(buf, len, "%.*s", (int)(n < 64 ? n : 64), arg);
}

static void getopt_error(const struct gdr_optdef *d, int c, char **argv)
{
	const struct gdr_opt *e = row_by_val(d, optopt);
	const char *why = NULL;
	char lab[80];

	if (!e && optopt)
		snprintf(lab, sizeof(lab), "-%c", optopt);
	else if (!e)
		bad_word(lab, sizeof(lab), argv[optind - 1]);
	if (!e && d->refused)
		why = d->refused(lab);
	if (why) {
		gdr_err("%s (perftest's) is not supported here: %s", lab, why);
	} else if (c == ':' && e) {
		gdr_err("%s: missing argument %s (see --help)", gdr_opt_label(e, lab, sizeof(lab)),
			e->arg);
	} else if (e) {
		gdr_err("--%s takes no argument (see --help)", e->name);
	} else {
		gdr_err("unknown option '%s' (see --help)", lab);
	}
}

static int check_rule(const struct gdr_optdef *d, const void *settings,
		      const struct gdr_opt_rule *r)
{
	const struct gdr_opt *a = gdr_opt_find(d, r->a);
	char la[40], lb[40] = "", alt[160] = "", name[40];
	const char *p = r->b;
	bool any = false;

	if (!a || !gdr_opt_row_set(d, settings, a))
		return 0;
	while (*p) { /* b: "x|y" alternatives */
		size_t n = strcspn(p, "|");
		const struct gdr_opt *b;

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		b = gdr_opt_find(d, name);
		if (b) {
			bool set = gdr_opt_row_set(d, settings, b);

			any = any || set;
			snprintf(alt + strlen(alt), sizeof(alt) - strlen(alt), "%s%s",
				 *alt ? " or " : "", gdr_opt_label(b, lb, sizeof(lb)));
			if (r->kind == GDR_R_EXCLUDES && set)
				break;
		}
		p += n + (p[n] == '|');
	}
	gdr_opt_label(a, la, sizeof(la));
	if (r->kind == GDR_R_EXCLUDES && any) {
		gdr_err("%s and %s exclude each other%s%s", la, lb, r->why ? ": " : "",
			r->why ? r->why : "");
		return -1;
	}
	if (r->kind == GDR_R_NEEDS && !any) {
		gdr_err("%s needs %s%s%s", la, alt, r->why ? ": " : "", r->why ? r->why : "");
		return -1;
	}
	return 0;
}

static int validate(const struct gdr_optdef *d, void *settings, const void *ctx)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (d->row_check && gdr_opt_row_set(d, settings, &d->rows[i]) &&
		    d->row_check(&d->rows[i], settings, ctx))
			return -1;
	for (size_t i = 0; i < d->nrules; i++)
		if (check_rule(d, settings, &d->rules[i]))
			return -1;
	return d->check ? d->check(settings, ctx) : 0;
}

/* The arguments left after the options. */
static int positional(const struct gdr_optdef *d, void *settings, int argc, char **argv,
		      const void *ctx)
{
	if (d->positional)
		return d->positional(settings, argc, argv, ctx);
	if (argc > 0) {
		gdr_err("unexpected argument '%s': %s takes no arguments", argv[0], gdr_prog());
		return -1;
	}
	return 0;
}

/* One pass over argv: 0 parsed, 1 help/version printed, -1 error printed. */
static int scan(const struct gdr_optdef *d, void *settings, const void *ctx, int argc, char **argv)
{
	struct option lo[GDR_OPT_MAX_ROWS + 1];
	char shortopts[3 * GDR_OPT_MAX_ROWS + 2];
	int c;

	build_getopt(d, lo, shortopts);
	optind = 0; /* glibc: full re-initialisation, so parse can run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		const struct gdr_opt *e = row_by_val(d, c);

		if (c == '?' || c == ':' || !e) {
			getopt_error(d, c, argv);
			return -1;
		}
		if (e->type == GDR_OT_HELP) {
			gdr_optusage(d, stdout, ctx);
			return 1;
		}
		if (e->type == GDR_OT_VERSION) {
			printf("%s (gdrperf) %s\n", gdr_prog(), PACKAGE_VERSION);
			return 1;
		}
		if (gdr_opt_set(e, settings, optarg, true))
			return -1;
		gdr_opt_mark_set(d, settings, e);
	}
	return positional(d, settings, argc - optind, argv + optind, ctx);
}

int gdr_optparse(const struct gdr_optdef *d, void *settings, const void *ctx, int argc, char **argv)
{
	int rc;

	if (d->nrows > GDR_OPT_MAX_ROWS) {
		gdr_err("internal error: %zu option rows, at most %d", d->nrows, GDR_OPT_MAX_ROWS);
		return -1;
	}
	for (size_t i = 0; i < d->nrows; i++)
		if (gdr_opt_spelled(d, d->rows[i].name) != &d->rows[i]) {
			gdr_err("internal error: option rows spell --%s twice", d->rows[i].name);
			return -1;
		}
	if (argc > 0 && argv[0])
		gdr_set_prog(argv[0]);
	rc = apply_defaults(d, settings, ctx);
	if (!rc) {
		/* getopt_long sees the table's spelling of each long option */
		char **owned, **av = gdr_opt_respell(d, argc, argv, &owned);

		rc = av ? scan(d, settings, ctx, argc, av) : -1;
		gdr_opt_respell_free(av, owned, argc);
	}
	if (!rc)
		rc = validate(d, settings, ctx);
	if (rc)
		gdr_optfree(d, settings);
	return rc;
}

void gdr_optfree(const struct gdr_optdef *d, void *settings)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct gdr_opt *e = &d->rows[i];

		if (e->type == GDR_OT_STR || e->type == GDR_OT_CPULIST || e->type == GDR_OT_BDF) {
			char **f = (char **)((char *)settings + e->off);

			free(*f);
			*f = NULL;
		}
	}
}
