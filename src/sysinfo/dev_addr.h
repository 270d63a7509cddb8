/* SPDX-License-Identifier: MIT */
/* The IP address an RDMA device port is reached at (for rdma_cm), from sysfs. */
#ifndef GDR_DEV_ADDR_H
#define GDR_DEV_ADDR_H
#include <stddef.h>

/*
 * The IPv4 address of DEV's PORT as a dotted string in buf: the IPv4-mapped
 * GID of the port's GID table (RoCE v1/v2), else an IPv4 address of a network
 * interface of the device's PCI function (IPoIB). sysfs is the sysfs mount
 * ("/sys"; tests point it at a fixture). 0 when found, -1 when the port has
 * no IPv4 address (buf is then "").
 */
int gdr_dev_ipv4(const char *sysfs, const char *dev, int port, char *buf, size_t len);

#endif
