/* SPDX-License-Identifier: MIT */
/*
 * The unit tests' one check macro: CHECK(cond) or CHECK(cond, "fmt", ...).
 * A failed check prints its place, the condition and the optional note, and
 * counts in `failures`; a test returns failures ? 1 : 0.
 */
#ifndef GDR_TEST_CHECK_H
#define GDR_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int failures;

static inline void check_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void check_note(const char *fmt, ...)
{
	va_list ap;

	if (fmt[2]) { /* fmt is ": " followed by the caller's note, if any */
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
}

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			fprintf(stderr, "FAIL %s:%d: check failed: %s", __FILE__, __LINE__,        \
				#cond);                                                            \
			check_note(": " __VA_ARGS__);                                              \
		}                                                                                  \
	} while (0)

#endif
