/* SPDX-License-Identifier: MIT */
/* A shared library loaded once at run time (see dlib.h). */
#include "config.h"
#include "dlib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void *gdr_dlib_open(struct gdr_dlib *l, const char *env, const char *name, const char *hint)
{
	const char *path = getenv(env);
	void *lib;

	if (!path || !*path)
		path = name;
	l->path = path;
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	l->loaded = lib != NULL;
	if (!lib) {
		const char *e = dlerror();

		snprintf(l->why, sizeof(l->why), "%s not found: %s (%s)", path, hint,
			 e ? e : "dlopen failed");
	}
	return lib;
}

int gdr_dlib_once(struct gdr_dlib *l, void (*load)(void), char *why, size_t n)
{
	pthread_once(&l->once, load);
	if (l->rc) {
		if (why && n)
			snprintf(why, n, "%s", l->why);
		return -1;
	}
	return 0;
}
