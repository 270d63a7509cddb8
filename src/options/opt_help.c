/* SPDX-License-Identifier: MIT */
/* --help of any program: its head, every table row by group with its default, its tail. */
#include <string.h>
#include "optengine.h"

#define HELP_WIDTH 100 /* wrap the default onto its own line past this */

static void print_row(FILE *f, const struct gdr_optdef *d, const struct gdr_opt *e, const void *ctx)
{
	char left[64], help[160], dflt[96] = "";
	const char *v = e->def_text ? e->def_text : gdr_opt_default(d, e, ctx);
	size_t col = (size_t)d->help_col;
	int n;

	if (e->letter)
		n = snprintf(left, sizeof(left), "  -%c, --%s", e->letter, e->name);
	else
		n = snprintf(left, sizeof(left), "      --%s", e->name);
	if (e->arg)
		snprintf(left + n, sizeof(left) - (size_t)n, e->arg_opt ? "[=%s]" : "=%s", e->arg);
	if (!v && (e->type == GDR_OT_FLAG))
		v = "off";
	if (v)
		snprintf(dflt, sizeof(dflt), " (default: %s)", v);
	if (strlen(left) >= col - 1) {
		fprintf(f, "%s\n%*s", left, (int)col, "");
	} else {
		fprintf(f, "%-*s", (int)col, left);
	}
	snprintf(help, sizeof(help), "%s%s", e->help, d->note ? d->note(e) : "");
	if (col + strlen(help) + strlen(dflt) > HELP_WIDTH && *dflt)
		fprintf(f, "%s\n%*s%s\n", help, (int)col, "", dflt + 1);
	else
		fprintf(f, "%s%s\n", help, dflt);
}

void gdr_optusage(const struct gdr_optdef *d, FILE *f, const void *ctx)
{
	if (d->head)
		d->head(f, ctx);
	for (int g = 0; g < (d->ngroups ? d->ngroups : 1); g++) {
		if (d->groups && d->groups[g])
			fprintf(f, "\n%s:\n", d->groups[g]);
		else
			fprintf(f, "\n");
		for (size_t i = 0; i < d->nrows; i++)
			if (d->rows[i].group == g)
				print_row(f, d, &d->rows[i], ctx);
	}
	if (d->tail)
		fprintf(f, "\n%s", d->tail);
}
