/* SPDX-License-Identifier: MIT */
/*
 * The unit tests' one check macro: CHECK(cond) or CHECK(cond, "fmt", ...).
 * A failed check prints its place, the condition and the optional note, and
 * counts in `failures`. A test's main ends with return CHECK_DONE() or
 * CHECK_DONE("fmt", ...): one summary line named after the test's file, and its
 * exit status.
 */
#ifndef GDR_TEST_CHECK_H
#define GDR_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/*
 * The summary of a test whose source is file: "t_name: all checks passed" on
 * stdout, or "t_name: N check(s) failed" on stderr; either followed by the
 * optional note (" on GPU ..."). Returns the exit status: 0, or 1 on a failure.
 */
static inline int check_done(const char *file, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline int check_done(const char *file, const char *fmt, ...)
{
	const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	int len = (int)(strrchr(name, '.') ? (size_t)(strrchr(name, '.') - name) : strlen(name));
	FILE *out = failures ? stderr : stdout;
	va_list ap;

	if (failures)
		fprintf(out, "%.*s: %d check(s) failed", len, name, failures);
	else
		fprintf(out, "%.*s: all checks passed", len, name);
	if (fmt[1]) { /* fmt is " " followed by the caller's note, if any */
		va_start(ap, fmt);
		vfprintf(out, fmt, ap);
		va_end(ap);
	}
	fputc('\n', out);
	return failures ? 1 : 0;
}

#define CHECK_DONE(...) check_done(__FILE__, " " __VA_ARGS__)

#endif
