/* SPDX-License-Identifier: MIT */
/*
 * Internal to the tests' options: the tests' table of rows (opts_table.c),
 * its masks and groups, and the tests' hooks and value parsers it names.
 */
#ifndef GDR_OPTS_TABLE_H
#define GDR_OPTS_TABLE_H

#include "optengine.h"
#include "opts.h"

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
#define GDR_T_ATOMIC_BW	 (1u << 6)
#define GDR_T_ATOMIC_LAT (1u << 7)
#define GDR_T_ATOMIC	 (GDR_T_ATOMIC_BW | GDR_T_ATOMIC_LAT)
#define GDR_T_BW	(GDR_T_WRITE_BW | GDR_T_READ_BW | GDR_T_SEND_BW | GDR_T_ATOMIC_BW)
#define GDR_T_LAT	(GDR_T_WRITE_LAT | GDR_T_READ_LAT | GDR_T_SEND_LAT | GDR_T_ATOMIC_LAT)
#define GDR_T_WRITE	(GDR_T_WRITE_BW | GDR_T_WRITE_LAT)
#define GDR_T_SEND	(GDR_T_SEND_BW | GDR_T_SEND_LAT)

/* The tests' table (opts_table.c); ctx of every hook is a struct gdr_test. */
extern const struct gdr_optdef gdr_test_optdef;

/* Hooks (opts_hooks.c). */
const char *gdr_test_default_of(const struct gdr_opt *e, const void *ctx);
const char *gdr_test_note(const struct gdr_opt *e);
void gdr_test_head(FILE *f, const void *ctx);
int gdr_test_row_check(const struct gdr_opt *e, const void *settings, const void *ctx);
int gdr_test_positional(void *settings, int argc, char **argv, const void *ctx);
int gdr_test_check(void *settings, const void *ctx);
/* perftest's flags (opts_compat.c): why one is refused (NULL: unknown), --output's checks. */
const char *gdr_test_refused(const char *word);
struct gdr_opts;
int gdr_test_compat_check(struct gdr_opts *o);

/* Values only the tests have (opts_values.c): GDR_OT_CUSTOM parsers. */
int gdr_test_pct(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		 bool user);
int gdr_test_sizes(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		   bool user);
int gdr_test_cluster(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		     bool user);
int gdr_test_cuda(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		  bool user);
int gdr_test_ecmp(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		  bool user);
int gdr_test_rocm(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		  bool user);
int gdr_test_expect_bw(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		       bool user);
/* The KV run's values (opts_kv.c). */
int gdr_test_kv_blocks(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		       bool user);
int gdr_test_kv_batch(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user);
int gdr_test_kv_place(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user);
int gdr_test_kv_model(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user);
/* -W[LIST] (opts_compat.c): counters/NAME,hw_counters/NAME (perftest's -W LIST). */
int gdr_test_counters(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user);
/* A positional word that is -W's LIST ("-W counters/x host"): 1 taken, 0 not, -1 error. */
int gdr_test_counters_word(struct gdr_opts *o, const char *w);

#endif
