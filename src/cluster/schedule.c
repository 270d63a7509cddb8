/* SPDX-License-Identifier: MIT */
/* Cluster schedules: the circle method, half against half, and rings split into rounds. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "schedule.h"

int gdr_pattern_parse(const char *s, struct gdr_pattern *p)
{
	char *end;
	unsigned long k;

	memset(p, 0, sizeof(*p));
	if (!s || !strcmp(s, "pairwise"))
		return 0;
	if (!strcmp(s, "quick")) {
		p->kind = GDR_PAT_QUICK;
		return 0;
	}
	if (!strncmp(s, "shift=", 6)) {
		k = strtoul(s + 6, &end, 10);
		if (s[6] >= '0' && s[6] <= '9' && !*end && k >= 1 && k <= 1000000) {
			p->kind = GDR_PAT_SHIFT;
			p->shift = (unsigned)k;
			return 0;
		}
	}
	gdr_err("--pattern=%s: expected pairwise, quick or shift=K (K >= 1)", s);
	return -1;
}

const char *gdr_pattern_name(const struct gdr_pattern *p, char *buf, size_t len)
{
	if (p->kind == GDR_PAT_SHIFT)
		snprintf(buf, len, "shift=%u", p->shift);
	else
		snprintf(buf, len, "%s", p->kind == GDR_PAT_QUICK ? "quick" : "pairwise");
	return buf;
}

static void add_pair(struct gdr_sched *s, unsigned a, unsigned b)
{
	s->pair[s->npairs][0] = a < b ? a : b;
	s->pair[s->npairs][1] = a < b ? b : a;
	s->npairs++;
}

/*
 * Circle method on m = n rounded up to even: unit m-1 stays put, the others
 * rotate. Round r pairs m-1 with r, and r+k with r-k (mod m-1). A pair with
 * the extra unit n (odd n) is that round's bye.
 */
static void circle(struct gdr_sched *s, unsigned n)
{
	unsigned m = n + (n & 1), r, k;

	s->nrounds = m - 1;
	for (r = 0; r < m - 1; r++) {
		s->start[r] = s->npairs;
		if (m - 1 < n)
			add_pair(s, r, m - 1);
		for (k = 1; k < m / 2; k++)
			add_pair(s, (r + k) % (m - 1), (r + (m - 1) - k) % (m - 1));
	}
}

static void quick(struct gdr_sched *s, unsigned n)
{
	s->nrounds = 1;
	s->start[0] = 0;
	for (unsigned i = 0; i < n / 2; i++)
		add_pair(s, i, i + n / 2);
}

/* Ring i <-> i+K: each pair goes to the first round where neither end is busy (<= 3 rounds). */
static int ring(struct gdr_sched *s, unsigned n, unsigned shift)
{
	unsigned k = shift % n, *round_of = calloc((size_t)n + 1, sizeof(*round_of));
	unsigned char *busy = calloc((size_t)n * 3, 1);
	unsigned i, r, cnt[3] = {0};
	unsigned(*tmp)[2] = malloc((size_t)n * sizeof(*tmp));

	if (!round_of || !busy || !tmp) {
		free(round_of);
		free(busy);
		free(tmp);
		gdr_err("out of memory building the schedule");
		return -1;
	}
	for (i = 0; i < n && k; i++) {
		unsigned j = (i + k) % n;

		if (2 * k == n && i >= k)
			break; /* i+n/2 met i already */
		for (r = 0; r < 3 && (busy[r * n + i] || busy[r * n + j]); r++)
			;
		busy[r * n + i] = busy[r * n + j] = 1;
		tmp[i][0] = i;
		tmp[i][1] = j;
		round_of[i] = r + 1;
		/* r < 3: a ring's edge meets at most two coloured edges, so one of three
		 * rounds is free (cppcheck cannot follow the busy[] contents) */
		/* cppcheck-suppress arrayIndexOutOfBounds */
		cnt[r]++;
	}
	for (r = 0; r < 3; r++) {
		if (!cnt[r])
			break;
		s->start[s->nrounds++] = s->npairs;
		for (unsigned q = 0; q < n; q++)
			if (round_of[q] == r + 1)
				add_pair(s, tmp[q][0], tmp[q][1]);
	}
	free(round_of);
	free(busy);
	free(tmp);
	return 0;
}

int gdr_sched_build(const struct gdr_pattern *p, unsigned n, struct gdr_sched *s)
{
	size_t maxp = (size_t)n * (n + 1) / 2 + 1;

	memset(s, 0, sizeof(*s));
	if (p->kind == GDR_PAT_SHIFT && n > 1 && p->shift % n == 0) {
		gdr_err("--pattern=shift=%u: with %u units every unit would meet itself", p->shift,
			n);
		return -1;
	}
	if (p->kind != GDR_PAT_PAIRWISE)
		maxp = (size_t)n + 1;
	s->start = calloc((size_t)n + 2, sizeof(*s->start));
	s->pair = calloc(maxp, sizeof(*s->pair));
	if (!s->start || !s->pair) {
		gdr_sched_free(s);
		gdr_err("out of memory building the schedule of %u units", n);
		return -1;
	}
	if (n >= 2) {
		if (p->kind == GDR_PAT_PAIRWISE)
			circle(s, n);
		else if (p->kind == GDR_PAT_QUICK)
			quick(s, n);
		else if (ring(s, n, p->shift)) {
			gdr_sched_free(s);
			return -1;
		}
	}
	s->start[s->nrounds] = s->npairs;
	return 0;
}

void gdr_sched_free(struct gdr_sched *s)
{
	free(s->start);
	free(s->pair);
	memset(s, 0, sizeof(*s));
}
