/* SPDX-License-Identifier: MIT */
/* Error reporting: the first function that detects an error reports it, callers propagate. */
#ifndef GDR_LOG_H
#define GDR_LOG_H

#include <stdarg.h>

/* Program name used as the prefix of every message ("gdr_write_bw: ..."). */
void gdr_set_prog(const char *argv0);
const char *gdr_prog(void);

/* One line on stderr: "<prog>: error: <message>". */
void gdr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line on stderr: "<prog>: warning: <message>". */
void gdr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Informational line on stderr, suppressed by gdr_quiet. */
void gdr_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int gdr_quiet;
/* The last error line (without prefix), "" after gdr_clear_error (cluster results). */
const char *gdr_last_error(void);
void gdr_clear_error(void);

#endif
