/* SPDX-License-Identifier: MIT */
/*
 * Prometheus text exposition (the format node_exporter's textfile collector
 * reads): families of gauges with # HELP and # TYPE lines, label values
 * escaped, and the file replaced in one rename so a scrape never sees half.
 */
#ifndef GDR_PROM_H
#define GDR_PROM_H

#include <stdio.h>

struct gdr_prom_label {
	const char *k, *v;
};

/* "# HELP name help" and "# TYPE name gauge"; every sample of name follows it. */
void gdr_prom_family(FILE *f, const char *name, const char *help);
/* name{k="v",...} value (NaN/+Inf written as Prometheus spells them); a label whose v is NULL
 * is left out. */
void gdr_prom_gauge(FILE *f, const char *name, const struct gdr_prom_label *l, int nl, double v);

/* Where Debian's prometheus-node-exporter reads *.prom files (its textfile collector). */
#define GDR_PROM_DEBIAN_DIR "/var/lib/prometheus/node-exporter"

/*
 * Can path take the file? Not a folder (DIR/ included), its folder exists and
 * is writable: 0 (a warning when the name does not end in .prom), or -1 with
 * an error printed (before any network step).
 */
int gdr_prom_check(const char *path, const char *opt);
/*
 * Holds path.lock (flock, this process's pid in it) so that two runs never
 * write one file: the fd, or -1 with an error printed (another run holds it).
 */
int gdr_prom_lock(const char *path, const char *opt);
/* Removes path.lock and lets it go (fd < 0: nothing held). */
void gdr_prom_unlock(const char *path, int fd);
/* Writes text to path through path.tmp.PID and rename(); 0, or -1 with an error printed. */
int gdr_prom_commit(const char *path, const char *opt, const char *text, size_t len);

#endif
