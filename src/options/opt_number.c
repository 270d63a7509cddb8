/* SPDX-License-Identifier: MIT */
/* Numbers: digits, doubles, "64K" sizes and MIN:MAX[:FACTOR] sweeps, with their error lines. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "optengine.h"

int gdr_opt_digits(const char *s, uint64_t *v)
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

int gdr_opt_double(const char *s, double *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	*v = strtod(s, &end);
	if (*end || !isfinite(*v))
		return -1;
	return 0;
}

/* Multiplier of a suffix: "", K/k, M/m, G/g, each optionally followed by "iB". */
static int suffix_mult(const char *s, uint64_t *mult)
{
	static const char letters[] = "kmg";
	const char *p;

	if (!*s) {
		*mult = 1;
		return 0;
	}
	p = strchr(letters, *s | 0x20);
	if (!p || !*p)
		return -1;
	if (s[1] && strcmp(s + 1, "iB"))
		return -1;
	*mult = 1ULL << (10 * (p - letters + 1));
	return 0;
}

int gdr_parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0, mult;

	if (!s || *s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (suffix_mult(s, &mult) || v == 0 || v > UINT64_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
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

int gdr_opt_size(const char *lab, const char *s, uint64_t min, uint64_t max, uint64_t *v)
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
	if (*v > max) {
		gdr_err("%s: %s is larger than the %s limit", lab, size_text(*v, a, 32),
			size_text(max, b, 32));
		return -1;
	}
	if (*v < min) {
		gdr_err("%s: %s is below the minimum of %s", lab, size_text(*v, a, 32),
			size_text(min, b, 32));
		return -1;
	}
	return 0;
}

int gdr_opt_sweep(const char *lab, const char *s, uint64_t max, uint64_t *mn, uint64_t *mx,
		  uint32_t *factor)
{
	char buf[128], *p[3] = {buf, NULL, NULL};
	uint64_t f = 2;

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
	if (gdr_opt_size(lab, p[0], 1, max, mn) || gdr_opt_size(lab, p[1], 1, max, mx))
		return -1;
	if (p[2] && (gdr_opt_digits(p[2], &f) || f < 2 || f > 1024)) {
		gdr_err("%s: factor '%s' must be a whole number in 2..1024", lab, p[2]);
		return -1;
	}
	if (*mn > *mx) {
		gdr_err("%s: MIN %s is larger than MAX %s", lab, p[0], p[1]);
		return -1;
	}
	*factor = (uint32_t)f;
	return 0;
bad:
	gdr_err("%s: '%s' is not MIN:MAX[:FACTOR] (use e.g. 1K:1M or 64:64K:4)", lab, s);
	return -1;
}
