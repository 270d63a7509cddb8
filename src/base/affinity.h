/* SPDX-License-Identifier: MIT */
/*
 * CPU placement of the benchmark threads: --cpu=LIST, --no-pin, or by
 * default the CPUs of the RDMA device's NUMA node.
 */
#ifndef GDR_AFFINITY_H
#define GDR_AFFINITY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Pin the calling thread (and the threads it creates later):
 *   no_pin:   nothing is pinned;
 *   cpu_list: exactly those CPUs ("0-3,8"); a malformed or empty list, or a
 *             CPU this process may not use, is an error;
 *   default:  the CPUs of the NUMA node of rdma_dev, read from
 *             <root>/class/infiniband/<dev>/device/numa_node and
 *             <root>/devices/system/node/node<N>/cpulist, where <root> is
 *             $GDR_SYSFS_ROOT or /sys; no NUMA node (-1 or missing file) ->
 *             not pinned.
 * desc receives one line for the run header, e.g. "CPUs 0-7 (NUMA node 0 of
 * mlx5_0)", "unpinned (rxe0 has no NUMA node)", "CPUs 2,3 (--cpu)".
 * Returns 0, or -1 on error (already printed).
 */
int gdr_pin_cpus(const char *cpu_list, bool no_pin, const char *rdma_dev, char *desc,
		 size_t desclen);

/*
 * Pin the calling thread to the available CPUs of NUMA node `node` (sysfs as
 * above); `of` names the device the node belongs to, for desc ("CPUs 0-7
 * (NUMA node 0 of GPU 2)"). Trouble leaves the thread unpinned and says so in
 * desc (a warning line where the node's CPUs are unreadable). Returns 0.
 */
int gdr_pin_to_node(int node, const char *of, char *desc, size_t desclen);

/* The sysfs root: $GDR_SYSFS_ROOT (a fixture tree's "sys" folder) or "/sys". */
const char *gdr_sysfs_root(void);
/* The folder holding that root, for readers that take one (src/sysinfo): "/" or "$GDR_SYSFS_ROOT/..". */
void gdr_host_root(char *buf, size_t n);

/* NUMA node of an RDMA device (sysfs as above), -1 if none or unknown. */
int gdr_dev_numa_node(const char *dev);

/*
 * Memory policy of the calling thread (and the threads it creates): prefer
 * NUMA node `node` for new pages (-1: back to the default policy). Returns 0,
 * or -1 with errno (no such node, no NUMA support).
 */
int gdr_mem_prefer_node(int node);

/* NUMA node holding the (touched) page at addr, -1 if unknown. */
int gdr_addr_numa_node(const void *addr);

#ifdef CPU_SETSIZE /* <sched.h> included with _GNU_SOURCE */
/*
 * Parse a Linux CPU list ("0-3,8", as in sysfs cpulist files; trailing
 * white space allowed) into *set. Returns 0, or -1 with the reason in why.
 */
int gdr_parse_cpulist(const char *s, cpu_set_t *set, char *why, size_t whylen);

/* Write *set as a compact CPU list ("0-3,8"; "" when empty) into buf. */
void gdr_format_cpulist(const cpu_set_t *set, char *buf, size_t len);
#endif

#endif
