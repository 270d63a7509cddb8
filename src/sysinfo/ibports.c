/* SPDX-License-Identifier: MIT */
/* The RDMA ports sysfs lists, with state and virtual-function facts (--rails=all). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ibports.h"
#include "sysfs.h"

int ib_name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long x = strtoul(a, (char **)&a, 10),
				      y = strtoul(b, (char **)&b, 10);

			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++, b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int by_name(const void *x, const void *y)
{
	return ib_name_cmp(*(char *const *)x, *(char *const *)y);
}

/* What makes dev virtual, or NULL. */
static const char *virt_of(const char *sysroot, const char *dev)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *base;

	if (fs_exists(fs_path(path, sizeof(path), sysroot, "/sys/class/infiniband/%s/device/physfn",
			      dev)))
		return "a virtual function";
	if (!fs_path(path, sizeof(path), sysroot, "/sys/class/infiniband/%s/device", dev) ||
	    !realpath(path, real))
		return NULL;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	return strstr(base, ".sf.") ? "a sub-function" : NULL;
}

static void add_ports(const char *sysroot, const char *dev, struct ib_port_info *p, int *n, int max)
{
	char dir[PATH_MAX], path[PATH_MAX], line[64], **ports;
	int np = fs_list(fs_path(dir, sizeof(dir), sysroot, "/sys/class/infiniband/%s/ports", dev),
			 &ports);
	const char *virt = virt_of(sysroot, dev);

	if (np > 1)
		qsort(ports, (size_t)np, sizeof(*ports), by_name);
	for (int i = 0; i < np && *n < max; i++) {
		struct ib_port_info *q = &p[*n];
		char *colon;

		*q = (struct ib_port_info){.port = atoi(ports[i]), .virt = virt};
		if (q->port < 1)
			continue;
		snprintf(q->dev, sizeof(q->dev), "%s", dev);
		if (!fs_read_line(fs_path(path, sizeof(path), sysroot,
					  "/sys/class/infiniband/%s/ports/%d/state", dev, q->port),
				  line, sizeof(line))) { /* "4: ACTIVE" */
			colon = strchr(line, ':');
			snprintf(q->state, sizeof(q->state), "%.15s",
				 colon ? colon + 1 + strspn(colon + 1, " ") : line);
		}
		q->active = !strcmp(q->state, "ACTIVE");
		(*n)++;
	}
	fs_free_names(ports, np);
}

int ib_ports_scan(const char *sysroot, struct ib_port_info *p, int max)
{
	char dir[PATH_MAX], **devs;
	int nd = fs_list(fs_path(dir, sizeof(dir), sysroot, "/sys/class/infiniband"), &devs), n = 0;

	if (nd > 1)
		qsort(devs, (size_t)nd, sizeof(*devs), by_name);
	for (int i = 0; i < nd && n < max; i++)
		add_ports(sysroot, devs[i], p, &n, max);
	fs_free_names(devs, nd);
	return n;
}
