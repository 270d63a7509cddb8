/* SPDX-License-Identifier: MIT */
/* Reading small files below a root directory (the real / or a test fixture). */
#ifndef GDR_SYSINFO_SYSFS_H
#define GDR_SYSINFO_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

/* Build "<root><path>" into buf (root "/" adds nothing). Returns buf, or NULL if too long. */
char *fs_path(char *buf, size_t n, const char *root, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Read the first line of a file, trailing newline and blanks removed. 0 or -1. */
int fs_read_line(const char *path, char *buf, size_t n);

/* Read a number written in C notation ("0x10de", "-1", "4096"). 0 or -1. */
int fs_read_long(const char *path, long *v);

/* Read up to n bytes of a binary file. Returns the count read, or -1. */
ssize_t fs_read_bin(const char *path, void *buf, size_t n);

/* 1 if the path exists (any kind of file), else 0. */
int fs_exists(const char *path);

/* Base name of a symbolic link's target ("mlx5_core" for .../driver). 0 or -1. */
int fs_link_name(const char *path, char *buf, size_t n);

/*
 * Name order: strcmp's, but names of one stem ending in numbers by the number
 * ("mlx5_2" before "mlx5_10", "2" before "10"), as a person counts devices.
 */
int fs_name_cmp(const char *a, const char *b);

/*
 * Sorted names (fs_name_cmp) of a directory's entries, "." and ".." left out. Returns the
 * count (0 when the directory is missing) and *names (free with fs_free_names).
 */
int fs_list(const char *dir, char ***names);
void fs_free_names(char **names, int count);

#endif
