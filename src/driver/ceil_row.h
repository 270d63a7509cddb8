/* SPDX-License-Identifier: MIT */
/*
 * Each bandwidth row's ceiling, limit and note (results.h), from this side's
 * facts read once before the sizes (sysinfo/ceiling.h): the port's active
 * rate, the NIC's PCIe link and, for GPU memory, the GPU's link and the P2P
 * path class; staged rows also the copy rate --compare measured at the size.
 * Only this side's facts: the peer's GPU and NIC are not known here.
 * Latency rows get none.
 */
#ifndef GDR_CEIL_ROW_H
#define GDR_CEIL_ROW_H

#include <stdbool.h>
#include "ceiling.h"
#include "conn.h"
#include "results.h"

struct gdr_ceil_rows {
	struct ceil_in host; /* this side's facts with host memory */
	struct ceil_in gpu;  /* and with its GPU memory (gpu.gpu_mem false: none) */
	double scale;	     /* 2 with -b: both directions count */
	bool copy_both;	     /* -b: the copy rate sums both directions (a read target copies too) */
	const char *copier;  /* staged rows: what copies on this side */
};

/*
 * The facts for RDMA device dev's port (port_gbps: the rate ibv_query_port
 * gives; 0 unknown: sysfs's is taken) and, with gpu_mem, the GPU at gpu_pci
 * (NULL or "": its link unknown), read below $GDR_SYSFS_ROOT/.. (a fixture's
 * sys/) or /.
 */
void gdr_ceil_rows_setup(struct gdr_ceil_rows *cr, const char *dev, int port, double port_gbps,
			 bool gpu_mem, const char *gpu_pci, bool bidir);
/* The same from a connected context (its device, port attributes and memory). */
void gdr_ceil_rows_init(struct gdr_ceil_rows *cr, const struct gdr_conn *c);
/*
 * Sets r's ceiling_Bps, ceil_limit and ceil_note (a latency row: left empty).
 * gpu_mem: this side's buffer of the row is GPU memory; staged: a staged row,
 * copy_Bps its copy rate (0: not measured, said in the note).
 */
void gdr_ceil_row(const struct gdr_ceil_rows *cr, bool gpu_mem, bool staged, double copy_Bps,
		  struct gdr_result *r);
/* The same with the staged row's copier named in its limit (NULL: cr->copier). */
void gdr_ceil_row_copier(const struct gdr_ceil_rows *cr, bool gpu_mem, bool staged, double copy_Bps,
			 const char *copier, struct gdr_result *r);
/* A copier's name in a limit: ce -> "copy engine"; gdrcopy, sm, memcpy as they are. */
const char *gdr_ceil_copier_name(const char *stage_copy);

#endif
