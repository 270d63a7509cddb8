/* SPDX-License-Identifier: MIT */
/* --compare's closing verdict lines (cmp_verdict.h). */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "cmp_verdict.h"

enum side { NONE, DIRECT, OTHER };

static enum side side_of(const struct gdr_cmp_point *p)
{
	return p->lo > 1 ? DIRECT : p->hi < 1 ? OTHER : NONE;
}

/* What bounds the staged model: its copier when the copy is the slower leg, else the wire. */
static void bound_of(const struct gdr_result *r, struct gdr_cmp_point *p)
{
	if (r->model_Bps <= 0 || r->copy_Bps <= 0 || r->eff_over > 0)
		return;
	if (r->model_Bps >= r->copy_Bps * (1 - 1e-9)) {
		p->bound = GDR_BOUND_COPY;
		snprintf(p->copier, sizeof(p->copier), "%s",
			 r->stage_copy[0] ? r->stage_copy : "copier");
	} else {
		p->bound = GDR_BOUND_WIRE;
	}
}

void gdr_cmp_add(struct gdr_cmp_summary *s, const struct gdr_result *r)
{
	struct gdr_cmp_point *p;

	if (r->speedup <= 0 || !r->ratio_of || s->n >= GDR_MAX_SIZES)
		return;
	if (!s->of) {
		s->of = r->ratio_of;
		s->lat = r->has_lat;
	}
	if (strcmp(s->of, r->ratio_of))
		return;
	p = &s->p[s->n++];
	*p = (struct gdr_cmp_point){.bytes = r->bytes,
				    .med = r->speedup,
				    .lo = r->repeats > 1 ? r->speedup_min : r->speedup,
				    .hi = r->repeats > 1 ? r->speedup_max : r->speedup,
				    .repeats = r->repeats > 1 ? r->repeats : 1};
	bound_of(r, p);
}

static void human(uint64_t b, char *s, size_t n)
{
	if (b >= 1u << 20 && b % (1u << 20) == 0)
		snprintf(s, n, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(s, n, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(s, n, "%llu B", (unsigned long long)b);
}

/* "1.51-2.64", or "1.51" when the two are the same to the digits shown. */
static const char *span(double lo, double hi, char *s, size_t n)
{
	char b[16];

	snprintf(s, n, "%.2f", lo);
	snprintf(b, sizeof(b), "%.2f", hi);
	if (strcmp(s, b))
		snprintf(s, n, "%.2f-%s", lo, b);
	return s;
}

/* The copiers of points [a, b], each once, in order: "ce, sm/ce". */
static const char *copiers(const struct gdr_cmp_point *p, int a, int b, char *s, size_t n)
{
	size_t k = 0;

	s[0] = '\0';
	for (int i = a; i <= b; i++) {
		bool seen = false;

		for (int j = a; j < i; j++)
			seen = seen || !strcmp(p[j].copier, p[i].copier);
		if (!seen && k < n)
			k += (size_t)snprintf(s + k, n - k, "%s%s", k ? ", " : "", p[i].copier);
	}
	return s;
}

/* One range [a, b] of points with the same side and bound: its line. */
static size_t line(const struct gdr_cmp_summary *s, int a, int b, char *buf, size_t len)
{
	const struct gdr_cmp_point *p = s->p;
	enum side sd = side_of(&p[a]);
	double lo = p[a].med, hi = lo, rlo = p[a].lo, rhi = p[a].hi;
	char from[24], to[24], where[64], over[48], ratio[32], names[80];
	uint32_t reps = p[a].repeats;
	size_t k;

	for (int i = a; i <= b; i++) {
		lo = p[i].med < lo ? p[i].med : lo;
		hi = p[i].med > hi ? p[i].med : hi;
		rlo = p[i].lo < rlo ? p[i].lo : rlo;
		rhi = p[i].hi > rhi ? p[i].hi : rhi;
		reps = p[i].repeats < reps ? p[i].repeats : reps;
	}
	human(p[a].bytes, from, sizeof(from));
	human(p[b].bytes, to, sizeof(to));
	if (a == b)
		snprintf(where, sizeof(where), "at %s", from);
	else
		snprintf(where, sizeof(where), "from %s to %s", from, to);
	if (reps > 1)
		snprintf(over, sizeof(over), "over %u repeats", reps);
	else
		snprintf(over, sizeof(over), "one run, no spread");
	if (sd == NONE)
		k = (size_t)snprintf(buf, len,
				     "direct vs %s: no verdict %s: the ratio's range %s "
				     "(%sx) crosses 1.0",
				     s->of, where, over, span(rlo, rhi, ratio, sizeof(ratio)));
	else if (sd == DIRECT)
		k = (size_t)snprintf(buf, len, "direct vs %s: direct %sx faster %s, %s", s->of,
				     span(lo, hi, ratio, sizeof(ratio)), where, over);
	else /* the other path faster: say by how much in its own favour */
		k = (size_t)snprintf(buf, len, "direct vs %s: %s %sx faster %s, %s", s->of, s->of,
				     span(1 / hi, 1 / lo, ratio, sizeof(ratio)), where, over);
	if (k < len && sd != NONE && p[a].bound == GDR_BOUND_WIRE)
		k += (size_t)snprintf(buf + k, len - k, "; %s bounded by the wire", s->of);
	else if (k < len && sd != NONE && p[a].bound == GDR_BOUND_COPY)
		k += (size_t)snprintf(buf + k, len - k, "; %s bounded by the copy (%s)", s->of,
				      copiers(p, a, b, names, sizeof(names)));
	if (k < len)
		k += (size_t)snprintf(buf + k, len - k, "\n");
	return k < len ? k : len;
}

int gdr_cmp_lines(const struct gdr_cmp_summary *s, char *buf, size_t len)
{
	size_t k = 0;
	int lines = 0;

	if (len)
		buf[0] = '\0';
	for (int a = 0, b; a < s->n; a = b + 1) {
		enum side sd = side_of(&s->p[a]);

		/* a range: one side, and one bound (no verdict says no bound) */
		for (b = a; b + 1 < s->n && side_of(&s->p[b + 1]) == sd &&
			    (sd == NONE || s->p[b + 1].bound == s->p[a].bound);
		     b++)
			;
		if (k + 1 >= len)
			break;
		k += line(s, a, b, buf + k, len - k);
		lines++;
	}
	return lines;
}
