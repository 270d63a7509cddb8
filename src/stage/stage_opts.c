/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw options: its own small table (it is not an RDMA test). */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "stage.h"

#define SIZE_LIMIT (1ULL << 30)

enum { O_SIZES = 256, O_DIR, O_PAGEABLE, O_STREAMS, O_CUDA, O_BUS, O_CSV, O_REPS };

struct opt {
	const char *lng;
	int shrt;
	int has_arg;
	const char *arg;
	const char *help;
};

static const struct opt table[] = {
    {"size", 's', 1, "SIZE", "one copy size (suffix K, M, G = KiB, MiB, GiB)"},
    {"all", 'a', 0, NULL, "sweep 4K..256M in powers of two (the default)"},
    {"sizes", O_SIZES, 1, "MIN:MAX[:F]", "sweep MIN..MAX multiplying by F (default 2)"},
    {"iters", 'n', 1, "N", "copies per measurement (default: ~2 GiB worth, 20..10000)"},
    {"reps", O_REPS, 1, "R", "measurements per row, the best is reported (default 3)"},
    {"dir", O_DIR, 1, "DIR", "h2d, d2h, bidir or all (default all)"},
    {"pageable", O_PAGEABLE, 0, NULL, "host side in pageable (malloc) memory, not pinned"},
    {"streams", O_STREAMS, 1, "N", "copies queued round robin on N streams, 1..8 (default 1)"},
    {"use_cuda", O_CUDA, 1, "IDX", "GPU index (default 0)"},
    {"use_cuda_bus_id", O_BUS, 1, "BDF", "GPU by PCI address, e.g. 0000:19:00.0"},
    {"csv", O_CSV, 1, "FILE", "also write the rows as CSV to FILE"},
    {"quiet", 'q', 0, NULL, "no informational lines"},
    {"help", 'h', 0, NULL, "this help"},
    {"version", 'V', 0, NULL, "print the version"},
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: gdr_stage_bw [options]\n"
		   "Measures host<->GPU copies (the copy leg of a staged transfer), no NIC.\n\n");
	for (i = 0; i < NOPTS; i++) {
		char left[64];

		if (table[i].shrt < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", table[i].shrt, table[i].lng,
				 table[i].arg ? "=" : "", table[i].arg ? table[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", table[i].lng,
				 table[i].arg ? "=" : "", table[i].arg ? table[i].arg : "");
		fprintf(f, "  %-30s %s\n", left, table[i].help);
	}
	fprintf(f, "\nGB/s is 10^9 bytes per second; bidir counts both directions.\n");
}

int stage_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	else if (*end)
		return -1;
	if (shift && end[1])
		return -1;
	if (!v || v > (~0ULL >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

static int parse_uint(const char *name, const char *s, unsigned long long lo, unsigned long long hi,
		      unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || *s < '0' || *s > '9' || *end || *out < lo || *out > hi) {
		gdr_err("--%s=%s: expected an integer in %llu..%llu", name, s, lo, hi);
		return -1;
	}
	return 0;
}

static int add_size(struct stage_opts *o, uint64_t v)
{
	if (o->nsizes == STAGE_MAX_SIZES) {
		gdr_err("too many sizes (at most %d): use a larger factor", STAGE_MAX_SIZES);
		return -1;
	}
	o->sizes[o->nsizes++] = v;
	return 0;
}

static int sweep(struct stage_opts *o, uint64_t lo, uint64_t hi, uint64_t f)
{
	uint64_t v;

	o->nsizes = 0;
	for (v = lo; v <= hi; v *= f) {
		if (add_size(o, v))
			return -1;
		if (v > hi / f)
			break;
	}
	return 0;
}

static int parse_sizes(struct stage_opts *o, const char *arg)
{
	char buf[128], *a, *b, *c;
	uint64_t lo, hi, f = 2;

	snprintf(buf, sizeof(buf), "%s", arg);
	a = buf;
	b = strchr(a, ':');
	if (!b)
		goto bad;
	*b++ = 0;
	c = strchr(b, ':');
	if (c)
		*c++ = 0;
	if (stage_parse_size(a, &lo) || stage_parse_size(b, &hi) || lo > hi || hi > SIZE_LIMIT)
		goto bad;
	if (c) {
		unsigned long long v;

		if (parse_uint("sizes factor", c, 2, 1024, &v))
			return -1;
		f = v;
	}
	return sweep(o, lo, hi, f);
bad:
	gdr_err("--sizes=%s: expected MIN:MAX[:FACTOR], 1 <= MIN <= MAX <= 1G, e.g. 4K:128M:4",
		arg);
	return -1;
}

int stage_parse(struct stage_opts *o, int argc, char **argv)
{
	struct option lo[NOPTS + 1];
	char shorts[64];
	size_t i, ns = 1;
	bool size_given = false;
	int c;

	memset(o, 0, sizeof(*o));
	o->reps = 3;
	o->dirs = STAGE_ALL;
	o->streams = 1;
	o->use_cuda = 0;
	memset(lo, 0, sizeof(lo));
	shorts[0] = ':'; /* report a missing value as ':' */
	for (i = 0; i < NOPTS; i++) {
		lo[i].name = table[i].lng;
		lo[i].has_arg = table[i].has_arg ? required_argument : no_argument;
		lo[i].val = table[i].shrt;
		if (table[i].shrt < 256) {
			shorts[ns++] = (char)table[i].shrt;
			if (table[i].has_arg)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = 0;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		unsigned long long v;
		uint64_t sz;

		switch (c) {
		case 's':
			if (stage_parse_size(optarg, &sz) || sz > SIZE_LIMIT) {
				gdr_err("-s %s: expected a size of 1 B..1G (e.g. 2M)", optarg);
				return -1;
			}
			o->nsizes = 0;
			add_size(o, sz);
			size_given = true;
			break;
		case 'a':
			sweep(o, 4096, 256ULL << 20, 2);
			size_given = true;
			break;
		case O_SIZES:
			if (parse_sizes(o, optarg))
				return -1;
			size_given = true;
			break;
		case 'n':
			if (parse_uint("iters", optarg, 1, 100000000, &v))
				return -1;
			o->iters = v;
			break;
		case O_REPS:
			if (parse_uint("reps", optarg, 1, 1000, &v))
				return -1;
			o->reps = v;
			break;
		case O_DIR:
			if (!strcmp(optarg, "h2d"))
				o->dirs = STAGE_H2D;
			else if (!strcmp(optarg, "d2h"))
				o->dirs = STAGE_D2H;
			else if (!strcmp(optarg, "bidir"))
				o->dirs = STAGE_BIDIR;
			else if (!strcmp(optarg, "all"))
				o->dirs = STAGE_ALL;
			else {
				gdr_err("--dir=%s: expected h2d, d2h, bidir or all", optarg);
				return -1;
			}
			break;
		case O_PAGEABLE:
			o->pageable = true;
			break;
		case O_STREAMS:
			if (parse_uint("streams", optarg, 1, 8, &v))
				return -1;
			o->streams = (int)v;
			break;
		case O_CUDA:
			if (parse_uint("use_cuda", optarg, 0, 1023, &v))
				return -1;
			o->use_cuda = (int)v;
			break;
		case O_BUS:
			free(o->cuda_bus_id);
			o->cuda_bus_id = strdup(optarg);
			break;
		case O_CSV:
			free(o->csv_file);
			o->csv_file = strdup(optarg);
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			printf("gdr_stage_bw (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 1;
		case ':':
			gdr_err("option '%s' needs a value: see gdr_stage_bw --help",
				argv[optind - 1]);
			return -1;
		default:
			gdr_err("unknown option '%s': see gdr_stage_bw --help", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		gdr_err("unexpected argument '%s': gdr_stage_bw takes no host (no NIC involved)",
			argv[optind]);
		return -1;
	}
	if (!size_given)
		sweep(o, 4096, 256ULL << 20, 2);
	if (o->streams > 4 && o->dirs == STAGE_BIDIR) {
		gdr_err("--dir=bidir with --streams=%d: bidir uses 2 x N streams, so N <= 4",
			o->streams);
		return -1;
	}
	return 0;
}

void stage_opts_free(struct stage_opts *o)
{
	free(o->cuda_bus_id);
	free(o->csv_file);
	o->cuda_bus_id = o->csv_file = NULL;
}
