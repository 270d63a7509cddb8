/* SPDX-License-Identifier: MIT */
/* Option values: turning one argument string into a settings field, per row type. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "optengine.h"

/* a field of the settings struct at its offsetof(), of the field's own type */
#define FIELD(o, e, type) ((type *)((char *)(o) + (e)->off))

/* "1..64", "> 0 and <= 86400" */
static const char *range_text(const struct gdr_opt *e, char *buf, size_t len)
{
	if (e->min_excl)
		snprintf(buf, len, "> %g and <= %g", e->min, e->max);
	else
		snprintf(buf, len, "%.0f..%.0f", e->min, e->max);
	return buf;
}

bool gdr_opt_in_range(const struct gdr_opt *e, double v)
{
	if (e->min > e->max)
		return true;
	if (e->min_excl ? v <= e->min : v < e->min)
		return false;
	return v <= e->max;
}

static int whole_value(const char *lab, const char *s, const struct gdr_opt *e, bool user,
		       int64_t *out)
{
	char r[64];
	uint64_t u;
	bool neg = (*s == '-' && !user); /* only defaults may be negative ("-1" = auto) */

	if (gdr_opt_digits(s + neg, &u) || u > INT64_MAX) {
		gdr_err("%s: '%s' is not a whole number (use %s)", lab, s, range_text(e, r, 64));
		return -1;
	}
	*out = neg ? -(int64_t)u : (int64_t)u;
	if (user && !gdr_opt_in_range(e, (double)*out)) {
		gdr_err("%s: %s is out of range (use %s)", lab, s, range_text(e, r, 64));
		return -1;
	}
	return 0;
}

static int cpulist_ok(const char *s)
{
	while (*s) {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*s))
			return 0;
		a = strtoul(s, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return 0;
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || b > 65535)
			return 0;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return 0;
		s = end;
	}
	return 1;
}

static int hexrun(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* [DDDD:]BB:DD.F */
int gdr_opt_bdf_ok(const char *s)
{
	size_t len = strlen(s);

	if (len == 12) {
		if (!hexrun(s, 4) || s[4] != ':')
			return 0;
		s += 5;
	} else if (len != 7) {
		return 0;
	}
	return hexrun(s, 2) && s[2] == ':' && hexrun(s + 3, 2) && s[5] == '.' && s[6] >= '0' &&
	       s[6] <= '7';
}

static int str_value(const char *lab, const char *s, const struct gdr_opt *e, void *o)
{
	char **f = FIELD(o, e, char *);

	if (!*s) {
		gdr_err("%s: empty value", lab);
		return -1;
	}
	if (e->type == GDR_OT_CPULIST && !cpulist_ok(s)) {
		gdr_err("%s: '%s' is not a CPU list (use e.g. 0-3,8)", lab, s);
		return -1;
	}
	if (e->type == GDR_OT_BDF && !gdr_opt_bdf_ok(s)) {
		gdr_err("%s: '%s' is not a PCI address (use e.g. 0000:3b:00.0)", lab, s);
		return -1;
	}
	free(*f);
	*f = strdup(s);
	if (!*f) {
		gdr_err("%s: out of memory", lab);
		return -1;
	}
	return 0;
}

/* One of the row's words: "--dir: 'up' is not one of h2d, d2h, bidir, all". */
static int choice_value(const char *lab, const char *s, const struct gdr_opt *e, void *o)
{
	char words[160] = "";

	for (int i = 0; e->choices[i]; i++) {
		if (!strcmp(s, e->choices[i])) {
			*FIELD(o, e, int) = i;
			return 0;
		}
		snprintf(words + strlen(words), sizeof(words) - strlen(words), "%s%s",
			 i ? (e->choices[i + 1] ? ", " : " or ") : "", e->choices[i]);
	}
	gdr_err("%s: '%s' is not %s", lab, s, words);
	return -1;
}

int gdr_opt_set(const struct gdr_opt *e, void *o, const char *s, bool user)
{
	char lab[40];
	int64_t w;
	uint64_t u;
	double d;

	gdr_opt_label(e, lab, sizeof(lab));
	switch (e->type) {
	case GDR_OT_FLAG:
		*FIELD(o, e, bool) = true;
		return 0;
	case GDR_OT_REG:
		*FIELD(o, e, int) = e->val;
		return 0;
	case GDR_OT_CHOICE:
		return choice_value(lab, s, e, o);
	case GDR_OT_CUSTOM:
		return e->parse(e, o, s, lab, user);
	case GDR_OT_INT:
	case GDR_OT_U16:
	case GDR_OT_U32:
	case GDR_OT_U64:
		if (whole_value(lab, s, e, user, &w))
			return -1;
		if (e->type == GDR_OT_INT)
			*FIELD(o, e, int) = (int)w;
		else if (e->type == GDR_OT_U16)
			*FIELD(o, e, uint16_t) = (uint16_t)w;
		else if (e->type == GDR_OT_U32)
			*FIELD(o, e, uint32_t) = (uint32_t)w;
		else
			*FIELD(o, e, uint64_t) = (uint64_t)w;
		return 0;
	case GDR_OT_MTU:
		if (gdr_opt_digits(s, &u) ||
		    (u != 256 && u != 512 && u != 1024 && u != 2048 && u != 4096)) {
			gdr_err("%s: '%s' is not an MTU (use 256, 512, 1024, 2048 or 4096)", lab,
				s);
			return -1;
		}
		*FIELD(o, e, uint32_t) = (uint32_t)u;
		return 0;
	case GDR_OT_SIZE:
		if (gdr_opt_size(lab, s, user && e->min > 0 && e->min <= e->max ? (uint64_t)e->min : 0,
				 (uint64_t)e->max, &u))
			return -1;
		*FIELD(o, e, uint64_t) = u;
		return 0;
	case GDR_OT_DOUBLE:
		if (gdr_opt_double(s, &d)) {
			gdr_err("%s: '%s' is not a number (use e.g. 10 or 0.5)", lab, s);
			return -1;
		}
		if (user && !gdr_opt_in_range(e, d)) {
			char r[64];

			gdr_err("%s: %s is out of range (use %s)", lab, s, range_text(e, r, 64));
			return -1;
		}
		/* cppcheck-suppress invalidPointerCast ; FIELD's target is a double field */
		*FIELD(o, e, double) = d;
		return 0;
	case GDR_OT_STR:
	case GDR_OT_CPULIST:
	case GDR_OT_BDF:
		return str_value(lab, s, e, o);
	case GDR_OT_HELP:
	case GDR_OT_VERSION:
		return 0;
	}
	gdr_err("%s: internal error: unknown option type %d", lab, (int)e->type);
	return -1;
}
