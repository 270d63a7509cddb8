/* SPDX-License-Identifier: MIT */
/* What the option table tells others: ranges for a client's request, test options given. */
#include <string.h>
#include "opts_table.h"

int gdr_opt_check(const char *name, double v, char *why, size_t len)
{
	const struct gdr_opt *e = gdr_opt_find(&gdr_test_optdef, name);
	char lab[40];

	if (!e) {
		snprintf(why, len, "unknown option %s", name);
		return -1;
	}
	if (e->min > e->max || ((e->min_excl ? v > e->min : v >= e->min) && v <= e->max))
		return 0;
	gdr_opt_label(e, lab, sizeof(lab));
	snprintf(why, len, "%s %.17g is out of range (%s%.17g..%.17g)", lab, v,
		 e->min_excl ? "> " : "", e->min, e->max);
	return -1;
}

void gdr_opts_test_given(const struct gdr_opts *o, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < gdr_test_optdef.nrows; i++) {
		const struct gdr_opt *e = &gdr_test_optdef.rows[i];
		char lab[40];

		if (e->scope != GDR_SC_TEST || !e->span ||
		    !gdr_opts_is_set(o, (const char *)o + e->off) || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
				      gdr_opt_label(e, lab, sizeof(lab)));
	}
}
