/* SPDX-License-Identifier: MIT */
/*
 * Schedules the user gives: a pairs file (one round per line, rank pairs
 * "A:B"), or the flagged pairs of an earlier run's CSV (retest), packed into
 * rounds where no rank is twice. Pure text work, no MPI.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "log.h"

#define TEXT_MAX (256u << 20)

int gdr_read_text(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, n = 0, got;
	char *buf = NULL, *grown;

	*out = NULL;
	if (!f) {
		gdr_err("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	do {
		cap *= 2;
		grown = cap <= TEXT_MAX ? realloc(buf, cap + 1) : NULL;
		if (!grown) {
			gdr_err("%s: %s", path, cap > TEXT_MAX ? "over 256 MiB" : "out of memory");
			free(buf);
			fclose(f);
			return -1;
		}
		buf = grown;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (n == cap);
	if (ferror(f)) {
		gdr_err("cannot read %s: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	return 0;
}

/* Room for pairs (n of them) in rounds (at most n + 1). */
static int sched_alloc(struct gdr_sched *s, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->start = calloc(n + 2, sizeof(*s->start));
	s->pair = calloc(n ? n : 1, sizeof(*s->pair));
	if (s->start && s->pair)
		return 0;
	gdr_sched_free(s);
	gdr_err("out of memory building the schedule");
	return -1;
}

/* One "A:B" (or "A-B") token; 0, or -1 with why set. */
static int pair_token(const char *t, int nranks, unsigned p[2], const char **why)
{
	char *end;
	unsigned long a, b;

	*why = "a pair is RANK:RANK";
	if (*t < '0' || *t > '9')
		return -1;
	a = strtoul(t, &end, 10);
	if (*end != ':' && *end != '-')
		return -1;
	t = end + 1;
	if (*t < '0' || *t > '9')
		return -1;
	b = strtoul(t, &end, 10);
	if (*end)
		return -1;
	*why = "rank out of range";
	if (a >= (unsigned long)nranks || b >= (unsigned long)nranks)
		return -1;
	*why = "a rank paired with itself";
	if (a == b)
		return -1;
	p[0] = (unsigned)(a < b ? a : b);
	p[1] = (unsigned)(a < b ? b : a);
	return 0;
}

int gdr_pairs_parse(const char *text, const char *name, int nranks, struct gdr_sched *s)
{
	size_t tokens = 1;
	unsigned *seen = calloc(nranks > 0 ? (size_t)nranks : 1, sizeof(*seen));
	char *copy = strdup(text), *line, *save = NULL;
	int lineno = 0, rc = -1;

	for (const char *p = text; *p; p++)
		tokens += *p == ':' || *p == '-';
	if (!seen || !copy || sched_alloc(s, tokens)) {
		if (!seen || !copy)
			gdr_err("out of memory");
		goto out;
	}
	for (line = copy; line; line = save) {
		char *tok, *tsave = NULL;
		unsigned before = s->npairs;

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		line[strcspn(line, "#")] = '\0';
		for (tok = strtok_r(line, " \t\r,", &tsave); tok;
		     tok = strtok_r(NULL, " \t\r,", &tsave)) {
			unsigned *p = s->pair[s->npairs];
			const char *why;

			if (pair_token(tok, nranks, p, &why)) {
				gdr_err("%s:%d: '%s': %s (ranks 0..%d; one round per line, e.g. "
					"\"0:1 2:3\")",
					name, lineno, tok, why, nranks - 1);
				goto fail;
			}
			if (seen[p[0]] == s->nrounds + 1 || seen[p[1]] == s->nrounds + 1) {
				gdr_err("%s:%d: rank %u is in two pairs of this round", name, lineno,
					seen[p[0]] == s->nrounds + 1 ? p[0] : p[1]);
				goto fail;
			}
			seen[p[0]] = seen[p[1]] = s->nrounds + 1;
			s->npairs++;
		}
		if (s->npairs > before)
			s->start[++s->nrounds] = s->npairs;
	}
	if (!s->npairs) {
		gdr_err("%s: no pairs (one round per line, e.g. \"0:1 2:3\")", name);
		goto fail;
	}
	rc = 0;
	goto out;
fail:
	gdr_sched_free(s);
out:
	free(seen);
	free(copy);
	return rc;
}

/* The next CSV field of *p into buf (quotes undone); *p moves past its comma. */
static void csv_field(const char **p, char *buf, size_t len)
{
	const char *q = *p;
	size_t n = 0;
	bool quoted = *q == '"';

	for (q += quoted; *q && *q != '\n'; q++) {
		if (quoted && *q == '"') {
			if (q[1] != '"') {
				quoted = false;
				continue;
			}
			q++;
		} else if (!quoted && *q == ',') {
			break;
		}
		if (n + 1 < len)
			buf[n++] = *q;
	}
	buf[n] = '\0';
	*p = *q == ',' ? q + 1 : q;
}

enum { C_HOST_A, C_RAIL_A, C_HOST_B, C_RAIL_B, C_STATUS, C_N };

/* Column numbers of the fields retest reads; -1 when one is missing. */
static int csv_columns(const char **p, int col[C_N])
{
	static const char *const names[C_N] = {"host_a", "rail_a", "host_b", "rail_b", "status"};
	char f[64];

	for (int c = 0; c < C_N; c++)
		col[c] = -1;
	for (int i = 0; **p && **p != '\n'; i++) {
		csv_field(p, f, sizeof(f));
		for (int c = 0; c < C_N; c++)
			if (!strcmp(f, names[c]))
				col[c] = i;
	}
	for (int c = 0; c < C_N; c++)
		if (col[c] < 0)
			return -1;
	return 0;
}

/* The rank at host h, rail r; -1 when this job has none there. */
static int rank_at(const struct gdr_place *pl, int nranks, const char *h, const char *r)
{
	char *end;
	long rail = strtol(r, &end, 10);

	for (int i = 0; *r && !*end && i < nranks; i++)
		if (pl[i].rail == rail && !strcmp(pl[i].host, h))
			return i;
	return -1;
}

static int by_pair(const void *x, const void *y)
{
	const unsigned *a = x, *b = y;

	return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* Pack s->pair[0..npairs) into rounds with no rank twice (first fit, in order). */
static int pack(struct gdr_sched *s, int nranks)
{
	unsigned(*in)[2] = malloc((s->npairs ? s->npairs : 1) * sizeof(*in));
	unsigned *busy = calloc((size_t)nranks, sizeof(*busy));
	char *done = calloc(s->npairs ? s->npairs : 1, 1);
	unsigned left = s->npairs, k = 0;

	if (!in || !busy || !done) {
		free(in);
		free(busy);
		free(done);
		gdr_err("out of memory");
		return -1;
	}
	memcpy(in, s->pair, s->npairs * sizeof(*in));
	for (s->nrounds = 0; left; s->start[++s->nrounds] = k)
		for (unsigned i = 0; i < s->npairs; i++) {
			if (done[i] || busy[in[i][0]] == s->nrounds + 1 ||
			    busy[in[i][1]] == s->nrounds + 1)
				continue;
			busy[in[i][0]] = busy[in[i][1]] = s->nrounds + 1;
			memcpy(s->pair[k++], in[i], sizeof(in[i]));
			done[i] = 1;
			left--;
		}
	free(in);
	free(busy);
	free(done);
	return 0;
}

int gdr_retest_parse(const char *csv, const char *name, const struct gdr_place *pl, int nranks,
		     struct gdr_sched *s, unsigned *unmatched)
{
	const char *p = csv;
	size_t lines = 1;
	int col[C_N], last = 0;
	unsigned n = 0;

	*unmatched = 0;
	for (const char *q = csv; *q; q++)
		lines += *q == '\n';
	if (csv_columns(&p, col)) {
		gdr_err("%s: not a cluster CSV (no host_a, rail_a, host_b, rail_b and status "
			"columns)",
			name);
		return -1;
	}
	for (int c = 0; c < C_N; c++)
		last = col[c] > last ? col[c] : last;
	if (sched_alloc(s, lines))
		return -1;
	while (*p) {
		char f[C_N][80] = { { 0 } }, cell[80]; /* every column is read (csv_columns) */
		int a, b;

		p += *p == '\n';
		if (!*p)
			break;
		for (int i = 0; i <= last; i++) {
			csv_field(&p, cell, sizeof(cell));
			for (int c = 0; c < C_N; c++)
				if (col[c] == i)
					snprintf(f[c], sizeof(f[c]), "%s", cell);
		}
		p += strcspn(p, "\n"); /* the rest of the row */
		if (strcmp(f[C_STATUS], "SLOW") && strcmp(f[C_STATUS], "FAIL") &&
		    strcmp(f[C_STATUS], "TIMEOUT"))
			continue;
		a = rank_at(pl, nranks, f[C_HOST_A], f[C_RAIL_A]);
		b = rank_at(pl, nranks, f[C_HOST_B], f[C_RAIL_B]);
		if (a < 0 || b < 0 || a == b) {
			(*unmatched)++;
			continue;
		}
		s->pair[n][0] = (unsigned)(a < b ? a : b);
		s->pair[n][1] = (unsigned)(a < b ? b : a);
		n++;
	}
	qsort(s->pair, n, sizeof(*s->pair), by_pair);
	s->npairs = 0;
	for (unsigned i = 0; i < n; i++)
		if (!i || by_pair(s->pair[i], s->pair[i - 1]))
			memcpy(s->pair[s->npairs++], s->pair[i], sizeof(s->pair[i]));
	if (pack(s, nranks)) {
		gdr_sched_free(s);
		return -1;
	}
	return 0;
}
