/* SPDX-License-Identifier: MIT */
/* Values only the tests have: percentiles, --sizes, a GPU index or "auto", --cluster[=P]. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "opts_table.h"

#define FIELD(o, e, type) ((type *)((char *)(o) + (e)->off))

int gdr_test_pct(const struct gdr_opt *e, void *settings, const char *s, const char *lab, bool user)
{
	struct gdr_opts *o = settings;
	char buf[256], *tok, *save = NULL;
	int n = 0;

	(void)user;
	if (strlen(s) >= sizeof(buf) || !*s) {
		gdr_err("%s: '%s' is not a percentile list (use e.g. 50,99,99.9)", lab, s);
		return -1;
	}
	strcpy(buf, s);
	if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,")) {
		gdr_err("%s: '%s' has an empty entry (use e.g. 50,99,99.9)", lab, s);
		return -1;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double q;

		if (gdr_opt_double(tok, &q)) {
			gdr_err("%s: '%s' is not a percentile (use e.g. 50,99,99.9)", lab, tok);
			return -1;
		}
		if (!gdr_opt_in_range(e, q)) {
			gdr_err("%s: %s is out of range (each must be > 0 and <= 100)", lab, tok);
			return -1;
		}
		if (n == GDR_MAX_PCT) {
			gdr_err("%s: more than %d percentiles", lab, GDR_MAX_PCT);
			return -1;
		}
		o->pct[n++] = q;
	}
	o->npct = n;
	return 0;
}

int gdr_test_sizes(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		   bool user)
{
	struct gdr_opts *o = settings;
	uint64_t mn, mx;
	uint32_t f;

	(void)user;
	if (gdr_opt_sweep(lab, s, (uint64_t)e->max, &mn, &mx, &f))
		return -1;
	o->sizes_set = true;
	o->size_min = mn;
	o->size_max = mx;
	o->size_factor = f;
	return 0;
}

/* --cluster[=PATTERN]: cluster mode, PATTERN as --pattern gives it (checked later). */
int gdr_test_cluster(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		     bool user)
{
	struct gdr_opts *o = settings;
	char *p;

	(void)user;
	*FIELD(settings, e, bool) = true;
	if (!s)
		return 0;
	if (!*s) {
		gdr_err("%s: empty pattern (pairwise, quick or shift=K)", lab);
		return -1;
	}
	p = strdup(s);
	if (!p) {
		gdr_err("out of memory");
		return -1;
	}
	free(o->pattern);
	o->pattern = p;
	return 0;
}

/* --ecmp[=EPS]: a leaf pair's ECMP path missed with at most EPS (0 < EPS < 1; 0.001 alone). */
int gdr_test_ecmp(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		  bool user)
{
	/* cppcheck-suppress invalidPointerCast ; FIELD's target is the double field of --ecmp */
	double *eps = FIELD(settings, e, double), v;
	char *end;

	(void)user;
	if (!s) {
		*eps = 0.001;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v > 0 && v < 1)) {
		gdr_err("%s=%s: expected a probability, 0 < EPS < 1 (--ecmp alone: 0.001)", lab, s);
		return -1;
	}
	*eps = v;
	return 0;
}

int gdr_test_cuda(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		  bool user)
{
	int *gpu = FIELD(settings, e, int);
	uint64_t u;

	if (!strcmp(s, "auto")) {
		*gpu = GDR_CUDA_AUTO;
		return 0;
	}
	if (!user && !strcmp(s, "none")) {
		*gpu = GDR_CUDA_NONE;
		return 0;
	}
	if (gdr_opt_digits(s, &u) || !gdr_opt_in_range(e, (double)u)) {
		gdr_err("%s: '%s' is not a GPU (use an index 0..255 or auto)", lab, s);
		return -1;
	}
	*gpu = (int)u;
	return 0;
}

/* --use_rocm=IDX|BDF|auto: perftest's --use_rocm=<gpu>, and a PCI address or auto as for CUDA. */
int gdr_test_rocm(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		  bool user)
{
	struct gdr_opts *o = settings;
	uint64_t u;

	o->rocm_bus_id[0] = '\0';
	o->rocm = true;
	if (!strcmp(s, "auto")) {
		o->use_rocm = GDR_CUDA_AUTO;
		return 0;
	}
	if (!user && !strcmp(s, "none")) {
		o->rocm = false;
		o->use_rocm = GDR_CUDA_NONE;
		return 0;
	}
	if (strchr(s, ':') && gdr_opt_bdf_ok(s)) {
		o->use_rocm = GDR_CUDA_NONE;
		snprintf(o->rocm_bus_id, sizeof(o->rocm_bus_id), "%s", s);
		return 0;
	}
	if (gdr_opt_digits(s, &u) || !gdr_opt_in_range(e, (double)u)) {
		gdr_err("%s: '%s' is not an AMD GPU (use an index 0..255, a PCI address such as "
			"0000:0c:00.0, or auto)",
			lab, s);
		return -1;
	}
	o->use_rocm = (int)u;
	return 0;
}

/* --expect-bw=GBPS (a floor in Gb/s) or auto[:PCT] (PCT% of the port's rate, default 90). */
int gdr_test_expect_bw(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		       bool user)
{
	struct gdr_opts *o = settings;
	double v;

	(void)user;
	o->expect_bw = 0;
	o->expect_pct = 0;
	if (!strncmp(s, "auto", 4) && (!s[4] || s[4] == ':')) {
		if (!s[4]) {
			o->expect_pct = 90;
			return 0;
		}
		if (gdr_opt_double(s + 5, &v) || !(v > 0 && v <= 100)) {
			gdr_err("%s: '%s' is not a percentage of the port's rate (use auto:PCT, PCT "
				"> 0 and <= 100, e.g. auto:90)",
				lab, s + 5);
			return -1;
		}
		o->expect_pct = v;
		return 0;
	}
	if (gdr_opt_double(s, &v) || !gdr_opt_in_range(e, v)) {
		gdr_err("%s: '%s' is not a bandwidth (use Gb/s > 0, or auto[:PCT])", lab, s);
		return -1;
	}
	o->expect_bw = v;
	return 0;
}
