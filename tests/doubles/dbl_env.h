/* SPDX-License-Identifier: MIT */
/*
 * What the library doubles (tests/cuda_double, tests/hip_double) read the
 * same way: a number from the environment, the fixture file of their
 * devices and the fault plan. who names the double in error lines.
 */
#ifndef DBL_ENV_H
#define DBL_ENV_H

#define DBL_BUS_LEN 16 /* "0000:1a:00.0" and its NUL, with room */

/* The environment's name as a number in lo..hi into *out (dflt when unset). 0 or -1 printed. */
int dbl_env_long(const char *who, const char *name, long lo, long hi, long dflt, long *out);

/*
 * Read ndev devices, a line "BUS-ID NUMA [GROUP]" each, from the fixture at
 * path into bus[], numa[] and group[] (-1 where a line has no group); env
 * names the variable that gave path, devs_env the one that set ndev,
 * group_word the group column in the error ("NVLINK-GROUP"). Lines starting
 * with '#' and empty ones are skipped. 0, or -1 printed: the file, a bad
 * line, a negative group, fewer than ndev devices.
 */
int dbl_load_fixture(const char *who, const char *env, const char *devs_env, const char *group_word,
		     const char *path, int ndev, char (*bus)[DBL_BUS_LEN], int *numa, int *group);

/*
 * A word of a double's fault plan (GDR_DOUBLE_FAIL=alloc:2,launch): its
 * name, its form (DBL_BARE: the word alone, sets 1; DBL_COUNT: always
 * "name:N"; DBL_EITHER: "name" sets 0, "name:N" sets N) and the field it sets.
 */
enum dbl_form { DBL_BARE, DBL_COUNT, DBL_EITHER };
struct dbl_fault {
	const char *name;
	enum dbl_form form;
	long *set;
};

/*
 * Parse spec, a comma-separated list of the words of faults[] (its last
 * entry has a NULL name), given by the variable env; expected lists the
 * words for the error. 0, or -1 printed.
 */
int dbl_parse_faults(const char *who, const char *env, const char *spec,
		     const struct dbl_fault *faults, const char *expected);

#endif
