/* SPDX-License-Identifier: MIT */
/* The driver's one entry point: a test binary's main hands it argv and its default test. */
#ifndef GDR_RUN_H
#define GDR_RUN_H

#include "opts.h"

/* The whole program of a test binary: parse, connect, run every size, report. */
int gdr_main(int argc, char **argv, const struct gdr_test *t);

#endif
