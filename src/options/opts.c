/* SPDX-License-Identifier: MIT */
/* The six tests' command line: the option engine run over the tests' table (opts_table.c). */
#include <stdlib.h>
#include <string.h>
#include "opts.h"
#include "opts_table.h"

bool gdr_opts_is_set(const struct gdr_opts *o, const void *field)
{
	return gdr_opt_is_set(&gdr_test_optdef, o, field);
}

int gdr_opts_parse(struct gdr_opts *o, const struct gdr_test *t, int argc, char **argv)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->verb = t->verb;
	o->kind = t->kind;
	o->size_factor = 2; /* --sizes without :FACTOR */
	rc = gdr_optparse(&gdr_test_optdef, o, t, argc, argv);
	if (rc)
		gdr_opts_free(o);
	return rc;
}

void gdr_opts_usage(FILE *f, const struct gdr_test *t)
{
	gdr_optusage(&gdr_test_optdef, f, t);
}

void gdr_opts_free(struct gdr_opts *o)
{
	gdr_optfree(&gdr_test_optdef, o);
	free(o->server);
	o->server = NULL;
	free(o->counters_list);
	o->counters_list = NULL;
}
