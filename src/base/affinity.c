/* SPDX-License-Identifier: MIT */
/* CPU placement: parse/format CPU lists, find the RDMA device's NUMA node, pin. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <numaif.h>
#include "affinity.h"
#include "log.h"

static int parse_cpu(const char *p, char **end, char *why, size_t whylen)
{
	unsigned long v;

	if (!isdigit((unsigned char)*p)) {
		if (*p)
			snprintf(why, whylen, "expected a CPU number at '%s'", p);
		else
			snprintf(why, whylen, "expected a CPU number at the end");
		return -1;
	}
	errno = 0;
	v = strtoul(p, end, 10);
	if (errno || v >= CPU_SETSIZE) {
		snprintf(why, whylen, "CPU number %.*s is too large (at most %d)", (int)(*end - p),
			 p, CPU_SETSIZE - 1);
		return -1;
	}
	return (int)v;
}

int gdr_parse_cpulist(const char *s, cpu_set_t *set, char *why, size_t whylen)
{
	const char *p = s;
	char *end;
	int a, b, c;

	CPU_ZERO(set);
	if (!s || !*s) {
		snprintf(why, whylen, "empty CPU list");
		return -1;
	}
	for (;;) {
		a = parse_cpu(p, &end, why, whylen);
		if (a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			b = parse_cpu(end + 1, &end, why, whylen);
			if (b < 0)
				return -1;
			if (b < a) {
				snprintf(why, whylen, "range %d-%d is reversed", a, b);
				return -1;
			}
		}
		for (c = a; c <= b; c++)
			CPU_SET(c, set);
		if (*end != ',')
			break;
		p = end + 1;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end) {
		snprintf(why, whylen, "unexpected '%c' in CPU list", *end);
		return -1;
	}
	return 0;
}

void gdr_format_cpulist(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int c = 0, e;

	if (len)
		buf[0] = '\0';
	while (c < CPU_SETSIZE) {
		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		for (e = c; e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set); e++)
			;
		if (used < len) {
			const char *sep = used ? "," : "";
			int w;

			if (e == c)
				w = snprintf(buf + used, len - used, "%s%d", sep, c);
			else if (e == c + 1)
				w = snprintf(buf + used, len - used, "%s%d,%d", sep, c, e);
			else
				w = snprintf(buf + used, len - used, "%s%d-%d", sep, c, e);
			used = w < 0 ? len : used + (size_t)w;
		}
		c = e + 1;
	}
}

/* Read a small sysfs file into buf. Returns 0 or -1 (missing/unreadable). */
static int read_sysfs(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? 0 : -1;
}

const char *gdr_sysfs_root(void)
{
	const char *r = getenv("GDR_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

void gdr_host_root(char *buf, size_t n)
{
	const char *r = getenv("GDR_SYSFS_ROOT");

	snprintf(buf, n, "%s%s", r && *r ? r : "/", r && *r ? "/.." : "");
}

int gdr_dev_numa_node(const char *dev)
{
	char path[PATH_MAX], buf[32], *end;
	long v;

	if (strchr(dev, '/') || !strcmp(dev, ".") || !strcmp(dev, ".."))
		return -1;
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/numa_node", gdr_sysfs_root(),
		 dev);
	if (read_sysfs(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

static void cpus_desc(char *desc, size_t desclen, const cpu_set_t *set, const char *why)
{
	char list[1024];

	gdr_format_cpulist(set, list, sizeof(list));
	snprintf(desc, desclen, "%s %s (%s)", CPU_COUNT(set) == 1 ? "CPU" : "CPUs", list, why);
}

static int pin_list(const char *cpu_list, const cpu_set_t *allowed, char *desc, size_t desclen)
{
	char why[128], avail[1024];
	cpu_set_t want;
	int c;

	if (gdr_parse_cpulist(cpu_list, &want, why, sizeof(why))) {
		gdr_err("--cpu=%s: %s (use a list such as 0-3,8)", cpu_list, why);
		return -1;
	}
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &want) && !CPU_ISSET(c, allowed)) {
			gdr_format_cpulist(allowed, avail, sizeof(avail));
			gdr_err("--cpu=%s: CPU %d is not available to this process (available: %s)",
				cpu_list, c, avail);
			return -1;
		}
	}
	if (sched_setaffinity(0, sizeof(want), &want)) {
		gdr_err("--cpu=%s: cannot pin to these CPUs: %s", cpu_list, strerror(errno));
		return -1;
	}
	cpus_desc(desc, desclen, &want, "--cpu");
	return 0;
}

/* Pin to the available CPUs of NUMA node `node`; `of` names whose node it is ("mlx5_0"). */
static int pin_node(int node, const char *of, const cpu_set_t *allowed, char *desc,
		    size_t desclen)
{
	char path[PATH_MAX], buf[8192], why[128], what[128];
	cpu_set_t node_cpus, set;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist", gdr_sysfs_root(),
		 node);
	if (read_sysfs(path, buf, sizeof(buf))) {
		snprintf(why, sizeof(why), "missing or empty");
	} else if (buf[strspn(buf, " \t\n")] == '\0') {
		snprintf(desc, desclen, "unpinned (NUMA node %d of %s has no CPUs)", node, of);
		return 0;
	} else if (!gdr_parse_cpulist(buf, &node_cpus, why, sizeof(why))) {
		why[0] = '\0';
	}
	if (why[0]) {
		gdr_warn(
		    "cannot read the CPUs of NUMA node %d from %s (%s); threads are not pinned",
		    node, path, why);
		snprintf(desc, desclen, "unpinned (CPUs of NUMA node %d of %s unknown)", node, of);
		return 0;
	}
	CPU_AND(&set, &node_cpus, allowed);
	if (CPU_COUNT(&set) == 0) {
		snprintf(desc, desclen, "unpinned (no CPU of NUMA node %d of %s is available)",
			 node, of);
		return 0;
	}
	if (sched_setaffinity(0, sizeof(set), &set)) {
		gdr_warn("cannot pin to the CPUs of NUMA node %d: %s; threads are not pinned", node,
			 strerror(errno));
		snprintf(desc, desclen, "unpinned (pinning to NUMA node %d of %s failed)", node,
			 of);
		return 0;
	}
	snprintf(what, sizeof(what), "NUMA node %d of %s", node, of);
	cpus_desc(desc, desclen, &set, what);
	return 0;
}

static int pin_numa(const char *dev, const cpu_set_t *allowed, char *desc, size_t desclen)
{
	int node;

	if (!dev) {
		snprintf(desc, desclen, "unpinned (no RDMA device to place the threads near)");
		return 0;
	}
	node = gdr_dev_numa_node(dev);
	if (node < 0) {
		snprintf(desc, desclen, "unpinned (%s has no NUMA node)", dev);
		return 0;
	}
	return pin_node(node, dev, allowed, desc, desclen);
}

int gdr_pin_to_node(int node, const char *of, char *desc, size_t desclen)
{
	cpu_set_t allowed;

	char dir[PATH_MAX];

	if (node < 0) {
		snprintf(desc, desclen, "unpinned (%s has no NUMA node)", of);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/devices/system/node/node%d", gdr_sysfs_root(), node);
	if (access(dir, F_OK)) {
		snprintf(desc, desclen, "unpinned (NUMA node %d of %s is not on this host)", node,
			 of);
		return 0;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(desc, desclen, "unpinned (affinity unreadable: %s)", strerror(errno));
		return 0;
	}
	return pin_node(node, of, &allowed, desc, desclen);
}

int gdr_pin_cpus(const char *cpu_list, bool no_pin, const char *rdma_dev, char *desc,
		 size_t desclen)
{
	char dummy[1];
	cpu_set_t allowed;

	if (!desc || !desclen) {
		desc = dummy;
		desclen = sizeof(dummy);
	}
	desc[0] = '\0';
	if (cpu_list && no_pin) {
		gdr_err("--cpu and --no-pin exclude each other: give one of them");
		return -1;
	}
	if (no_pin) {
		snprintf(desc, desclen, "unpinned (--no-pin)");
		return 0;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		gdr_err("cannot read this process's CPU affinity: %s", strerror(errno));
		return -1;
	}
	if (cpu_list)
		return pin_list(cpu_list, &allowed, desc, desclen);
	return pin_numa(rdma_dev, &allowed, desc, desclen);
}

int gdr_mem_prefer_node(int node)
{
	unsigned long mask[16] = { 0 };
	size_t bits = sizeof(mask) * 8;

	if (node == -1)
		return set_mempolicy(MPOL_DEFAULT, NULL, 0) ? -1 : 0;
	if (node < 0 || (size_t)node >= bits) {
		errno = EINVAL;
		return -1;
	}
	mask[node / (8 * sizeof(mask[0]))] = 1UL << (node % (8 * sizeof(mask[0])));
	return set_mempolicy(MPOL_PREFERRED, mask, bits + 1) ? -1 : 0;
}

int gdr_addr_numa_node(const void *addr)
{
	int node = -1;

	if (!addr || get_mempolicy(&node, NULL, 0, (void *)addr, MPOL_F_NODE | MPOL_F_ADDR))
		return -1;
	return node;
}
