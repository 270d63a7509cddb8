/* SPDX-License-Identifier: MIT */
#ifndef GDR_RUN_H
#define GDR_RUN_H

#include "opts.h"

/* The whole program of a test binary: parse, connect, run every size, report. */
int gdr_main(int argc, char **argv, const struct gdr_test *t);

#endif
