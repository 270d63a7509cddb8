/* SPDX-License-Identifier: MIT */
/*
 * CPU placement: the CPU list parser and formatter against sets built by
 * hand, --cpu and --no-pin, and the default NUMA placement against a
 * fixture sysfs tree made at run time (GDR_SYSFS_ROOT) from the CPUs this
 * process may use, so the test holds on any machine or cpuset. Every pin is
 * checked with sched_getaffinity and undone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <numaif.h>
#include "affinity.h"

#include "check.h"
#include "put.h"

static cpu_set_t orig;
static char root[] = "/tmp/t_affinity.XXXXXX";

static void set_of(cpu_set_t *s, const int *cpus, int n)
{
	int i;

	CPU_ZERO(s);
	for (i = 0; i < n; i++)
		CPU_SET(cpus[i], s);
}

static void check_parse(void)
{
	static const char *const bad[] = {
	    "",	   ",",	    "1,",   ",1",  "1-",   "-1",
	    "3-1", "a",	    "1,,2", "1 2", "1024", "99999999999999999999",
	    "0x1", "1-2-3", " 1",   "1;2", "+1",   "0-1024"};
	static const int c1[] = {0}, c2[] = {0, 1, 2, 3, 8}, c3[] = {5}, c4[] = {1}, c5[] = {1023},
			 c6[] = {0, 2, 4, 5, 6, 7};
	static const struct {
		const char *in;
		const int *cpus;
		int n;
		const char *fmt;
	} good[] = {
	    {"0", c1, 1, "0"},
	    {"0-3,8", c2, 5, "0-3,8"},
	    {"5-5", c3, 1, "5"},
	    {"1,1", c4, 1, "1"},
	    {"0-3,8\n", c2, 5, "0-3,8"},
	    {"1023", c5, 1, "1023"},
	    {"0,2,4-7", c6, 6, "0,2,4-7"},
	    {"8,3,2,1,0", c2, 5, "0-3,8"},
	};
	cpu_set_t got, want;
	char why[128], buf[256];
	size_t i;
	int c;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		CHECK(gdr_parse_cpulist(bad[i], &got, why, sizeof(why)) == -1,
		      "'%s' accepted as a CPU list", bad[i]);
		CHECK(why[0] != '\0', "'%s': no reason given", bad[i]);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		set_of(&want, good[i].cpus, good[i].n);
		CHECK(gdr_parse_cpulist(good[i].in, &got, why, sizeof(why)) == 0 &&
			  CPU_EQUAL(&got, &want),
		      "'%s' parsed wrong", good[i].in);
		gdr_format_cpulist(&want, buf, sizeof(buf));
		CHECK(!strcmp(buf, good[i].fmt), "format: '%s', expected '%s'", buf, good[i].fmt);
	}
	CHECK(gdr_parse_cpulist("0-1023", &got, why, sizeof(why)) == 0 && CPU_COUNT(&got) == 1024,
	      "0-1023");
	CPU_ZERO(&want);
	gdr_format_cpulist(&want, buf, sizeof(buf));
	CHECK(buf[0] == '\0', "empty set formatted as '%s'", buf);
	/* round trip of pseudo-random sets */
	srand(7);
	for (i = 0; i < 200; i++) {
		CPU_ZERO(&want);
		for (c = 0; c < 64; c++)
			if (rand() % 3)
				CPU_SET(c * (1 + (int)i % 15), &want);
		gdr_format_cpulist(&want, buf, sizeof(buf));
		CHECK(CPU_COUNT(&want) == 0 ||
			  (gdr_parse_cpulist(buf, &got, why, sizeof(why)) == 0 &&
			   CPU_EQUAL(&got, &want)),
		      "round trip of '%s'", buf);
	}
	/* truncation is safe */
	gdr_format_cpulist(&got, buf, 4);
	CHECK(strlen(buf) <= 3, "truncated format overran");
}

static void restore(void)
{
	if (sched_setaffinity(0, sizeof(orig), &orig)) {
		fprintf(stderr, "cannot restore the affinity: %s\n", strerror(errno));
		exit(1);
	}
}

static int now_is(const cpu_set_t *want)
{
	cpu_set_t cur;

	return sched_getaffinity(0, sizeof(cur), &cur) == 0 && CPU_EQUAL(&cur, want);
}

/* One pin call: expected result, description and resulting affinity. */
static void expect(const char *what, const char *list, bool no_pin, const char *dev, int rc,
		   const char *desc, const cpu_set_t *mask)
{
	char got[256];

	memset(got, 'x', sizeof(got));
	CHECK(gdr_pin_cpus(list, no_pin, dev, got, sizeof(got)) == rc, "%s: rc != %d", what, rc);
	if (desc)
		CHECK(!strcmp(got, desc), "%s: desc '%s', expected '%s'", what, got, desc);
	CHECK(now_is(mask ? mask : &orig), "%s: wrong affinity afterwards", what);
	restore();
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(p);
}

static void check_pin(void)
{
	const char *bad[] = {"", "1-", "3-1", "x", "1,,2", "5000"};
	cpu_set_t one, two;
	char buf[256], list[128], want[256];
	int c0 = -1, c1 = -1, un = -1, c;
	size_t i;

	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &orig)) {
			if (c0 < 0)
				c0 = c;
			else if (c1 < 0)
				c1 = c;
		} else if (un < 0) {
			un = c;
		}
	}
	if (c0 < 0 || un < 0) {
		printf(
		    "t_affinity: SKIP: every CPU number is allowed; no unavailable CPU to test\n");
		exit(77);
	}
	CPU_ZERO(&one);
	CPU_SET(c0, &one);

	expect("--no-pin", NULL, true, "mlx5_0", 0, "unpinned (--no-pin)", NULL);
	expect("--cpu with --no-pin", "0", true, NULL, -1, NULL, NULL);
	snprintf(list, sizeof(list), "%d", c0);
	snprintf(want, sizeof(want), "CPU %d (--cpu)", c0);
	expect("--cpu one", list, false, "mlx5_0", 0, want, &one);
	if (c1 >= 0) {
		CPU_ZERO(&two);
		CPU_SET(c0, &two);
		CPU_SET(c1, &two);
		snprintf(list, sizeof(list), "%d,%d", c1, c0);
		snprintf(want, sizeof(want), "CPUs %d,%d (--cpu)", c0, c1);
		expect("--cpu two", list, false, NULL, 0, want, &two);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect(bad[i], bad[i], false, NULL, -1, NULL, NULL);
	snprintf(list, sizeof(list), "%d", un);
	expect("--cpu not available", list, false, NULL, -1, NULL, NULL);
	snprintf(list, sizeof(list), "%d,%d", c0, un);
	expect("--cpu partly available", list, false, NULL, -1, NULL, NULL);

	/* fixture sysfs for the default placement */
	if (!mkdtemp(root)) {
		fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	setenv("GDR_SYSFS_ROOT", root, 1);
	put(root, "class/infiniband/mlx5_0/device/numa_node", "0\n");
	snprintf(buf, sizeof(buf), "%d\n", c0);
	put(root, "devices/system/node/node0/cpulist", buf);
	put(root, "class/infiniband/mlx5_1/device/numa_node", "1\n");
	snprintf(buf, sizeof(buf), "%d,%d\n", c0, un);
	put(root, "devices/system/node/node1/cpulist", buf);
	put(root, "class/infiniband/mlx5_2/device/numa_node", "2\n");
	snprintf(buf, sizeof(buf), "%d\n", un);
	put(root, "devices/system/node/node2/cpulist", buf);
	put(root, "class/infiniband/mlx5_3/device/numa_node", "3\n"); /* node3 has no cpulist */
	put(root, "class/infiniband/rxe0/device/numa_node", "-1\n");
	put(root, "class/infiniband/nonode0/device/vendor", "0x15b3\n");
	put(root, "class/infiniband/mlx5_5/device/numa_node", "5\n");
	put(root, "devices/system/node/node5/cpulist", "\n"); /* memory-only node */

	snprintf(want, sizeof(want), "CPU %d (NUMA node 0 of mlx5_0)", c0);
	expect("numa node 0", NULL, false, "mlx5_0", 0, want, &one);
	snprintf(want, sizeof(want), "CPU %d (NUMA node 1 of mlx5_1)", c0);
	expect("numa node 1 (partly available)", NULL, false, "mlx5_1", 0, want, &one);
	expect("numa node 2 (unavailable)", NULL, false, "mlx5_2", 0,
	       "unpinned (no CPU of NUMA node 2 of mlx5_2 is available)", NULL);
	expect("numa node 3 (no cpulist)", NULL, false, "mlx5_3", 0,
	       "unpinned (CPUs of NUMA node 3 of mlx5_3 unknown)", NULL);
	expect("numa node 5 (no CPUs)", NULL, false, "mlx5_5", 0,
	       "unpinned (NUMA node 5 of mlx5_5 has no CPUs)", NULL);
	expect("rxe0", NULL, false, "rxe0", 0, "unpinned (rxe0 has no NUMA node)", NULL);
	expect("no numa_node file", NULL, false, "nonode0", 0,
	       "unpinned (nonode0 has no NUMA node)", NULL);
	expect("no such device", NULL, false, "ghost0", 0, "unpinned (ghost0 has no NUMA node)",
	       NULL);
	expect("path in device name", NULL, false, "../infiniband/mlx5_0", 0,
	       "unpinned (../infiniband/mlx5_0 has no NUMA node)", NULL);
	expect("no device", NULL, false, NULL, 0,
	       "unpinned (no RDMA device to place the threads near)", NULL);
	CHECK(gdr_pin_cpus(NULL, false, "mlx5_0", NULL, 0) == 0 && now_is(&one), "NULL desc");
	restore();
	CHECK(gdr_pin_cpus(NULL, false, "mlx5_0", want, 5) == 0 && strlen(want) == 4,
	      "short desc buffer");
	restore();
	nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Memory policy and page placement (node 0 exists on every Linux host). */
static void check_numa(void)
{
	unsigned long mask[16] = { 0 };
	static char page[4096] __attribute__((aligned(4096)));
	int mode = -1;

	if (get_mempolicy(&mode, NULL, 0, NULL, 0) && errno == ENOSYS) {
		printf("t_affinity: note: no NUMA system calls here; memory policy not checked\n");
		return;
	}
	CHECK(gdr_mem_prefer_node(0) == 0, "prefer node 0: %s", strerror(errno));
	CHECK(get_mempolicy(&mode, mask, sizeof(mask) * 8, NULL, 0) == 0);
	CHECK(mode == MPOL_PREFERRED && mask[0] == 1, "mode %d mask %lx", mode, mask[0]);
	page[0] = 1; /* touched after the policy: placed on node 0 */
	CHECK(gdr_addr_numa_node(page) == 0, "page on node %d", gdr_addr_numa_node(page));
	CHECK(gdr_mem_prefer_node(-2) == -1 && errno == EINVAL);
	CHECK(gdr_mem_prefer_node(4000) == -1, "no such node");
	CHECK(gdr_addr_numa_node(NULL) == -1);
	CHECK(gdr_mem_prefer_node(-1) == 0);
	CHECK(get_mempolicy(&mode, NULL, 0, NULL, 0) == 0 && mode == MPOL_DEFAULT, "mode %d",
	      mode);
}

int main(void)
{
	if (sched_getaffinity(0, sizeof(orig), &orig)) {
		printf("t_affinity: SKIP: sched_getaffinity fails here (%s)\n", strerror(errno));
		return 77;
	}
	if (sched_setaffinity(0, sizeof(orig), &orig)) {
		printf("t_affinity: SKIP: sched_setaffinity is refused here (%s)\n",
		       strerror(errno));
		return 77;
	}
	check_parse();
	check_pin();
	check_numa();
	return CHECK_DONE();
}
