/* SPDX-License-Identifier: MIT */
/* Error, warning and informational lines on stderr, prefixed with the program name. */
#include <stdio.h>
#include <string.h>
#include "log.h"

static const char *prog = "gdrperf";
static char last_err[1024];
int gdr_quiet;

void gdr_set_prog(const char *argv0)
{
	const char *s = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		prog = s ? s + 1 : argv0;
}

const char *gdr_prog(void)
{
	return prog;
}

static void vreport(const char *kind, const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "%s: %s%s\n", prog, kind, line);
}

void gdr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: error: %s\n", prog, last_err);
}

const char *gdr_last_error(void)
{
	return last_err;
}

void gdr_clear_error(void)
{
	last_err[0] = '\0';
}

void gdr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void gdr_info(const char *fmt, ...)
{
	va_list ap;

	if (gdr_quiet)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}
