/* SPDX-License-Identifier: MIT */
/* Path setup: buffer geometry, memory, the paths a run measures (host, direct, staged), QPs. */
#ifndef GDR_PATH_SETUP_H
#define GDR_PATH_SETUP_H

#include "conn.h"
#include "mem.h"
#include "opts.h"
#include "test_req.h"

/* The memory the options ask for, in memory's terms. */
struct gdr_mem_cfg gdr_run_mem_cfg(const struct gdr_opts *o);
/* Buffer geometry (c->region_len, c->recv_len) for every size of the test. */
void gdr_size_buffers(struct gdr_conn *c, const struct gdr_test_req *req);
/* Memory, the paths, the CM or the QPs, each path's MR and receives. 0 or -1 (printed). */
int gdr_connect_paths(struct gdr_conn *c, const struct gdr_test_req *req);
/* Free the memory gdr_connect_paths allocated (after the MRs are gone: gdr_verbs_close). */
void gdr_paths_free(struct gdr_conn *c);

#endif
