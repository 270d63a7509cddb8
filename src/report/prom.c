/* SPDX-License-Identifier: MIT */
/* Prometheus text format: families, escaped labels, an atomic replace of the file. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
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
	int put = 0;

	fputs(name, f);
	for (int i = 0; i < nl; i++) {
		if (!l[i].v) /* a label that does not apply to this sample */
			continue;
		fprintf(f, "%s%s=\"", put++ ? "," : "{", l[i].k);
		put_value(f, l[i].v);
		fputc('"', f);
	}
	if (put)
		fputc('}', f);
	if (isnan(v))
		fputs(" NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
	else
		fprintf(f, " %.17g\n", v);
}

/* The folder that holds path ("." for a bare name), in buf. */
static void folder_of(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, n, ".");
	else if (slash == path)
		snprintf(buf, n, "/");
	else
		snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

int gdr_prom_check(const char *path, const char *opt)
{
	char tmp[4096], dir[4096];
	struct stat st;
	size_t n = strlen(path);
	int fd;

	if (!n || path[n - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		gdr_err("%s=%s: names a folder; give a file in it, e.g. %s%sgdrperf.prom", opt,
			path, path, n && path[n - 1] == '/' ? "" : "/");
		return -1;
	}
	folder_of(path, dir, sizeof(dir));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		gdr_err("%s=%s: cannot write there: the folder %s does not exist (Debian's "
			"node exporter reads %s)",
			opt, path, dir, GDR_PROM_DEBIAN_DIR);
		return -1;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp)) {
		gdr_err("%s=%s: the path is too long", opt, path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		gdr_err("%s=%s: cannot write there: %s", opt, path, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(tmp);
	if (n < 5 || strcmp(path + n - 5, ".prom"))
		gdr_warn("%s=%s: node_exporter's textfile collector reads only *.prom files", opt,
			 path);
	return 0;
}

int gdr_prom_lock(const char *path, const char *opt)
{
	char lock[4096], pid[32] = "";

	if (snprintf(lock, sizeof(lock), "%s.lock", path) >= (int)sizeof(lock)) {
		gdr_err("%s=%s: the path is too long", opt, path);
		return -1;
	}
	for (int tries = 0; tries < 8; tries++) {
		struct stat a, b;
		int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		ssize_t r;

		if (fd < 0) {
			gdr_err("%s=%s: cannot create %s: %s", opt, path, lock, strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;

			r = read(fd, pid, sizeof(pid) - 1);
			pid[r > 0 ? r : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			close(fd);
			if (e == EWOULDBLOCK)
				gdr_err("%s=%s: another run%s%s%s is writing this file (%s is "
					"locked); wait for it, or give each run its own file",
					opt, path, pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "",
					lock);
			else
				gdr_err("%s=%s: cannot lock %s: %s", opt, path, lock, strerror(e));
			return -1;
		}
		/* the holder before us may have removed the file we opened: lock the one there */
		if (fstat(fd, &a) || stat(lock, &b) || a.st_ino != b.st_ino ||
		    a.st_dev != b.st_dev) {
			close(fd);
			continue;
		}
		/* the pid is only for the message of a run that finds the lock taken */
		snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		r = ftruncate(fd, 0) ? -1 : pwrite(fd, pid, strlen(pid), 0);
		(void)r;
		return fd;
	}
	gdr_err("%s=%s: cannot lock %s: it keeps being replaced", opt, path, lock);
	return -1;
}

void gdr_prom_unlock(const char *path, int fd)
{
	char lock[4096];

	if (fd < 0)
		return;
	if (snprintf(lock, sizeof(lock), "%s.lock", path) < (int)sizeof(lock))
		unlink(lock); /* while still held: the next run creates and locks its own */
	close(fd);
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
