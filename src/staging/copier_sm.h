/* SPDX-License-Identifier: MIT */
/*
 * The sm copier (copier.h): a persistent GPU kernel per open copier, woken by
 * doorbells in mapped pinned host memory, copying with SM loads and stores
 * (sm_copy.cu; the doorbell protocol is in sm_proto.h), as NCCL stages
 * without GPUDirect. Needs GPU test memory and bounce memory the GPU can
 * address (the CUDA backend's host_alloc).
 *
 * Close it before the test memory or the bounce memory is freed: cuMemFree
 * and cuMemFreeHost wait for running kernels.
 *
 * GDR_SM_BLOCKS (1..8, default 4): blocks per lane and direction.
 * GDR_SM_PTX=FILE: load that PTX instead of the embedded one (kernel
 * development: scripts/gpu/sm-anchor.sh measures a variant without a rebuild).
 */
#ifndef GDR_COPIER_SM_H
#define GDR_COPIER_SM_H

#include "copier.h"

extern const struct gdr_copier_ops gdr_copier_sm_ops;

/*
 * Ring stop and wait (bounded by cp->timeout_ns) for the kernel to end, as
 * close does; copies submitted after it fail instead of waiting. 0, or -1
 * (printed) when the kernel did not end.
 */
int gdr_copier_sm_stop(struct gdr_copier *cp);

#endif
