/* SPDX-License-Identifier: MIT */
/*
 * The tests' hooks into the option engine: defaults per test, help head and
 * notes, rows that apply to some tests or one side only, the server address,
 * the size list.
 */
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "opts.h"
#include "opts_table.h"
#include "verb_def.h"

const char *gdr_verb_name(enum gdr_verb v)
{
	const struct gdr_verb_def *d = gdr_verb_def(v);

	return d ? d->name : "unknown";
}

const char *gdr_kind_name(enum gdr_kind k)
{
	return k == GDR_KIND_LAT ? "lat" : k == GDR_KIND_BW ? "bw" : "unknown";
}

static unsigned test_bit(enum gdr_verb v, enum gdr_kind k)
{
	const struct gdr_verb_def *d = gdr_verb_def(v);

	return d && (unsigned)k < GDR_NKINDS ? d->tests[k] : 0;
}

/* The default of row e for test t (NULL = zero): the verb's row has those that differ. */
const char *gdr_test_default_of(const struct gdr_opt *e, const void *ctx)
{
	const struct gdr_test *t = ctx;
	const struct gdr_verb_def *d = gdr_verb_def(t->verb);

	if (e->per_test > 0 && e->per_test < GDR_TD_N && d && (unsigned)t->kind < GDR_NKINDS)
		return d->defaults[t->kind][e->per_test];
	return e->def;
}

/* "write_lat, read_lat, send_lat": the tests of mask, in the order of their bits */
static void mask_names(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned bit = 1; bit && n < len; bit <<= 1)
		for (int v = 0; v < GDR_NVERBS && n < len && (mask & bit); v++)
			for (int k = 0; k < GDR_NKINDS && n < len && !gdr_verb_defs[v].flag; k++)
				if (gdr_verb_defs[v].tests[k] == bit)
					n += (size_t)snprintf(buf + n, len - n, "%s%s_%s",
							      n ? ", " : "", gdr_verb_defs[v].name,
							      gdr_kind_name((enum gdr_kind)k));
}

/* The test bits of every verb of kind k (a variant's are its base's). */
static unsigned kind_tests(int k)
{
	unsigned m = 0;

	for (int v = 0; v < GDR_NVERBS; v++)
		m |= gdr_verb_defs[v].tests[k];
	return m;
}

/*
 * Which tests a row is for, when not all, from the verbs' rows: whole kinds
 * ("bw tests"), then whole verbs ("write, send tests"), then single tests
 * ("send_lat"): " [bw tests, send_lat]".
 */
const char *gdr_test_note(const struct gdr_opt *e)
{
	static char note[160];
	unsigned m = e->tests, verbs = 0;
	size_t n = 0;

	if (!m)
		return "";
	n += (size_t)snprintf(note, sizeof(note), " [");
	for (int k = 0; k < GDR_NKINDS; k++)
		if ((m & kind_tests(k)) == kind_tests(k)) {
			n += (size_t)snprintf(note + n, sizeof(note) - n, "%s%s tests",
					      n > 2 ? ", " : "", gdr_kind_name((enum gdr_kind)k));
			m &= ~kind_tests(k);
		}
	for (int v = 0; v < GDR_NVERBS && n < sizeof(note); v++) {
		const struct gdr_verb_def *d = &gdr_verb_defs[v];
		unsigned both = d->tests[GDR_KIND_BW] | d->tests[GDR_KIND_LAT];

		if (d->flag || (m & both) != both)
			continue;
		n += (size_t)snprintf(note + n, sizeof(note) - n, "%s%s", n > 2 ? ", " : "",
				      d->name);
		m &= ~both;
		verbs++;
	}
	if (verbs && n < sizeof(note))
		n += (size_t)snprintf(note + n, sizeof(note) - n, " tests");
	if (m && n < sizeof(note)) {
		char names[128];

		mask_names(m, names, sizeof(names));
		n += (size_t)snprintf(note + n, sizeof(note) - n, "%s%s", n > 2 ? ", " : "", names);
	}
	if (n < sizeof(note))
		snprintf(note + n, sizeof(note) - n, "]");
	return note;
}

static const char *test_title(const struct gdr_test *t)
{
	const struct gdr_verb_def *d = gdr_verb_def(t->verb);

	if (!d || (unsigned)t->kind >= GDR_NKINDS)
		return "RDMA";
	return d->title[t->kind];
}

void gdr_test_head(FILE *f, const void *ctx)
{
	const struct gdr_test *t = ctx;
	const char *p = gdr_prog();

	fprintf(f, "Usage: %s [options]            server: wait for a client\n", p);
	fprintf(f, "       %s [options] <server>   client: run the test against <server>\n", p);
	fprintf(f, "%s test (%s_%s); buffers in host or GPU memory.\n", test_title(t),
		gdr_verb_name(t->verb), gdr_kind_name(t->kind));
	fprintf(f, "Sizes take K, M, G suffixes (KiB, MiB, GiB); exit status 0 ok, 1 below a\n"
		   "floor (cluster: a pair flagged), 2 could not run, 3 usage, 4 interrupted.\n");
}

/* A given row must apply to this test and to this side. */
int gdr_test_row_check(const struct gdr_opt *e, const void *settings, const void *ctx)
{
	const struct gdr_opts *o = settings;
	const struct gdr_test *t = ctx;
	char lab[40], names[128];

	gdr_opt_label(e, lab, sizeof(lab));
	if (e->tests && !(e->tests & test_bit(t->verb, t->kind))) {
		mask_names(e->tests, names, sizeof(names));
		gdr_err("%s does not apply to %s_%s; it is for %s", lab, gdr_verb_name(t->verb),
			gdr_kind_name(t->kind), names);
		return -1;
	}
	if (e->scope == GDR_SC_SERVER && o->server) {
		gdr_err("%s is a server option; leave it out on the client", lab);
		return -1;
	}
	if (e->scope == GDR_SC_CLIENT && !o->server) {
		gdr_err("%s is a client option; give the server address too", lab);
		return -1;
	}
	return 0;
}

/* The one positional argument: the server address (client role). */
int gdr_test_positional(void *settings, int argc, char **argv, const void *ctx)
{
	struct gdr_opts *o = settings;
	char *words[2];
	int k = 0;

	(void)ctx;
	for (int i = 0; i < argc; i++) { /* "-W counters/x": the list, not the server */
		int rc = gdr_test_counters_word(o, argv[i]);

		if (rc < 0)
			return -1;
		if (!rc && k < 2)
			words[k++] = argv[i];
		else if (!rc)
			k++;
	}
	argc = k < 2 ? k : 2;
	argv = words;
	if (argc > 1) {
		gdr_err("unexpected argument '%s': the only argument is the server address",
			argv[1]);
		return -1;
	}
	if (argc == 1) {
		if (!*argv[0]) {
			gdr_err("empty server address");
			return -1;
		}
		o->server = strdup(argv[0]);
		if (!o->server) {
			gdr_err("out of memory");
			return -1;
		}
	}
	return 0;
}

/* --run_token: 1 to 31 letters, digits, '.', '_', ':' or '-' (it travels in the HELLO). */
static int token_check(const char *t)
{
	size_t n = t ? strlen(t) : 1;

	if (!t)
		return 0;
	if (n < 1 || n > 31 || strspn(t, GDR_RUN_TOKEN_CHARS) != n) {
		gdr_err("--run_token=%s: give 1 to 31 letters, digits, '.', '_', ':' or '-'", t);
		return -1;
	}
	return 0;
}

/* The sizes must expand to a valid list; perftest's JSON names become --json. */
int gdr_test_check(void *settings, const void *ctx)
{
	struct gdr_opts *o = settings;
	uint64_t *sizes;
	size_t n;

	(void)ctx;
	if (o->write_with_imm) /* the write tests' variant: its own row (verb_def.c) */
		o->verb = GDR_VERB_WRITE_IMM;
	if (gdr_opts_kv_check(o))
		return -1;
	if (gdr_opts_sizes(settings, &sizes, &n))
		return -1;
	free(sizes);
	if (token_check(o->run_token))
		return -1;
	if (o->pairing && !o->matrix && o->use_cuda != GDR_CUDA_AUTO) {
		gdr_err("--pairing: read by --use_cuda=auto only, not with a GPU named; give "
			"--use_cuda=auto, or leave --pairing out");
		return -1;
	}
	if (gdr_verb_def(o->verb) && gdr_verb_def(o->verb)->size_unset &&
	    !gdr_opts_is_set(o, &o->size))
		o->size = gdr_verb_def(o->verb)->size_unset;
	if (gdr_verb_refusal(o)) {
		gdr_err("%s_%s: %s", gdr_verb_name(o->verb), gdr_kind_name(o->kind),
			gdr_verb_refusal(o));
		return -1;
	}
	if (gdr_conn_refusal(o)) {
		gdr_err("-c %s: %s", gdr_conn_name(o->conn), gdr_conn_refusal(o));
		return -1;
	}
	if (o->run_infinitely && o->interval <= 0)
		o->interval = GDR_INFINITE_INTERVAL;
	if (o->out_json || o->out_json_file) {
		o->json_file = strdup(o->out_json_file ? o->out_json_file : GDR_PERFTEST_JSON);
		if (!o->json_file) {
			gdr_err("out of memory");
			return -1;
		}
	}
	return gdr_test_compat_check(o);
}
