/* SPDX-License-Identifier: MIT */
/* Growable string buffer and exact, short number formatting for reporters. */
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_priv.h"

static bool sbuf_grow(struct gdr_sbuf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->oom)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void gdr_sbuf_puts(struct gdr_sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (!sbuf_grow(b, n))
		return;
	memcpy(b->p + b->len, s, n + 1);
	b->len += n;
}

void gdr_sbuf_putc(struct gdr_sbuf *b, char c)
{
	if (!sbuf_grow(b, 1))
		return;
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

void gdr_sbuf_printf(struct gdr_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !sbuf_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void gdr_sbuf_free(struct gdr_sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void gdr_fmt_double(char *out, size_t len, double d)
{
	int prec;

	/* integers as integers: "160", not "1.6e+02" */
	if (d == trunc(d) && fabs(d) < 1e15) {
		snprintf(out, len, "%.0f", d);
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(out, len, "%.*g", prec, d);
		if (strtod(out, NULL) == d)
			return;
	}
	snprintf(out, len, "%.17g", d);
}
