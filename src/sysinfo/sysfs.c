/* SPDX-License-Identifier: MIT */
/* Small reads below a root directory (the real / or a test fixture): lines, numbers, bytes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "sysfs.h"

char *fs_path(char *buf, size_t n, const char *root, const char *fmt, ...)
{
	size_t len = strlen(root);
	va_list ap;
	int r;

	while (len > 0 && root[len - 1] == '/')
		len--;
	if (len >= n)
		return NULL;
	memcpy(buf, root, len);
	va_start(ap, fmt);
	r = vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= n - len)
		return NULL;
	return buf;
}

int fs_read_line(const char *path, char *buf, size_t n)
{
	FILE *f;
	size_t len;

	if (!path || n == 0)
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	len = strlen(buf);
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		buf[--len] = '\0';
	return 0;
}

int fs_read_long(const char *path, long *v)
{
	char line[64], *end;

	if (fs_read_line(path, line, sizeof(line)))
		return -1;
	errno = 0;
	*v = strtol(line, &end, 0);
	if (errno || end == line)
		return -1;
	return 0;
}

ssize_t fs_read_bin(const char *path, void *buf, size_t n)
{
	size_t got = 0;
	int fd;

	if (!path)
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return got ? (ssize_t)got : -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return (ssize_t)got;
}

int fs_exists(const char *path)
{
	struct stat st;

	return path && lstat(path, &st) == 0;
}

int fs_link_name(const char *path, char *buf, size_t n)
{
	char target[4096];
	ssize_t r;
	const char *base;

	if (!path)
		return -1;
	r = readlink(path, target, sizeof(target) - 1);
	if (r < 0)
		return -1;
	target[r] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= n)
		return -1;
	strcpy(buf, base);
	return 0;
}

/* Where the trailing run of decimal digits starts (len: none). */
static size_t digits_at(const char *s, size_t len)
{
	while (len && s[len - 1] >= '0' && s[len - 1] <= '9')
		len--;
	return len;
}

int fs_name_cmp(const char *x, const char *y)
{
	size_t lx = strlen(x), ly = strlen(y), px = digits_at(x, lx), py = digits_at(y, ly);
	const char *nx = x + px, *ny = y + py;

	/* the same stem, both numbered: by number ("mlx5_2" < "mlx5_10", "2" < "10") */
	if (px == py && px < lx && py < ly && !strncmp(x, y, px)) {
		while (*nx == '0' && nx[1])
			nx++;
		while (*ny == '0' && ny[1])
			ny++;
		if (strlen(nx) != strlen(ny))
			return strlen(nx) < strlen(ny) ? -1 : 1;
		if (strcmp(nx, ny))
			return strcmp(nx, ny);
	}
	return strcmp(x, y);
}

static int cmp_names(const void *a, const void *b)
{
	return fs_name_cmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * gcc 12's -fanalyzer reports the names as leaked once realloc has moved v: it
 * does not carry the pointers over to the new block (they are all returned in
 * *names and freed by fs_free_names).
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
int fs_list(const char *dir, char ***names)
{
	DIR *d;
	struct dirent *e;
	char **v = NULL;
	int count = 0, cap = 0;

	*names = NULL;
	if (!dir)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (count == cap) {
			char **nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[count] = strdup(e->d_name);
		if (!v[count])
			break;
		count++;
	}
	closedir(d);
	if (count)
		qsort(v, (size_t)count, sizeof(*v), cmp_names);
	*names = v;
	return count;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

void fs_free_names(char **names, int count)
{
	for (int i = 0; i < count; i++)
		free(names[i]);
	free(names);
}
