/* SPDX-License-Identifier: MIT */
/* An RDMA device in sysfs below a root ("/" or a fixture): its PCI function, a port's rate. */
#ifndef GDR_SYSINFO_IBDEV_H
#define GDR_SYSINFO_IBDEV_H

#include <stddef.h>

/*
 * The PCI address of RDMA device dev (<sysroot>/sys/class/infiniband/<dev>/device)
 * into bdf; an mlx5 sub-function (an auxiliary device below its PF,
 * ".../0000:03:00.0/mlx5_core.sf.2") gives its PF's. 0, or -1 when it has
 * none: a software device (rxe, siw).
 */
int ib_dev_bdf(const char *sysroot, const char *dev, char *bdf, size_t n);

/* A port's active rate in Gb/s from sysfs ("10 Gb/sec (1X FDR10)" -> 10); 0 when not readable. */
double ib_port_rate_gbps(const char *sysroot, const char *dev, int port);

#endif
