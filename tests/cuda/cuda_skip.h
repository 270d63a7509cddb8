/* SPDX-License-Identifier: MIT */
/*
 * The CUDA tests' prologue: the driver API (the real libcuda, or the double that
 * GDR_LIBCUDA names), or "skip: WHY" and exit status 77, automake's SKIP, on a host
 * without one.
 */
#ifndef GDR_TESTS_CUDA_SKIP_H
#define GDR_TESTS_CUDA_SKIP_H

#include <stdio.h>
#include <stdlib.h>
#include "cuda_api.h"

static inline const struct gdr_cuda_api *cuda_or_skip(void)
{
	const struct gdr_cuda_api *cu;
	char why[256];

	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		printf("skip: %s\n", why);
		exit(77);
	}
	return cu;
}

#endif
