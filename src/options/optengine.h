/* SPDX-License-Identifier: MIT */
/*
 * The option engine: a program declares its options as rows of a table
 * (struct gdr_opt) plus rules between them, bundled in a struct gdr_optdef;
 * the engine builds getopt_long's arguments, applies defaults, parses,
 * validates, prints --help and frees, for any settings struct. The six tests
 * (opts_table.c), gdr_stage_bw and gdr_doctor all use it.
 */
#ifndef GDR_OPTENGINE_H
#define GDR_OPTENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
	GDR_OT_REG,	/* int-sized enum set to the row's `val`, no argument */
	GDR_OT_CHOICE,	/* int: index of the argument in the row's `choices` */
	GDR_OT_CUSTOM,	/* the row's `parse` callback sets the settings */
	GDR_OT_MTU,	/* uint32_t, one of 256, 512, 1024, 2048, 4096 */
	GDR_OT_HELP,	/* print help, done */
	GDR_OT_VERSION, /* print version, done */
};

/* Where an option is meaningful (client/server programs; others use LOCAL). */
enum gdr_opt_scope {
	GDR_SC_LOCAL,  /* each side decides its own */
	GDR_SC_TEST,   /* part of the test: the client sends it to the server */
	GDR_SC_SERVER, /* server only: an error on a client */
	GDR_SC_CLIENT, /* client only: an error on a server */
};

struct gdr_opt;
/*
 * GDR_OT_CUSTOM: set the settings from s; lab names the option in errors,
 * user as for gdr_opt_set. 0, or -1 with one error line printed.
 */
typedef int (*gdr_opt_parse_fn)(const struct gdr_opt *e, void *settings, const char *s,
				const char *lab, bool user);

struct gdr_opt {
	const char *name; /* long name without "--" */
	char letter;	  /* short option, 0 = none */
	const char *arg;  /* argument name in help, NULL = no argument */
	bool arg_opt;	  /* the argument may be left out: --name or --name=ARG */
	enum gdr_opt_type type;
	size_t off;  /* offset of the field in the settings struct */
	size_t span; /* bytes of the settings the option sets (gdr_opt_is_set) */
	/* Defaults, in the syntax a user would type; NULL = zero/NULL/off. */
	const char *def;      /* every test */
	int per_test;	      /* > 0: the program's default_of gives it, from slot per_test */
	const char *def_text; /* shown in help instead of the value, NULL = the value */
	double min, max;      /* range for numbers (sizes: bytes), ignored when min > max */
	bool min_excl;	      /* min itself is refused (durations: > 0) */
	int val;	      /* GDR_OT_REG: the value set */
	unsigned tests;	      /* GDR_T_* mask (opts.h), 0 = every test */
	enum gdr_opt_scope scope;
	int group; /* index into the program's group headings */
	const char *help;
	const char *const *choices; /* GDR_OT_CHOICE: NULL-terminated words */
	gdr_opt_parse_fn parse;	    /* GDR_OT_CUSTOM */
};

/* Offset and size of a settings field, for a row's off/span. */
#define GDR_OPT_FIELD(type, field) offsetof(type, field), sizeof(((type *)0)->field)

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

#define GDR_OPT_MAX_ROWS  128 /* rows per table: one bit each in the set bits */
#define GDR_OPT_SET_WORDS (GDR_OPT_MAX_ROWS / 64)

/*
 * One program's options. The settings struct holds
 * uint64_t set_bits[GDR_OPT_SET_WORDS] at set_off (which rows were given).
 * ctx is the program's own context (the tests pass their struct gdr_test),
 * handed to every hook.
 */
struct gdr_optdef {
	const struct gdr_opt *rows;
	size_t nrows;
	const struct gdr_opt_rule *rules;
	size_t nrules;
	const char *const *groups; /* headings; NULL or a NULL heading: no heading line */
	int ngroups;
	int help_col; /* column where the descriptions start */
	size_t set_off;
	/* The default string of a row (NULL hook: the row's def). */
	const char *(*default_of)(const struct gdr_opt *e, const void *ctx);
	/* Help text before and after the rows (hooks may be NULL). */
	void (*head)(FILE *f, const void *ctx);
	const char *tail;
	/* A note after a row's help, e.g. " [bw tests]" (NULL hook: none). */
	const char *(*note)(const struct gdr_opt *e);
	/* The positional arguments (NULL hook: none allowed). 0 ok, -1 error printed. */
	int (*positional)(void *settings, int argc, char **argv, const void *ctx);
	/* Per given row (e.g. scope), then once at the end. 0 ok, -1 error printed. */
	int (*row_check)(const struct gdr_opt *e, const void *settings, const void *ctx);
	int (*check)(void *settings, const void *ctx);
	/*
	 * An option the table lacks on purpose ("-z", "--odp"): why it is not
	 * taken, printed in place of "unknown option" (NULL hook or answer: unknown).
	 */
	const char *(*refused)(const char *word);
};

/*
 * Parse argv into settings, starting from the table's defaults.
 * Returns 0: run; 1: done successfully (--help, --version printed); -1: bad
 * input (one clear line already printed on stderr). On 1 and -1 the
 * settings are already freed.
 */
int gdr_optparse(const struct gdr_optdef *d, void *settings, const void *ctx, int argc,
		 char **argv);
void gdr_optusage(const struct gdr_optdef *d, FILE *f, const void *ctx);
/*
 * Long options are typed in full, '_' and '-' alike in their names
 * (opt_exact.c): -1 (error printed) for an abbreviation.
 */
int gdr_opt_exact(const struct gdr_optdef *d, int argc, char **argv);
/* The row a long name (no "--", no "=value") spells in either spelling, or NULL. */
const struct gdr_opt *gdr_opt_spelled(const struct gdr_optdef *d, const char *s);
/*
 * A copy of argv (argc words and a NULL) whose long options are spelled as the
 * table spells them; the words it allocated in *owned. NULL: error printed.
 * Free both with gdr_opt_respell_free once nothing points into them.
 */
char **gdr_opt_respell(const struct gdr_optdef *d, int argc, char **argv, char ***owned);
void gdr_opt_respell_free(char **av, char **owned, int argc);
/* Free the strings the table's rows strdup'ed. */
void gdr_optfree(const struct gdr_optdef *d, void *settings);

/* Rows (opt_rows.c). */
bool gdr_opt_row_set(const struct gdr_optdef *d, const void *settings, const struct gdr_opt *e);
void gdr_opt_mark_set(const struct gdr_optdef *d, void *settings, const struct gdr_opt *e);
/* Whether the row owning the settings field at `field` was given. */
bool gdr_opt_is_set(const struct gdr_optdef *d, const void *settings, const void *field);
const char *gdr_opt_default(const struct gdr_optdef *d, const struct gdr_opt *e, const void *ctx);
/* "-s" or "--sizes": how errors name an option. */
const char *gdr_opt_label(const struct gdr_opt *e, char *buf, size_t len);
const struct gdr_opt *gdr_opt_find(const struct gdr_optdef *d, const char *name);

/* Values (opt_value.c). */
/*
 * Parse s for row e into settings. user: the string came from the command
 * line (range checks apply; defaults may hold values outside the user range,
 * e.g. -1 = automatic). Returns 0, or -1 with one error line printed.
 */
int gdr_opt_set(const struct gdr_opt *e, void *settings, const char *s, bool user);
/* Whether v is in the row's range (always when min > max). */
bool gdr_opt_in_range(const struct gdr_opt *e, double v);

/* Numbers (opt_number.c). */
/* Unsigned decimal digits only; finite double (no leading space). 0 or -1, silent. */
int gdr_opt_digits(const char *s, uint64_t *v);
/* Whether s is a PCI address, [DDDD:]BB:DD.F (hex digits). */
int gdr_opt_bdf_ok(const char *s);
int gdr_opt_double(const char *s, double *v);
/*
 * Size with optional binary suffix K, M, G (KiB, MiB, GiB; "64K" = 65536).
 * Returns 0 and *out, or -1 on malformed/zero/overflowing input.
 */
int gdr_parse_size(const char *s, uint64_t *out);
/* A size within min..max; 0 or -1 with "LAB: ..." printed. */
int gdr_opt_size(const char *lab, const char *s, uint64_t min, uint64_t max, uint64_t *v);
/* MIN:MAX[:FACTOR] sizes up to max, factor 2..1024 (default 2). 0 or -1 printed. */
int gdr_opt_sweep(const char *lab, const char *s, uint64_t max, uint64_t *mn, uint64_t *mx,
		  uint32_t *f);

#endif
