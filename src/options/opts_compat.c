/* SPDX-License-Identifier: MIT */
/*
 * perftest's flags that scripts use, where gdrperf's table does not simply
 * have them (issue 34.9). Those that change a measurement or its output are
 * rows of the table (--output, -N, --cpu_util, --ipv6); one that does not
 * apply is a row accepted with its note (--dont_xchg_versions). Those that
 * cannot be honoured are refused here, each with its reason, in place of
 * "unknown option". Meanings checked against perftest's perftest_parameters.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "opts.h"
#include "opts_table.h"

static const struct {
	const char *words; /* the letter and the long name, '|' between */
	const char *why;
} refusals[] = {
    {"-C|--report-cycles",
     "gdrperf times with the monotonic clock and prints usec; it keeps no CPU cycle counts"},
    {"-H|--report-histogram",
     "--samples=FILE writes every latency sample (CSV), --percentiles=LIST the distribution"},
    {"-U|--report-unsorted", "--samples=FILE writes every latency sample in the order measured"},
    {"-z|--comm_rdma_cm",
     "the exchange runs over TCP; -R connects the QPs with rdma_cm (both sides)"},
    {"--mr_per_qp",
     "every QP uses one memory region here; a region per QP would measure another setup"},
    {"--odp", "buffers are registered (pinned host or GPU memory); on-demand paging cannot map GPU "
	      "memory and is not implemented for host memory"},
    {"-k|--source_port", "perftest's raw Ethernet tests only; gdrperf runs verbs (RC, UC, UD)"},
    {"--flows", "perftest's raw Ethernet tests only; gdrperf runs verbs (RC, UC, UD)"},
    {"--flows_burst", "perftest's raw Ethernet tests only; gdrperf runs verbs (RC, UC, UD)"},
};

/* Whether the n characters at w spell word, '_' and '-' alike after "--". */
static bool spelled(const char *word, const char *w, size_t n)
{
	size_t i;

	if (strlen(word) != n)
		return false;
	for (i = 0; i < n; i++) {
		char a = word[i], b = w[i];

		if (a != b && !(i >= 2 && (a == '_' || a == '-') && (b == '_' || b == '-')))
			return false;
	}
	return true;
}

const char *gdr_test_refused(const char *word)
{
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const char *p = refusals[i].words;

		while (*p) {
			size_t n = strcspn(p, "|");

			if (spelled(word, p, n))
				return refusals[i].why;
			p += n + (p[n] == '|');
		}
	}
	return NULL;
}

/* --output: its word as enum gdr_output, and perftest's rule of which test prints which. */
int gdr_test_compat_check(struct gdr_opts *o)
{
	static const char *const words[] = {"", "bandwidth", "message_rate", "latency"};

	if (o->dont_xchg_versions && !o->quiet)
		gdr_info("--dont_xchg_versions: no effect (gdrperf peers check their own version)");
	if (!gdr_opts_is_set(o, &o->output)) {
		o->output = GDR_OUTPUT_TABLE;
		return 0;
	}
	o->output += 1; /* the choice's index, from bandwidth */
	if (o->kind == GDR_KIND_LAT && o->output != GDR_OUTPUT_LATENCY) {
		gdr_err("--output=%s: a latency test prints latency", words[o->output]);
		return -1;
	}
	if (o->kind == GDR_KIND_BW && o->output == GDR_OUTPUT_LATENCY) {
		gdr_err("--output=latency: a bandwidth test prints bandwidth or message_rate");
		return -1;
	}
	if (o->json_file && !strcmp(o->json_file, "-")) {
		gdr_err("--output and --json=- both write stdout: give --json a file");
		return -1;
	}
	return 0;
}

/* 0 when list is a -W LIST (entries [counters/|hw_counters/]NAME, comma separated), else -1. */
static int list_ok(const char *list)
{
	if (!list || !*list)
		return -1;
	for (const char *p = list;;) {
		size_t n = strcspn(p, ","), f = strcspn(p, "/");

		if (!n)
			return -1; /* an empty entry: ",," or a trailing comma */
		if (f < n && !((f == 8 && !strncmp(p, "counters", 8)) ||
			       (f == 11 && !strncmp(p, "hw_counters", 11))))
			return -1;
		for (size_t i = f < n ? f + 1 : 0; i < n; i++)
			if (!(isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '-'))
				return -1;
		if (f < n && f + 1 == n)
			return -1; /* "counters/" alone */
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static int set_list(struct gdr_opts *o, const char *s, const char *lab)
{
	char *p;

	if (list_ok(s)) {
		gdr_err("%s: '%s' is not a counter list (counters/NAME or hw_counters/NAME, comma "
			"separated, as perftest's -W)",
			lab, s);
		return -1;
	}
	p = strdup(s);
	if (!p) {
		gdr_err("out of memory");
		return -1;
	}
	free(o->counters_list);
	o->counters_list = p;
	return 0;
}

int gdr_test_counters(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user)
{
	struct gdr_opts *o = settings;

	(void)e;
	(void)user;
	o->report_counters = true;
	return s ? set_list(o, s, lab) : 0;
}

/*
 * perftest writes "-W counters/port_xmit_data,..." with a space; getopt leaves
 * that list as a positional word, which would become the server's address. A
 * word naming a counter folder is -W's list (no host name has a '/').
 */
int gdr_test_counters_word(struct gdr_opts *o, const char *w)
{
	if (strncmp(w, "counters/", 9) && strncmp(w, "hw_counters/", 12))
		return 0;
	if (!o->report_counters) {
		gdr_err("'%s' is a counter list: give it after -W", w);
		return -1;
	}
	if (o->counters_list) {
		gdr_err("'%s': -W has its counter list already (%s)", w, o->counters_list);
		return -1;
	}
	return set_list(o, w, "-W") ? -1 : 1;
}
