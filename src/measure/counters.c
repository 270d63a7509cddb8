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
#include <unistd.h>
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

/*
 * The IB PortCounters behind counters/ (drivers/infiniband/core/sysfs.c,
 * PORT_PMA_ATTR widths): they saturate at their maximum, all ones, and count
 * no more until reset. The data and packet counters are 32-bit in the basic
 * set and 64-bit where the port's PMA has extended width (mlx5, bnxt_re): the
 * kernel then shows the extended set, which alone has unicast_xmit_packets
 * (ext_bits). port_xmit_wait is 32-bit in both.
 */
static const struct {
	const char *name;
	int bits;
	int ext_bits; /* in the extended set; 0: the same */
} widths[] = {
    {"symbol_error", 16, 0},
    {"link_error_recovery", 8, 0},
    {"link_downed", 8, 0},
    {"port_rcv_errors", 16, 0},
    {"port_rcv_remote_physical_errors", 16, 0},
    {"port_rcv_switch_relay_errors", 16, 0},
    {"port_xmit_discards", 16, 0},
    {"port_xmit_constraint_errors", 8, 0},
    {"port_rcv_constraint_errors", 8, 0},
    {"local_link_integrity_errors", 4, 0},
    {"excessive_buffer_overrun_errors", 4, 0},
    {"VL15_dropped", 16, 0},
    {"port_xmit_wait", 32, 0},
    {"port_xmit_data", 32, 64},
    {"port_rcv_data", 32, 64},
    {"port_xmit_packets", 32, 64},
    {"port_rcv_packets", 32, 64},
};

/* Where counter name stops: all ones at its width (ext: the extended set); 0 = not a PMA one. */
static uint64_t pma_max(const char *name, bool ext)
{
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (!strcmp(widths[i].name, name)) {
			int bits = ext && widths[i].ext_bits ? widths[i].ext_bits : widths[i].bits;

			return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
		}
	return 0;
}

/* port_xmit_data and port_rcv_data count octets divided by 4 (ABI sysfs-class-infiniband). */
static bool in_words(const char *name)
{
	return !strcmp(name, "port_xmit_data") || !strcmp(name, "port_rcv_data");
}

/*
 * A counter of folder prefix ("" counters/, "hw:" hw_counters/, "aer:" ...);
 * one whose name is taken already (counters/ and hw_counters/ both) keeps its
 * prefix. Data counters become bytes ("port_xmit_data_bytes"). ext: counters/
 * is the extended set (64-bit data and packets).
 */
static void add(struct gdr_cnt_snap *s, const char *prefix, const char *name, uint64_t v, bool ext)
{
	bool taken = false, pma = !*prefix, words = pma && in_words(name);
	struct gdr_cnt *c;

	if (s->n >= GDR_CNT_MAX)
		return;
	for (int i = 0; i < s->n && !taken; i++)
		taken = !strcmp(s->c[i].name, name);
	c = &s->c[s->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, GDR_CNT_NAME, "%s%.40s%s", taken || strstr(prefix, "aer:") ? prefix : "",
		 name, words ? "_bytes" : "");
	snprintf(c->file, GDR_CNT_NAME, "%s", name);
	c->hw = !strcmp(prefix, "hw:");
	c->max = pma ? pma_max(name, ext) : 0;
	c->sat = c->max && v == c->max; /* above it: a wider counter than its set says */
	c->v = words && v <= UINT64_MAX / 4 ? v * 4 : v;
	if (words)
		c->max = c->max <= UINT64_MAX / 4 ? c->max * 4 : UINT64_MAX;
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

/* Whether folder dir (a port's counters/) is the extended set: it has unicast_xmit_packets. */
static bool extended_set(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/unicast_xmit_packets", dir);
	return access(path, F_OK) == 0;
}

/* Every number file of one folder; unreadable files are named in s->unreadable. */
static int read_dir(struct gdr_cnt_snap *s, const char *dir, const char *label, const char *prefix)
{
	bool ext = !*prefix && extended_set(dir);
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
		add(s, prefix, e->d_name, v, ext);
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
				add(s, prefix, name, v, false);
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

/* Whether list names counter c: "counters/NAME", "hw_counters/NAME" or "NAME". */
static bool listed(const char *list, const struct gdr_cnt *c)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ","), k = n;
		const char *name = p, *slash = memchr(p, '/', n);

		if (slash) {
			size_t f = (size_t)(slash - p);
			bool hw = f == 11 && !strncmp(p, "hw_counters", 11);

			name = slash + 1;
			k = n - f - 1;
			if (hw != c->hw || (!hw && !(f == 8 && !strncmp(p, "counters", 8))))
				name = NULL;
		}
		if (name && strlen(c->file) == k && !strncmp(c->file, name, k) &&
		    !strstr(c->name, "aer:"))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/*
 * after - before of one counter: a 32-bit hw counter below where it was has
 * wrapped (mlx5's Q counters are 32-bit, QUERY_Q_COUNTER); any other went
 * back because it was reset (negative).
 */
static int64_t moved(const struct gdr_cnt *a, const struct gdr_cnt *b, bool *wrapped)
{
	*wrapped = b->hw && b->v < a->v && a->v <= UINT32_MAX;
	if (*wrapped)
		return (int64_t)(b->v + (1ULL << 32) - a->v);
	return (int64_t)(b->v - a->v);
}

int gdr_counters_delta_list(const struct gdr_cnt_snap *a, const struct gdr_cnt_snap *b,
			    const char *list, struct gdr_cnt_delta *d, int max)
{
	int n = 0;

	for (int i = 0; i < b->n && n < max; i++)
		for (int j = 0; j < a->n; j++) {
			const struct gdr_cnt *cb = &b->c[i];
			bool wrapped, want;
			int64_t m;

			if (strcmp(a->c[j].name, cb->name))
				continue;
			m = moved(&a->c[j], cb, &wrapped);
			want = list ? listed(list, cb) : m != 0 || cb->sat;
			if (want) {
				memset(&d[n], 0, sizeof(d[n]));
				memcpy(d[n].name, cb->name, GDR_CNT_NAME);
				d[n].d = m;
				d[n].sat = cb->sat;
				d[n].max = cb->max;
				d[n].hw32 =
				    cb->hw && a->c[j].v <= UINT32_MAX && cb->v <= UINT32_MAX;
				d[n++].wrapped = wrapped;
			}
			break;
		}
	return n;
}

int gdr_counters_delta(const struct gdr_cnt_snap *a, const struct gdr_cnt_snap *b,
		       struct gdr_cnt_delta *d, int max)
{
	return gdr_counters_delta_list(a, b, NULL, d, max);
}

int gdr_counters_missing(const struct gdr_cnt_snap *s, const char *list, char *buf, size_t len)
{
	int miss = 0;

	buf[0] = '\0';
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ","), k = strlen(buf);
		bool found = false;
		char entry[160];

		snprintf(entry, sizeof(entry), "%.*s", (int)(n < 150 ? n : 150), p);
		for (int i = 0; i < s->n && !found; i++)
			found = listed(entry, &s->c[i]);
		if (!found) {
			miss++;
			if (k + 1 < len)
				snprintf(buf + k, len - k, "%s%s", k ? ", " : "", entry);
		}
		p += n + (p[n] == ',');
	}
	return miss;
}

int gdr_counters_wrap_risk(struct gdr_cnt_delta *d, int n, double events)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		d[i].multi_wrap = d[i].hw32 && events >= 4294967296.0;
		k += d[i].multi_wrap;
	}
	return k;
}

/* One delta as text: "rcvd_pkts +1200", and what a saturated or wrapped counter means. */
static int one(char *buf, size_t len, const struct gdr_cnt_delta *d, const char *sep)
{
	static const char multi[] =
	    "may have wrapped more than once, undercounted by a multiple of 2^32";

	if (d->sat)
		return snprintf(buf, len,
				"%s%s %+" PRId64 " SATURATED at %" PRIu64
				" (counts no more: reset it, e.g. perfquery -R)",
				sep, d->name, d->d, d->max);
	if (d->multi_wrap)
		return snprintf(buf, len, "%s%s %+" PRId64 " (32-bit%s %s)", sep, d->name, d->d,
				d->wrapped ? " wrap;" : ":", multi);
	return snprintf(buf, len, "%s%s %+" PRId64 "%s", sep, d->name, d->d,
			d->wrapped ? " (32-bit wrap)" : "");
}

void gdr_counters_format(const struct gdr_cnt_delta *d, int n, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && k + 1 < len; i++) {
		int w = one(buf + k, len - k, &d[i], i ? ", " : "");

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
