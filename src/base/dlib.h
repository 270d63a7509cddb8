/* SPDX-License-Identifier: MIT */
/*
 * A shared library loaded at run time, once per process: the once-state, the
 * dlopen of the path an environment variable names (else a default name), and
 * the reason a failed load keeps for every later caller. memory/cuda_api.c
 * (libcuda.so.1) and memory/gdrapi.c (libgdrapi.so.2) load through it.
 */
#ifndef GDR_DLIB_H
#define GDR_DLIB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct gdr_dlib {
	pthread_once_t once;
	int rc;		  /* 0 once the loader succeeded, else -1 */
	const char *path; /* what gdr_dlib_open opened or tried */
	char why[320];	  /* why the load failed: one line, no newline */
	bool loaded;	  /* dlopen succeeded: the library is in this process */
};

#define GDR_DLIB_INIT                                                                              \
	{                                                                                          \
		PTHREAD_ONCE_INIT, -1, NULL, "", false                                             \
	}

/*
 * dlopen $env when it is set and not empty, else name (RTLD_NOW, RTLD_LOCAL);
 * l->path says which, l->loaded whether it is in the process now. NULL on
 * failure, with "<path> not found: <hint> (<dlerror>)" in l->why.
 */
void *gdr_dlib_open(struct gdr_dlib *l, const char *env, const char *name, const char *hint);

/*
 * Run load once per process (it fills l: rc 0 on success, else why), then
 * answer: 0, or -1 with l->why copied into why (n bytes; why may be NULL).
 */
int gdr_dlib_once(struct gdr_dlib *l, void (*load)(void), char *why, size_t n);

#endif
