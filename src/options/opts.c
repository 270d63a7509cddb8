/* SPDX-License-Identifier: MIT */
/*
 * Command line parsing: getopt_long's arguments, the defaults, the checks
 * between options, all built from the option table (opts_table.c).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "opts_int.h"
#include "opts_parse.h"

#define LONG_ONLY_BASE 256 /* getopt val of row i without a letter: LONG_ONLY_BASE + i */

static const char *const test_names[] = {"write_bw",  "read_bw",  "send_bw",
					 "write_lat", "read_lat", "send_lat"};

const char *gdr_verb_name(enum gdr_verb v)
{
	switch (v) {
	case GDR_VERB_WRITE:
		return "write";
	case GDR_VERB_READ:
		return "read";
	case GDR_VERB_SEND:
		return "send";
	}
	return "unknown";
}

const char *gdr_kind_name(enum gdr_kind k)
{
	return k == GDR_KIND_LAT ? "lat" : k == GDR_KIND_BW ? "bw" : "unknown";
}

static size_t row_of(const struct gdr_opt *e)
{
	return (size_t)(e - gdr_opt_table);
}

static void mark_set(struct gdr_opts *o, const struct gdr_opt *e)
{
	size_t i = row_of(e);

	o->set_bits[i / 64] |= 1ULL << (i % 64);
}

static bool row_set(const struct gdr_opts *o, const struct gdr_opt *e)
{
	size_t i = row_of(e);

	return o->set_bits[i / 64] >> (i % 64) & 1;
}

bool gdr_opts_is_set(const struct gdr_opts *o, const void *field)
{
	size_t off = (size_t)((const char *)field - (const char *)o);

	for (size_t i = 0; i < gdr_opt_count; i++) {
		const struct gdr_opt *e = &gdr_opt_table[i];

		if (e->span && off >= e->off && off < e->off + e->span && row_set(o, e))
			return true;
	}
	return false;
}

static int apply_defaults(struct gdr_opts *o, const struct gdr_test *t)
{
	memset(o, 0, sizeof(*o));
	o->verb = t->verb;
	o->kind = t->kind;
	o->size_factor = 2; /* --sizes without :FACTOR */
	for (size_t i = 0; i < gdr_opt_count; i++) {
		const struct gdr_opt *e = &gdr_opt_table[i];
		const char *d = gdr_opt_default(e, t);

		if (d && gdr_opt_set(e, o, d, false))
			return -1; /* a bad default in the table: the line names it */
	}
	return 0;
}

static const struct gdr_opt *row_by_val(int val)
{
	if (val >= LONG_ONLY_BASE && (size_t)(val - LONG_ONLY_BASE) < gdr_opt_count)
		return &gdr_opt_table[val - LONG_ONLY_BASE];
	for (size_t i = 0; i < gdr_opt_count; i++)
		if (val > 0 && gdr_opt_table[i].letter == val)
			return &gdr_opt_table[i];
	return NULL;
}

static void build_getopt(struct option *lo, char *shortopts)
{
	char *s = shortopts;

	*s++ = ':'; /* report a missing argument as ':' */
	for (size_t i = 0; i < gdr_opt_count; i++) {
		const struct gdr_opt *e = &gdr_opt_table[i];

		lo[i] = (struct option){.name = e->name,
					.has_arg = e->arg ? required_argument : no_argument,
					.val = e->letter ? e->letter : LONG_ONLY_BASE + (int)i};
		if (e->letter) {
			*s++ = e->letter;
			if (e->arg)
				*s++ = ':';
		}
	}
	lo[gdr_opt_count] = (struct option){0};
	*s = '\0';
}

/* The option word as typed, without "=value". */
static void bad_word(char *buf, size_t len, const char *arg)
{
	size_t n = strcspn(arg, "=");

	snprintf(buf, len, "%.*s", (int)(n < 64 ? n : 64), arg);
}

static void getopt_error(int c, char **argv)
{
	const struct gdr_opt *e = row_by_val(optopt);
	char lab[80];

	if (c == ':' && e) {
		gdr_err("%s: missing argument %s (see --help)", gdr_opt_label(e, lab, sizeof(lab)),
			e->arg);
	} else if (e) {
		gdr_err("--%s takes no argument (see --help)", e->name);
	} else if (optopt) {
		gdr_err("unknown option '-%c' (see --help)", optopt);
	} else {
		bad_word(lab, sizeof(lab), argv[optind - 1]);
		gdr_err("unknown option '%s' (see --help)", lab);
	}
}

/* "write_lat, read_lat, send_lat" */
static void mask_names(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < 6; i++)
		if (mask & (1u << i) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      test_names[i]);
}

static int check_rule(const struct gdr_opts *o, const struct gdr_opt_rule *r)
{
	const struct gdr_opt *a = gdr_opt_find(r->a);
	char la[40], lb[40] = "", alt[160] = "", name[40];
	const char *p = r->b;
	bool any = false;

	if (!a || !row_set(o, a))
		return 0;
	while (*p) { /* b: "x|y" alternatives */
		size_t n = strcspn(p, "|");
		const struct gdr_opt *b;

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		b = gdr_opt_find(name);
		if (b) {
			any = any || row_set(o, b);
			snprintf(alt + strlen(alt), sizeof(alt) - strlen(alt), "%s%s",
				 *alt ? " or " : "", gdr_opt_label(b, lb, sizeof(lb)));
			if (r->kind == GDR_R_EXCLUDES && row_set(o, b))
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

static int validate(struct gdr_opts *o, const struct gdr_test *t)
{
	unsigned bit = gdr_test_bit(t->verb, t->kind);
	uint64_t *sizes;
	size_t n;
	char lab[40], names[128];

	for (size_t i = 0; i < gdr_opt_count; i++) {
		const struct gdr_opt *e = &gdr_opt_table[i];

		if (!row_set(o, e))
			continue;
		gdr_opt_label(e, lab, sizeof(lab));
		if (e->tests && !(e->tests & bit)) {
			mask_names(e->tests, names, sizeof(names));
			gdr_err("%s does not apply to %s_%s; it is for %s", lab,
				gdr_verb_name(t->verb), gdr_kind_name(t->kind), names);
			return -1;
		}
		if (e->scope == GDR_SC_SERVER && o->server) {
			gdr_err("%s is a server option; leave it out on the client", lab);
			return -1;
		}
		if (e->scope == GDR_SC_CLIENT && !o->server) {
			gdr_err("%s is a client option; give the server address too", lab);
			return -1;
		}
	}
	for (size_t i = 0; i < gdr_opt_rule_count; i++)
		if (check_rule(o, &gdr_opt_rules[i]))
			return -1;
	if (gdr_opts_sizes(o, &sizes, &n))
		return -1;
	free(sizes);
	return 0;
}

int gdr_opts_parse(struct gdr_opts *o, const struct gdr_test *t, int argc, char **argv)
{
	struct option lo[2 * 64 + 1];
	char shortopts[2 * 2 * 64 + 2];
	int c;

	if (argc > 0 && argv[0])
		gdr_set_prog(argv[0]);
	if (apply_defaults(o, t))
		return -1;
	if (gdr_opts_exact(argc, argv))
		goto fail;
	build_getopt(lo, shortopts);
	optind = 0; /* glibc: full re-initialisation, so parse can run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		const struct gdr_opt *e = row_by_val(c);

		if (c == '?' || c == ':' || !e) {
			getopt_error(c, argv);
			goto fail;
		}
		if (e->type == GDR_OT_HELP) {
			gdr_opts_usage(stdout, t);
			gdr_opts_free(o);
			return 1;
		}
		if (e->type == GDR_OT_VERSION) {
			printf("%s (gdrperf) %s\n", gdr_prog(), PACKAGE_VERSION);
			gdr_opts_free(o);
			return 1;
		}
		if (gdr_opt_set(e, o, optarg, true))
			goto fail;
		mark_set(o, e);
	}
	if (argc - optind > 1) {
		gdr_err("unexpected argument '%s': the only argument is the server address",
			argv[optind + 1]);
		goto fail;
	}
	if (argc - optind == 1) {
		if (!*argv[optind]) {
			gdr_err("empty server address");
			goto fail;
		}
		o->server = strdup(argv[optind]);
		if (!o->server) {
			gdr_err("out of memory");
			goto fail;
		}
	}
	if (validate(o, t))
		goto fail;
	return 0;
fail:
	gdr_opts_free(o);
	return -1;
}

void gdr_opts_free(struct gdr_opts *o)
{
	for (size_t i = 0; i < gdr_opt_count; i++) {
		const struct gdr_opt *e = &gdr_opt_table[i];

		if (e->type == GDR_OT_STR || e->type == GDR_OT_CPULIST || e->type == GDR_OT_BDF) {
			char **f = (char **)((char *)o + e->off);

			free(*f);
			*f = NULL;
		}
	}
	free(o->server);
	o->server = NULL;
}
