/* SPDX-License-Identifier: MIT */
/* Prometheus text format: families, escaped labels, an atomic replace of the file. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "log.h"
#include "prom.h"

/* HELP text: backslash and line feed escaped. */
static void put_help(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* A label value: backslash, double quote and line feed escaped. */
static void put_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

void gdr_prom_family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s ", name);
	put_help(f, help);
	fprintf(f, "\n# TYPE %s gauge\n", name);
}

void gdr_prom_gauge(FILE *f, const char *name, const struct gdr_prom_label *l, int nl, double v)
{
	fputs(name, f);
	for (int i = 0; i < nl; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "{", l[i].k);
		put_value(f, l[i].v ? l[i].v : "");
		fputc('"', f);
	}
	if (nl)
		fputc('}', f);
	if (isnan(v))
		fputs(" NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
	else
		fprintf(f, " %.17g\n", v);
}

int gdr_prom_check(const char *path, const char *opt)
{
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		gdr_err("%s=%s: cannot write there: %s", opt, path, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int gdr_prom_commit(const char *path, const char *opt, const char *text, size_t len)
{
	char tmp[4096];
	size_t off = 0;
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp)) {
		gdr_err("%s=%s: the path is too long", opt, path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		gdr_err("%s=%s: cannot write %s: %s", opt, path, tmp, strerror(errno));
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			gdr_err("%s=%s: write failed: %s", opt, path,
				w < 0 ? strerror(errno) : "short write");
			close(fd);
			unlink(tmp);
			return -1;
		}
		off += (size_t)w;
	}
	if (fsync(fd) < 0 && errno != EINVAL && errno != EROFS) {
		gdr_err("%s=%s: cannot flush %s: %s", opt, path, tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) < 0) {
		gdr_err("%s=%s: cannot close %s: %s", opt, path, tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		gdr_err("%s=%s: cannot rename %s into place: %s", opt, path, tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
