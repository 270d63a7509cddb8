/* SPDX-License-Identifier: MIT */
/* A persistent kernel's PTX image: the embedded one, or a file read whole (gpukern.h). */
#include "config.h"
#include "gpukern.h"

#include <stdio.h>
#include <stdlib.h>

#define CHUNK 65536

/* The whole stream f, NUL-terminated: NULL when it cannot be read or is empty. */
static char *read_all(FILE *f)
{
	char *buf = NULL;
	size_t len = 0, got;

	for (;;) {
		char *b = realloc(buf, len + CHUNK + 1);

		if (!b) {
			free(buf);
			return NULL;
		}
		buf = b;
		got = fread(buf + len, 1, CHUNK, f);
		len += got;
		if (got < CHUNK)
			break;
	}
	if (ferror(f) || !len) {
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

char *gdr_gpukern_ptx(const struct gdr_gpukern_image *img, char *why, size_t n)
{
	const char *path = img->env ? getenv(img->env) : NULL;
	char *buf = NULL;
	FILE *f;

	if (!path || !*path)
		return (char *)img->ptx;
	f = fopen(path, "r");
	if (f) {
		buf = read_all(f);
		fclose(f);
	}
	if (!buf)
		snprintf(why, n, "%s=%s: cannot read that PTX file", img->env, path);
	return buf;
}

void gdr_gpukern_ptx_free(const struct gdr_gpukern_image *img, char *ptx)
{
	if (ptx != img->ptx)
		free(ptx);
}
