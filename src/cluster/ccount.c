/* SPDX-License-Identifier: MIT */
/*
 * -W in cluster mode: the counters of a rank's device around each of its
 * pairs as one text a side, the two sides of a pair joined into the row's
 * counters cell, and rank 0's pool of those cells (one a pair).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"
#include "counters.h"

struct gdr_cwatch {
	char dev[64];
	int port;
	struct gdr_cnt_snap before, after;
	struct gdr_cnt_delta d[GDR_CNT_MAX];
};

struct gdr_cwatch *gdr_cwatch_start(const char *dev, int port, char *why, size_t wn)
{
	struct gdr_cwatch *w = calloc(1, sizeof(*w));

	why[0] = '\0';
	if (!w) {
		snprintf(why, wn, "out of memory");
		return NULL;
	}
	snprintf(w->dev, sizeof(w->dev), "%s", dev);
	w->port = port;
	if (gdr_counters_read(&w->before, w->dev, port) || w->before.unreadable[0])
		snprintf(why, wn, "%s", w->before.unreadable);
	if (!w->before.n) {
		free(w);
		return NULL;
	}
	return w;
}

/* Traffic, not trouble: bytes and packets moved, requests served (listed after the rest). */
static bool traffic(const char *name)
{
	static const char *const tails[] = {"_data", "_bytes", "_packets", "_pkts"};
	const char *base = strchr(name, ':') ? strchr(name, ':') + 1 : name;
	size_t n = strlen(base);

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		size_t k = strlen(tails[i]);

		if (n > k && !strcmp(base + n - k, tails[i]))
			return true;
	}
	return !strncmp(base, "rx_", 3) && n > 9 && !strcmp(base + n - 9, "_requests");
}

void gdr_cwatch_end(struct gdr_cwatch *w, char *buf, size_t len)
{
	struct gdr_cnt_delta *ord;
	int n, k = 0;
	int used;

	if (!w)
		return;
	if (!buf || !len) {
		free(w);
		return;
	}
	gdr_counters_read(&w->after, w->dev, w->port);
	n = gdr_counters_delta(&w->before, &w->after, w->d, GDR_CNT_MAX);
	ord = malloc((size_t)(n ? n : 1) * sizeof(*ord));
	used = snprintf(buf, len, "%s: ", w->dev);
	if (!n || !ord || used < 0 || (size_t)used >= len) {
		snprintf(buf, len, "%s: %s", w->dev, n ? "out of memory" : "none moved");
		free(ord);
		free(w);
		return;
	}
	for (int pass = 0; pass < 2; pass++) /* trouble first, traffic after */
		for (int i = 0; i < n; i++)
			if (traffic(w->d[i].name) == (pass == 1))
				ord[k++] = w->d[i];
	gdr_counters_format(ord, n, buf + used, len - (size_t)used);
	free(ord);
	free(w);
}

void gdr_cpair_text(char *buf, size_t len, const struct gdr_place *pl, int a, int b, const char *ta,
		    const char *tb)
{
	bool hosts = strcmp(pl[a].host, pl[b].host) != 0;
	bool one_nic = !hosts && !strcmp(pl[a].nic, pl[b].nic);
	const char *t[2] = {ta, tb};
	int e[2] = {a, b};
	size_t k = 0;

	buf[0] = '\0';
	if (one_nic && ta[0]) /* one device, read over the same pair by both: once */
		t[1] = "";
	for (int i = 0; i < 2 && k + 1 < len; i++) {
		int w;

		if (!t[i][0])
			continue;
		w = snprintf(buf + k, len - k, "%s%s%s%s", k ? "; " : "",
			     hosts ? pl[e[i]].host : "", hosts ? " " : "", t[i]);
		if (w < 0)
			break;
		k += (size_t)w;
	}
}

/*
 * gcc 12's -fanalyzer reports the copy as leaked once it is stored in t->s, a block
 * that realloc may have moved: it does not follow pointers kept in a heap array
 * (gdr_ctexts_free releases every one).
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
int32_t gdr_ctexts_add(struct gdr_ctexts *t, const char *s)
{
	char *copy;

	if (!s[0])
		return 0;
	if (t->n + 1 >= t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **grown = cap < INT32_MAX ? realloc(t->s, cap * sizeof(*grown)) : NULL;

		if (!grown)
			return 0;
		t->s = grown;
		t->cap = cap;
		if (!t->n)
			t->s[t->n++] = NULL; /* id 0: none */
	}
	copy = strdup(s);
	if (!copy)
		return 0;
	t->s[t->n] = copy; /* owned by t now: gdr_ctexts_free releases it */
	return (int32_t)t->n++;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

const char *gdr_ctexts_get(const struct gdr_ctexts *t, int32_t id)
{
	return t && id > 0 && (size_t)id < t->n ? t->s[id] : NULL;
}

void gdr_ctexts_free(struct gdr_ctexts *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	*t = (struct gdr_ctexts){0};
}
