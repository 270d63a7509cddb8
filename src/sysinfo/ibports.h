/* SPDX-License-Identifier: MIT */
/* Every port of every RDMA device in sysfs below a root, with its state and whether it is virtual.
 */
#ifndef GDR_SYSINFO_IBPORTS_H
#define GDR_SYSINFO_IBPORTS_H

#include <stdbool.h>

struct ib_port_info {
	char dev[64];
	int port;
	char state[16]; /* "ACTIVE", "DOWN", "INIT", ... ("" unreadable) */
	bool active;	/* state is ACTIVE */
	const char
	    *virt; /* NULL, or what makes it virtual: "a virtual function", "a sub-function" */
};

/*
 * The ports of <sysroot>/sys/class/infiniband/<dev>/ports/<N>, devices in
 * natural name order (mlx5_2 before mlx5_10), ports in number order: how
 * many (at most max). A VF has device/physfn; an SF's device sits on the
 * auxiliary bus as <driver>.sf.<n>.
 */
int ib_ports_scan(const char *sysroot, struct ib_port_info *p, int max);

/* strcmp, but runs of digits compare as numbers ("mlx5_2" < "mlx5_10"). */
int ib_name_cmp(const char *a, const char *b);

#endif
