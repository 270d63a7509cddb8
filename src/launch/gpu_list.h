/* SPDX-License-Identifier: MIT */
/*
 * The launchers' fork rule (docs/ARCHITECTURE.md): a process that forks without exec never
 * initialises a GPU runtime. The real CUDA driver answers every call of a child forked after
 * its parent's cuInit with CUDA_ERROR_NOT_INITIALIZED (a fresh cuInit does not help), so
 * --rails and --matrix, whose cells are forked children, keep the launcher free of it.
 */
#ifndef GDR_GPU_LIST_H
#define GDR_GPU_LIST_H

#include <stddef.h>
#include "mem.h"

/*
 * The PCI addresses of api's GPUs in its index order (CUDA's default order is fastest first,
 * not PCI order, so only the runtime can say it), at most max, asked in a short-lived child
 * that writes them up a pipe and exits: this process never loads the runtime. The count, or
 * -1 with one line in why (no GPU, the runtime's reason; the child could not run).
 */
int gdr_gpu_list(enum gdr_mem_api api, char (*bdf)[32], int max, char *why, size_t wn);

/*
 * Before a fork without exec: 0, or -1 with one error line naming what (e.g. "--rails:
 * rxe0:1's server") when this process loaded a GPU runtime, so its child could not use it.
 */
int gdr_fork_check(const char *what);

#endif
