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
/* name{k="v",...} value (NaN/+Inf written as Prometheus spells them). */
void gdr_prom_gauge(FILE *f, const char *name, const struct gdr_prom_label *l, int nl, double v);

/* Can path's folder take the file? 0, or -1 with an error printed (before any network step). */
int gdr_prom_check(const char *path, const char *opt);
/* Writes text to path through path.tmp.PID and rename(); 0, or -1 with an error printed. */
int gdr_prom_commit(const char *path, const char *opt, const char *text, size_t len);

#endif
