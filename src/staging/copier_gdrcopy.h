/* SPDX-License-Identifier: MIT */
/* The gdrcopy copier: the CPU copies through a BAR1 mapping of the GPU buffer. */
#ifndef GDR_COPIER_GDRCOPY_H
#define GDR_COPIER_GDRCOPY_H

#include "copier.h"

/*
 * open: the test memory must be CUDA memory; loads libgdrapi.so.2, opens
 * gdrdrv, pins and maps the whole buffer once (from its 64 KiB GPU page).
 * submit: host->device copies at once (CPU stores through the mapping);
 * device->host too up to GDR_GDRCOPY_D2H_MAX, above that on the copy engine
 * (CPU reads of BAR1 run at a fraction of a GB/s: UCX too uses gdrcopy for
 * device->host only for small messages), one copy in flight per lane of the
 * test memory's device->host streams; reap returns, in order, what finished.
 * The blocking copies make it ops->blocks.
 */
/*
 * Where device->host turns to the copy engine: a BAR1 read of 4 KiB at ~0.5
 * GB/s (gdrcopy's copybw, WC mapping) takes ~8 us, about what one
 * copy-engine copy costs to start and finish (6-7 us measured on an H100).
 */
#define GDR_GDRCOPY_D2H_MAX 4096
extern const struct gdr_copier_ops gdr_copier_gdrcopy_ops;

#endif
