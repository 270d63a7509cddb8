/* SPDX-License-Identifier: MIT */
/* The whole program of a test binary: parse, then run one pair or, with --cluster, every pair. */
#ifndef GDR_LAUNCH_H
#define GDR_LAUNCH_H

#include "opts.h"

int gdr_main(int argc, char **argv, const struct gdr_test *t);

#endif
