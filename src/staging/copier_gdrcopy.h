/* SPDX-License-Identifier: MIT */
/* The gdrcopy copier: the CPU copies through a BAR1 mapping of the GPU buffer. */
#ifndef GDR_COPIER_GDRCOPY_H
#define GDR_COPIER_GDRCOPY_H

#include "copier.h"

/*
 * open: the test memory must be CUDA memory; loads libgdrapi.so.2, opens
 * gdrdrv, pins and maps the whole buffer once (from its 64 KiB GPU page).
 * submit: copies at once (the CPU does it), so reap returns what was
 * submitted since the last reap. cp->lanes is not used: no copy is ever
 * left in flight.
 */
extern const struct gdr_copier_ops gdr_copier_gdrcopy_ops;

#endif
