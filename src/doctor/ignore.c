/* SPDX-License-Identifier: MIT */
/* Ports declared unused: see ignore.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ignore.h"

/*
 * The next entry of *s: its device (dev, up to 63 chars; "" when malformed) and
 * port ("" = every port; "?" after a colon with nothing behind it).
 */
static bool next_entry(const char **s, char *dev, char *port)
{
	const char *p = *s, *end, *colon;
	size_t dl, pl;

	if (!p || !*p)
		return false;
	end = strchr(p, ',');
	if (!end)
		end = p + strlen(p);
	colon = memchr(p, ':', (size_t)(end - p));
	dl = (size_t)((colon ? colon : end) - p);
	pl = colon ? (size_t)(end - colon - 1) : 0;
	snprintf(dev, 64, "%.*s", (int)(dl < 63 ? dl : 63), p);
	snprintf(port, 16, "%.*s", (int)(pl < 15 ? pl : 15), colon ? colon + 1 : "");
	if (dl > 63 || pl > 15)
		dev[0] = '\0'; /* too long: reported as malformed */
	if (colon && !pl)
		snprintf(port, 16, "?");
	*s = *end ? end + 1 : end;
	return true;
}

int doc_ignore_parse(const char *list, char *why, size_t n)
{
	const char *s = list;
	char dev[64], port[16];

	if (!list || !*list) {
		snprintf(why, n, "an empty list (give DEV or DEV:PORT, e.g. mlx5_3:1)");
		return -1;
	}
	while (next_entry(&s, dev, port)) {
		char *e;
		long p = port[0] ? strtol(port, &e, 10) : 1;

		if (!port[0])
			e = port;

		if (!dev[0] || strchr(dev, '/') || (port[0] && (*e || p < 1 || p > 255))) {
			snprintf(why, n, "'%s' is not DEV or DEV:PORT (e.g. mlx5_3:1)", list);
			return -1;
		}
	}
	if (list[strlen(list) - 1] == ',') {
		snprintf(why, n, "'%s' ends with a comma", list);
		return -1;
	}
	return 0;
}

bool doc_ignore_match(const char *list, const char *dev, const char *port)
{
	const char *s = list;
	char d[64], p[16];

	while (next_entry(&s, d, p))
		if (!strcmp(d, dev) && (!p[0] || atoi(p) == atoi(port)))
			return true;
	return false;
}

bool doc_ignore_unknown(const char *list, char (*names)[64], int n, char *buf, size_t len)
{
	const char *s = list;
	char d[64], p[16];

	while (next_entry(&s, d, p)) {
		int i;

		for (i = 0; i < n && strcmp(names[i], d); i++)
			;
		if (i == n) {
			snprintf(buf, len, "%s%s%s", d, p[0] ? ":" : "", p);
			return true;
		}
	}
	return false;
}
