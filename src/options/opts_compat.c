/* SPDX-License-Identifier: MIT */
/*
 * perftest's flags that scripts use, where gdrperf's table does not simply
 * have them (issue 34.9). Those that change a measurement or its output are
 * rows of the table (--output, -N, --cpu_util, --ipv6); one that does not
 * apply is a row accepted with its note (--dont_xchg_versions). Those that
 * cannot be honoured are refused here, each with its reason, in place of
 * "unknown option". Meanings checked against perftest's perftest_parameters.c.
 */
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
    {"--odp",
     "buffers are registered (pinned host or GPU memory); on-demand paging cannot map GPU "
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
