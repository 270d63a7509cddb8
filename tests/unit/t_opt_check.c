/* SPDX-License-Identifier: MIT */
/*
 * What the option table tells a server about a client's request (ranges),
 * which test options a server was given, and that long options are never
 * abbreviated (a prefix is an error naming the option, values are skipped).
 */
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "opts.h"
#include "opts_table.h"

#include "check.h"

static void test_ranges(void)
{
	char why[160];

	CHECK(gdr_opt_check("tx-depth", 134217728, why, sizeof(why)) == -1);
	CHECK(!strcmp(why, "-t 134217728 is out of range (1..16384)"), "%s", why);
	CHECK(gdr_opt_check("tx-depth", 16384, why, sizeof(why)) == 0);
	CHECK(gdr_opt_check("qp", 0, why, sizeof(why)) == -1 && strstr(why, "-q 0"));
	CHECK(gdr_opt_check("qp", 64, why, sizeof(why)) == 0);
	CHECK(gdr_opt_check("size", 1073741825.0, why, sizeof(why)) == -1);
	CHECK(gdr_opt_check("duration", 0, why, sizeof(why)) == -1 && strstr(why, "(> 0.."),
	      "%s", why);
	CHECK(gdr_opt_check("inline_size", 0, why, sizeof(why)) == 0);
	CHECK(gdr_opt_check("no-such-option", 1, why, sizeof(why)) == -1);
}

static int exact(int argc, const char **argv)
{
	return gdr_opt_exact(&gdr_test_optdef, argc, (char **)argv);
}

static void test_exact(void)
{
	const char *ok1[] = {"p", "--report_gbits", "--json", "--report_gbit", "-s", "--sizes"};
	const char *ok2[] = {"p", "--", "--report_gbit"};
	const char *ok3[] = {"p", "-bs", "--rep", "--csv=--report"};
	const char *bad1[] = {"p", "-s", "64", "--report_gbit"};
	const char *bad2[] = {"p", "--listen_time=5"};
	const char *bad3[] = {"p", "-b", "--persist"};

	/* "--report_gbit" as --json's and -s's value, after "--", or as -bs's value: not options */
	CHECK(exact(6, ok1) == 0);
	CHECK(exact(3, ok2) == 0);
	CHECK(exact(4, ok3) == 0);
	CHECK(exact(4, bad1) == -1);
	CHECK(exact(2, bad2) == -1);
	CHECK(exact(3, bad3) == -1);
}

static void test_given(void)
{
	static const struct gdr_test t = {"write_bw", GDR_VERB_WRITE, GDR_KIND_BW};
	char *argv[] = {"p", "-a", "-n", "5", "-p", "9000", "--validate", NULL};
	struct gdr_opts o;
	char buf[128];

	CHECK(gdr_opts_parse(&o, &t, 7, argv) == 0);
	gdr_opts_test_given(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "-a -n --validate"), "'%s'", buf);
	gdr_opts_free(&o);
}

int main(void)
{
	gdr_set_prog("t_opt_check");
	gdr_quiet = 1;
	test_ranges();
	test_exact();
	test_given();
	return CHECK_DONE();
}
