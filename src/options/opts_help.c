/* SPDX-License-Identifier: MIT */
/* --help: usage lines, then every table row by group, each with its default. */
#include <string.h>
#include "log.h"
#include "opts_int.h"

#define HELP_COL   30  /* where the description starts */
#define HELP_WIDTH 100 /* wrap the default onto its own line past this */

static const char *test_title(const struct gdr_test *t)
{
	static const char *const title[3][2] = {
	    {"RDMA write bandwidth", "RDMA write latency"},
	    {"RDMA read bandwidth", "RDMA read latency"},
	    {"send/receive bandwidth", "send/receive latency"},
	};

	if ((unsigned)t->verb > 2 || (unsigned)t->kind > 1)
		return "RDMA";
	return title[t->verb][t->kind];
}

/* Which tests a row is for, when not all. */
static const char *tests_note(unsigned mask)
{
	switch (mask) {
	case 0:
		return "";
	case GDR_T_BW:
		return " [bw tests]";
	case GDR_T_LAT:
		return " [lat tests]";
	case GDR_T_WRITE:
		return " [write tests]";
	case GDR_T_WRITE | GDR_T_SEND:
		return " [write, send tests]";
	}
	return " [some tests]";
}

static void print_row(FILE *f, const struct gdr_opt *e, const struct gdr_test *t)
{
	char left[64], help[160], dflt[96] = "";
	const char *d = e->def_text ? e->def_text : gdr_opt_default(e, t);
	int n;

	if (e->letter)
		n = snprintf(left, sizeof(left), "  -%c, --%s", e->letter, e->name);
	else
		n = snprintf(left, sizeof(left), "      --%s", e->name);
	if (e->arg)
		snprintf(left + n, sizeof(left) - (size_t)n, "=%s", e->arg);
	if (!d && (e->type == GDR_OT_FLAG))
		d = "off";
	if (d)
		snprintf(dflt, sizeof(dflt), " (default: %s)", d);
	if (strlen(left) >= HELP_COL - 1) {
		fprintf(f, "%s\n%*s", left, HELP_COL, "");
	} else {
		fprintf(f, "%-*s", HELP_COL, left);
	}
	snprintf(help, sizeof(help), "%s%s", e->help, tests_note(e->tests));
	if (HELP_COL + strlen(help) + strlen(dflt) > HELP_WIDTH && *dflt)
		fprintf(f, "%s\n%*s%s\n", help, HELP_COL, "", dflt + 1);
	else
		fprintf(f, "%s%s\n", help, dflt);
}

void gdr_opts_usage(FILE *f, const struct gdr_test *t)
{
	const char *p = gdr_prog();

	fprintf(f, "Usage: %s [options]            server: wait for a client\n", p);
	fprintf(f, "       %s [options] <server>   client: run the test against <server>\n", p);
	fprintf(f, "%s test (%s_%s); buffers in host or GPU memory.\n", test_title(t),
		gdr_verb_name(t->verb), gdr_kind_name(t->kind));
	fprintf(f, "Sizes take K, M, G suffixes (KiB, MiB, GiB); exit status 0 ok, 1 error.\n");
	for (int g = 0; g < GDR_G_COUNT; g++) {
		fprintf(f, "\n%s:\n", gdr_opt_group_names[g]);
		for (size_t i = 0; i < gdr_opt_count; i++) {
			const struct gdr_opt *e = &gdr_opt_table[i];

			if (e->group == (enum gdr_opt_group)g)
				print_row(f, e, t);
		}
	}
}
