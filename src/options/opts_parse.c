/* SPDX-License-Identifier: MIT */
/* Option values: turning one argument string into a settings field, per type. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "opts_int.h"
#include "opts_parse.h"

#define FIELD(o, e, type) ((type *)((char *)(o) + (e)->off))

static int parse_digits(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	*v = strtod(s, &end);
	if (*end || !isfinite(*v))
		return -1;
	return 0;
}

/* "1..64", "> 0 and <= 86400" */
static const char *range_text(const struct gdr_opt *e, char *buf, size_t len)
{
	if (e->min_excl)
		snprintf(buf, len, "> %g and <= %g", e->min, e->max);
	else
		snprintf(buf, len, "%.0f..%.0f", e->min, e->max);
	return buf;
}

static bool in_range(const struct gdr_opt *e, double v)
{
	if (e->min > e->max)
		return true;
	if (e->min_excl ? v <= e->min : v < e->min)
		return false;
	return v <= e->max;
}

/* Human form of a byte count: 1G, 64K, 1000. */
static const char *size_text(uint64_t v, char *buf, size_t len)
{
	static const char suf[] = "GMK";

	for (int i = 0; i < 3; i++) {
		uint64_t unit = 1ULL << (10 * (3 - i));

		if (v >= unit && v % unit == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(v / unit), suf[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static int size_value(const char *lab, const char *s, const struct gdr_opt *e, uint64_t *v)
{
	char a[32], b[32];

	if (gdr_parse_size(s, v)) {
		if (*s && s[strspn(s, "0")] == '\0') {
			gdr_err("%s: the size must be at least 1 byte", lab);
			return -1;
		}
		gdr_err("%s: '%s' is not a size (use e.g. 4096, 64K, 1M)", lab, s);
		return -1;
	}
	if (*v > (uint64_t)e->max) {
		gdr_err("%s: %s is larger than the %s limit per message", lab, size_text(*v, a, 32),
			size_text((uint64_t)e->max, b, 32));
		return -1;
	}
	if (*v < (uint64_t)e->min) {
		gdr_err("%s: %s is below the minimum of %s", lab, size_text(*v, a, 32),
			size_text((uint64_t)e->min, b, 32));
		return -1;
	}
	return 0;
}

static int whole_value(const char *lab, const char *s, const struct gdr_opt *e, bool user,
		       int64_t *out)
{
	char r[64];
	uint64_t u;
	bool neg = (*s == '-' && !user); /* only defaults may be negative ("-1" = auto) */

	if (parse_digits(s + neg, &u) || u > INT64_MAX) {
		gdr_err("%s: '%s' is not a whole number (use %s)", lab, s, range_text(e, r, 64));
		return -1;
	}
	*out = neg ? -(int64_t)u : (int64_t)u;
	if (user && !in_range(e, (double)*out)) {
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
static int bdf_ok(const char *s)
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

static int pct_value(const char *lab, const char *s, const struct gdr_opt *e, struct gdr_opts *o)
{
	char buf[256], *tok, *save = NULL;
	int n = 0;

	if (strlen(s) >= sizeof(buf) || !*s) {
		gdr_err("%s: '%s' is not a percentile list (use e.g. 50,99,99.9)", lab, s);
		return -1;
	}
	strcpy(buf, s);
	if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,")) {
		gdr_err("%s: '%s' has an empty entry (use e.g. 50,99,99.9)", lab, s);
		return -1;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double q;

		if (parse_double(tok, &q)) {
			gdr_err("%s: '%s' is not a percentile (use e.g. 50,99,99.9)", lab, tok);
			return -1;
		}
		if (!in_range(e, q)) {
			gdr_err("%s: %s is out of range (each must be > 0 and <= 100)", lab, tok);
			return -1;
		}
		if (n == GDR_MAX_PCT) {
			gdr_err("%s: more than %d percentiles", lab, GDR_MAX_PCT);
			return -1;
		}
		o->pct[n++] = q;
	}
	o->npct = n;
	return 0;
}

static int sizes_value(const char *lab, const char *s, const struct gdr_opt *e, struct gdr_opts *o)
{
	char buf[128], *p[3] = {buf, NULL, NULL};
	uint64_t mn, mx, f = 2;

	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	for (int i = 1; i < 3; i++) {
		p[i] = strchr(p[i - 1], ':');
		if (!p[i])
			break;
		*p[i]++ = '\0';
	}
	if (!p[1] || (p[2] && strchr(p[2], ':')))
		goto bad;
	if (size_value(lab, p[0], e, &mn) || size_value(lab, p[1], e, &mx))
		return -1;
	if (p[2] && (parse_digits(p[2], &f) || f < 2 || f > 1024)) {
		gdr_err("%s: factor '%s' must be a whole number in 2..1024", lab, p[2]);
		return -1;
	}
	if (mn > mx) {
		gdr_err("%s: MIN %s is larger than MAX %s", lab, p[0], p[1]);
		return -1;
	}
	o->sizes_set = true;
	o->size_min = mn;
	o->size_max = mx;
	o->size_factor = (uint32_t)f;
	return 0;
bad:
	gdr_err("%s: '%s' is not MIN:MAX[:FACTOR] (use e.g. 1K:1M or 64:64K:4)", lab, s);
	return -1;
}

static int str_value(const char *lab, const char *s, const struct gdr_opt *e, struct gdr_opts *o)
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
	if (e->type == GDR_OT_BDF && !bdf_ok(s)) {
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

int gdr_opt_set(const struct gdr_opt *e, struct gdr_opts *o, const char *s, bool user)
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
		*FIELD(o, e, enum gdr_cuda_reg) = (enum gdr_cuda_reg)e->val;
		return 0;
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
		if (parse_digits(s, &u) ||
		    (u != 256 && u != 512 && u != 1024 && u != 2048 && u != 4096)) {
			gdr_err("%s: '%s' is not an MTU (use 256, 512, 1024, 2048 or 4096)", lab,
				s);
			return -1;
		}
		*FIELD(o, e, uint32_t) = (uint32_t)u;
		return 0;
	case GDR_OT_SIZE:
		if (size_value(lab, s, e, &u))
			return -1;
		*FIELD(o, e, uint64_t) = u;
		return 0;
	case GDR_OT_DOUBLE:
		if (parse_double(s, &d)) {
			gdr_err("%s: '%s' is not a number (use e.g. 10 or 0.5)", lab, s);
			return -1;
		}
		if (user && !in_range(e, d)) {
			char r[64];

			gdr_err("%s: %s is out of range (use %s)", lab, s, range_text(e, r, 64));
			return -1;
		}
		*FIELD(o, e, double) = d;
		return 0;
	case GDR_OT_STR:
	case GDR_OT_CPULIST:
	case GDR_OT_BDF:
		return str_value(lab, s, e, o);
	case GDR_OT_CUDA:
		if (!strcmp(s, "auto")) {
			*FIELD(o, e, int) = GDR_CUDA_AUTO;
			return 0;
		}
		if (!user && !strcmp(s, "none")) {
			*FIELD(o, e, int) = GDR_CUDA_NONE;
			return 0;
		}
		if (parse_digits(s, &u) || !in_range(e, (double)u)) {
			gdr_err("%s: '%s' is not a GPU (use an index 0..255 or auto)", lab, s);
			return -1;
		}
		*FIELD(o, e, int) = (int)u;
		return 0;
	case GDR_OT_PCT:
		return pct_value(lab, s, e, o);
	case GDR_OT_SIZES:
		return sizes_value(lab, s, e, o);
	case GDR_OT_HELP:
	case GDR_OT_VERSION:
		return 0;
	}
	gdr_err("%s: internal error: unknown option type %d", lab, (int)e->type);
	return -1;
}
