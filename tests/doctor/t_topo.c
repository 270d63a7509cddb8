/* SPDX-License-Identifier: MIT */
/*
 * topo.c over the fixture tree "topo" of mkfix.sh (path in argv[1]). The
 * expected relations come from the hand-drawn layout below, not from code:
 *
 *   pci0000:00 (NUMA 0)
 *     00:01.0 root port
 *       01:00.0 switch upstream port
 *         02:08.0 -> 03:00.0 GPU A
 *         02:10.0 -> 04:00.0, 04:00.1 NIC X (two functions)
 *         02:18.0 -> 05:00.0 inner switch -> 06:00.0 -> 07:00.0 GPU B
 *     00:02.0 -> 08:00.0 GPU C
 *   pci0000:40 (NUMA 0)  40:01.0 -> 41:00.0 NIC Y
 *   pci0000:80 (NUMA 1)  80:01.0 -> 81:00.0 NIC Z;  80:02.0 -> 82:00.0 GPU D
 *   pci0000:c0 (NUMA unknown)  c0:00.0 GPU E on the root bus
 */
#include <stdio.h>
#include <string.h>
#include "../../src/sysinfo/topo.h"

static int fails;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fails++;                                                                   \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);                                \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
		}                                                                                  \
	} while (0)

static const char *root;

static void rel(const char *a, const char *b, const char *want)
{
	struct topo_loc la, lb;

	CHECK(!topo_locate(root, a, &la), "locate %s", a);
	CHECK(!topo_locate(root, b, &lb), "locate %s", b);
	CHECK(!strcmp(topo_rel_name(topo_relation(&la, &lb)), want), "%s-%s: got %s, want %s", a, b,
	      topo_rel_name(topo_relation(&la, &lb)), want);
	/* The relation is symmetric. */
	CHECK(topo_relation(&la, &lb) == topo_relation(&lb, &la), "%s-%s not symmetric", a, b);
}

static void path(const char *a, const char *b, const char *want)
{
	char br[TOPO_MAX_DEPTH * 2][TOPO_BDF_LEN], got[512] = "";
	struct topo_loc la, lb;
	int n;

	topo_locate(root, a, &la);
	topo_locate(root, b, &lb);
	n = topo_path_bridges(&la, &lb, br, TOPO_MAX_DEPTH * 2);
	for (int i = 0; i < n; i++) {
		strcat(got, i ? " " : "");
		strcat(got, br[i]);
	}
	CHECK(!strcmp(got, want), "bridges %s-%s: got '%s', want '%s'", a, b, got, want);
}

int main(int argc, char **argv)
{
	struct topo_loc l;

	if (argc != 2) {
		printf("usage: t_topo FIXTURE-ROOT (made by mkfix.sh DIR topo)\n");
		return 1;
	}
	root = argv[1];

	/* Address syntax. */
	CHECK(topo_is_bdf("0000:03:00.0"), "plain bdf");
	CHECK(topo_is_bdf("10000:e1:00.7"), "5-digit domain");
	CHECK(!topo_is_bdf("0000:03:00.8"), "function 8");
	CHECK(!topo_is_bdf("0000:03:00"), "no function");
	CHECK(!topo_is_bdf("0000:0G:00.0"), "bad hex");
	CHECK(!topo_is_bdf("0000:0A:00.0"), "upper case");
	CHECK(!topo_is_bdf("pci0000:00"), "root complex");

	/* The chain of bridges and the NUMA node. */
	CHECK(!topo_locate(root, "0000:07:00.0", &l), "locate GPU B");
	CHECK(!strcmp(l.rc, "0000:00"), "GPU B rc %s", l.rc);
	CHECK(l.depth == 5, "GPU B depth %d", l.depth);
	CHECK(!strcmp(l.bridge[0], "0000:00:01.0") && !strcmp(l.bridge[4], "0000:06:00.0"),
	      "GPU B chain %s..%s", l.bridge[0], l.bridge[4]);
	CHECK(l.numa == 0, "GPU B numa %d", l.numa);
	CHECK(!topo_locate(root, "0000:c0:00.0", &l) && l.depth == 0 && l.numa == -1,
	      "GPU E depth %d numa %d", l.depth, l.numa);
	CHECK(topo_locate(root, "0000:99:00.0", &l) == -1, "missing device found");
	CHECK(topo_locate("/nonexistent-root", "0000:03:00.0", &l) == -1, "missing root");

	rel("0000:03:00.0", "0000:03:00.0", "X");
	rel("0000:03:00.0", "0000:04:00.0", "PIX"); /* one switch */
	rel("0000:03:00.0", "0000:04:00.1", "PIX"); /* second function, same switch */
	rel("0000:04:00.0", "0000:04:00.1", "PIX"); /* functions of one device */
	rel("0000:07:00.0", "0000:04:00.0", "PXB"); /* two switches */
	rel("0000:07:00.0", "0000:03:00.0", "PXB");
	rel("0000:08:00.0", "0000:04:00.0", "PHB"); /* different root ports */
	rel("0000:08:00.0", "0000:07:00.0", "PHB");
	rel("0000:03:00.0", "0000:41:00.0", "NODE"); /* root complexes, same node */
	rel("0000:03:00.0", "0000:81:00.0", "SYS");  /* across NUMA nodes */
	rel("0000:82:00.0", "0000:81:00.0", "PHB");
	rel("0000:82:00.0", "0000:04:00.0", "SYS");
	rel("0000:82:00.0", "0000:41:00.0", "SYS");
	rel("0000:c0:00.0", "0000:04:00.0", "NODE"); /* NUMA unknown: not called SYS */
	rel("0000:c0:00.0", "0000:81:00.0", "NODE");

	path("0000:03:00.0", "0000:04:00.0", "0000:01:00.0 0000:02:08.0 0000:02:10.0");
	path("0000:07:00.0", "0000:04:00.0",
	     "0000:01:00.0 0000:02:18.0 0000:05:00.0 0000:06:00.0 0000:02:10.0");
	path("0000:08:00.0", "0000:04:00.0", "");
	path("0000:03:00.0", "0000:81:00.0", "");

	if (fails) {
		printf("t_topo: %d check(s) failed\n", fails);
		return 1;
	}
	printf("t_topo: all checks passed\n");
	return 0;
}
