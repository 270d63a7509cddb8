/* SPDX-License-Identifier: MIT */
/*
 * The option table: one row per option, from which opts.c builds getopt_long's
 * arguments, applies defaults, parses, validates and prints --help.
 * Internal to the options component (opts.c, opts_table.c, opts_help.c).
 */
#ifndef GDR_OPTS_INT_H
#define GDR_OPTS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "opts.h"

enum gdr_opt_type {
	GDR_OT_FLAG,	/* bool set to true, no argument */
	GDR_OT_INT,	/* int, decimal */
	GDR_OT_U16,	/* uint16_t, decimal */
	GDR_OT_U32,	/* uint32_t, decimal */
	GDR_OT_U64,	/* uint64_t, decimal */
	GDR_OT_SIZE,	/* uint64_t bytes, suffix K/M/G (gdr_parse_size) */
	GDR_OT_DOUBLE,	/* double, finite */
	GDR_OT_STR,	/* char *, strdup'ed, non-empty */
	GDR_OT_CPULIST, /* char *, cpulist syntax "0-3,8" */
	GDR_OT_BDF,	/* char *, PCI address [DDDD:]BB:DD.F */
	GDR_OT_CUDA,	/* int: GPU index or "auto" (GDR_CUDA_AUTO) */
	GDR_OT_REG,	/* enum gdr_cuda_reg set to the row's `val`, no argument */
	GDR_OT_PCT,	/* pct[]/npct from "99,99.9" */
	GDR_OT_SIZES,	/* size_min/size_max/size_factor from MIN:MAX[:F] */
	GDR_OT_MTU,	/* uint32_t, one of 256, 512, 1024, 2048, 4096 */
	GDR_OT_HELP,	/* print help, done */
	GDR_OT_VERSION, /* print version, done */
};

/* Where an option is meaningful. */
enum gdr_opt_scope {
	GDR_SC_TEST,   /* part of the test: the client sends it to the server */
	GDR_SC_LOCAL,  /* each side decides its own */
	GDR_SC_SERVER, /* server only: an error on a client */
	GDR_SC_CLIENT, /* client only: an error on a server */
};

enum gdr_opt_group {
	GDR_G_TEST,
	GDR_G_CONN,
	GDR_G_MEM,
	GDR_G_OUT,
	GDR_G_CLUSTER,
	GDR_G_MISC,
	GDR_G_COUNT
};

/* Tests an option applies to (bit per binary); 0 = all. */
#define GDR_T_WRITE_BW	(1u << 0)
#define GDR_T_READ_BW	(1u << 1)
#define GDR_T_SEND_BW	(1u << 2)
#define GDR_T_WRITE_LAT (1u << 3)
#define GDR_T_READ_LAT	(1u << 4)
#define GDR_T_SEND_LAT	(1u << 5)
#define GDR_T_BW	(GDR_T_WRITE_BW | GDR_T_READ_BW | GDR_T_SEND_BW)
#define GDR_T_LAT	(GDR_T_WRITE_LAT | GDR_T_READ_LAT | GDR_T_SEND_LAT)
#define GDR_T_WRITE	(GDR_T_WRITE_BW | GDR_T_WRITE_LAT)
#define GDR_T_SEND	(GDR_T_SEND_BW | GDR_T_SEND_LAT)

struct gdr_opt {
	const char *name; /* long name without "--" */
	char letter;	  /* short option, 0 = none */
	const char *arg;  /* argument name in help, NULL = no argument */
	enum gdr_opt_type type;
	size_t off;  /* offset of the field in struct gdr_opts */
	size_t span; /* bytes of struct gdr_opts the option sets (gdr_opts_is_set) */
	/* Defaults, in the syntax a user would type; NULL = zero/NULL/off. */
	const char *def;      /* every test */
	const char *def_lat;  /* latency tests, if different */
	const char *def_wbw;  /* write_bw, if different */
	const char *def_text; /* shown in help instead of the value, NULL = the value */
	double min, max;      /* range for numbers (sizes: bytes), ignored when min > max */
	bool min_excl;	      /* min itself is refused (durations: > 0) */
	int val;	      /* GDR_OT_REG: the value set */
	unsigned tests;	      /* GDR_T_* mask, 0 = every test */
	enum gdr_opt_scope scope;
	enum gdr_opt_group group;
	const char *help;
};

/* Rules between options, by long name. */
enum gdr_rule_kind {
	GDR_R_EXCLUDES, /* a and b may not both be given */
	GDR_R_NEEDS,	/* a needs one of b ("x|y" lists alternatives) */
};

struct gdr_opt_rule {
	enum gdr_rule_kind kind;
	const char *a, *b;
	const char *why; /* appended to the error line, may be NULL */
};

extern const struct gdr_opt gdr_opt_table[];
extern const size_t gdr_opt_count;
extern const struct gdr_opt_rule gdr_opt_rules[];
extern const size_t gdr_opt_rule_count;
extern const char *const gdr_opt_group_names[GDR_G_COUNT];

/* Bit of test t in GDR_T_* masks. */
unsigned gdr_test_bit(enum gdr_verb v, enum gdr_kind k);
/* The default string of row e for test t (NULL = zero). */
const char *gdr_opt_default(const struct gdr_opt *e, const struct gdr_test *t);
/* "-s" or "--sizes": how errors name an option. */
const char *gdr_opt_label(const struct gdr_opt *e, char *buf, size_t len);
const struct gdr_opt *gdr_opt_find(const char *name);

#endif
