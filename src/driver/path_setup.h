/* SPDX-License-Identifier: MIT */
/* Path setup: buffer geometry, memory, the paths a run measures (host, direct, staged), QPs. */
#ifndef GDR_PATH_SETUP_H
#define GDR_PATH_SETUP_H

#include "conn.h"
#include "mem.h"
#include "opts.h"

/* The memory the options ask for, in memory's terms. */
struct gdr_mem_cfg gdr_run_mem_cfg(const struct gdr_opts *o);
/* Buffer geometry (c->region_len, c->recv_len) for every size of c->sizes. */
void gdr_size_buffers(struct gdr_conn *c);
/* Memory, the paths, the CM or the QPs, each path's MR and receives. 0 or -1 (printed). */
int gdr_connect_paths(struct gdr_conn *c);

#endif
