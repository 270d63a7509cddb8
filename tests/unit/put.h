/* SPDX-License-Identifier: MIT */
/*
 * Fixture files for the tests: put(root, rel, text) writes text to root/rel,
 * creating the folders between them. A file that cannot be written ends the
 * test with status 1 (what follows would test nothing).
 */
#ifndef GDR_TEST_PUT_H
#define GDR_TEST_PUT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static inline void put(const char *root, const char *rel, const char *text)
{
	char path[4096], *p;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path)) {
		fprintf(stderr, "put: %s/%s: path too long\n", root, rel);
		exit(1);
	}
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			fprintf(stderr, "put: mkdir %s: %s\n", path, strerror(errno));
			exit(1);
		}
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "put: cannot write %s\n", path);
		exit(1);
	}
}

#endif
