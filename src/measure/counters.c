/* SPDX-License-Identifier: MIT */
/* -W: read a port's counters, hw_counters and its PCI function's AER counters; diff two reads. */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "counters.h"

static const char *root(void)
{
	const char *r = getenv("GDR_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

static void note(struct gdr_cnt_snap *s, const char *what, int err)
{
	size_t k = strlen(s->unreadable);

	if (k + 4 < sizeof(s->unreadable))
		snprintf(s->unreadable + k, sizeof(s->unreadable) - k, "%s%s (%s)", k ? ", " : "",
			 what, strerror(err));
}

/* A counter; one whose name is taken already (counters/ and hw_counters/ both) keeps its prefix. */
static void add(struct gdr_cnt_snap *s, const char *prefix, const char *name, uint64_t v)
{
	bool taken = false;

	if (s->n >= GDR_CNT_MAX)
		return;
	for (int i = 0; i < s->n && !taken; i++)
		taken = !strcmp(s->c[i].name, name);
	snprintf(s->c[s->n].name, GDR_CNT_NAME, "%s%s",
		 taken || strstr(prefix, "aer:") ? prefix : "", name);
	s->c[s->n++].v = v;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct gdr_cnt *)a)->name, ((const struct gdr_cnt *)b)->name);
}

/* A file holding one unsigned number. 0, else errno. */
static int read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (end == buf || errno || (*end && *end != '\n'))
		return EINVAL;
	return 0;
}

/* Every number file of one folder; unreadable files are named in s->unreadable. */
static int read_dir(struct gdr_cnt_snap *s, const char *dir, const char *label, const char *prefix)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);
	int got = 0;

	if (!d) {
		if (errno != ENOENT)
			note(s, label, errno);
		return errno == ENOENT ? 0 : -1;
	}
	while ((e = readdir(d))) {
		uint64_t v = 0;
		int err;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		err = read_u64(path, &v);
		if (err) {
			char what[300];

			snprintf(what, sizeof(what), "%s/%.255s", label, e->d_name);
			note(s, what, err);
			continue;
		}
		add(s, prefix, e->d_name, v);
		got++;
	}
	closedir(d);
	return got;
}

/*
 * aer_dev_{correctable,fatal,nonfatal} of the PCI function in folder fn: "NAME VALUE" lines;
 * TOTAL_ERR_* kept as named, each with prefix ("aer:" the NIC's, "gpu_aer:" the GPU's).
 */
static void read_aer(struct gdr_cnt_snap *s, const char *fn, const char *prefix)
{
	static const char *const files[] = {"aer_dev_correctable", "aer_dev_nonfatal",
					    "aer_dev_fatal"};
	char path[PATH_MAX], line[128], name[48];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		unsigned long long v;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", fn, files[i]);
		f = fopen(path, "re");
		if (!f) {
			if (errno != ENOENT)
				note(s, files[i], errno);
			continue;
		}
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%47s %llu", name, &v) == 2)
				add(s, prefix, name, v);
		fclose(f);
	}
}

int gdr_counters_read(struct gdr_cnt_snap *s, const char *dev, int port)
{
	char dir[PATH_MAX];
	int a, b;

	s->n = 0;
	s->unreadable[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/%d/counters", root(), dev, port);
	a = read_dir(s, dir, "counters", "");
	snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/%d/hw_counters", root(), dev,
		 port);
	b = read_dir(s, dir, "hw_counters", "hw:");
	if (a <= 0 && b <= 0 && !s->unreadable[0])
		note(s, "counters and hw_counters", ENOENT);
	snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/device", root(), dev);
	read_aer(s, dir, "aer:");
	qsort(s->c, (size_t)s->n, sizeof(s->c[0]), by_name); /* readdir's order is arbitrary */
	return s->n ? 0 : -1;
}

void gdr_counters_read_gpu(struct gdr_cnt_snap *s, const char *bdf)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s", root(), bdf);
	read_aer(s, dir, "gpu_aer:");
	qsort(s->c, (size_t)s->n, sizeof(s->c[0]), by_name);
}

int gdr_counters_delta(const struct gdr_cnt_snap *a, const struct gdr_cnt_snap *b,
		       struct gdr_cnt_delta *d, int max)
{
	int n = 0;

	for (int i = 0; i < b->n && n < max; i++)
		for (int j = 0; j < a->n; j++) {
			if (strcmp(a->c[j].name, b->c[i].name))
				continue;
			if (a->c[j].v != b->c[i].v) {
				memcpy(d[n].name, b->c[i].name, GDR_CNT_NAME);
				d[n++].d = (int64_t)(b->c[i].v - a->c[j].v);
			}
			break;
		}
	return n;
}

void gdr_counters_format(const struct gdr_cnt_delta *d, int n, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && k + 1 < len; i++) {
		int w =
		    snprintf(buf + k, len - k, "%s%s %+" PRId64, i ? ", " : "", d[i].name, d[i].d);

		if (w < 0)
			break;
		k += (size_t)w;
	}
	if (k >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

double gdr_port_rate_sysfs(const char *dev, int port)
{
	char path[PATH_MAX], buf[64];
	double g = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%d/rate", root(), dev, port);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%lf Gb/sec", &g) != 1 || !(g > 0))
		g = 0;
	fclose(f);
	return g;
}
