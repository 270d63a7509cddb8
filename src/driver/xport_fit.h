/* SPDX-License-Identifier: MIT */
/* The options a transport cannot honour, refused before any network step. */
#ifndef GDR_XPORT_FIT_H
#define GDR_XPORT_FIT_H

#include <stdbool.h>
#include "opts.h"
#include "xport.h"

/*
 * Whether o's transport (--transport) registers GPU memory: verbs, or one
 * with GDR_XC_HMEM or GDR_XC_DMABUF: in link->caps, what its opened device
 * can do (ofi: the provider as opened, FI_HMEM or not), or with link NULL
 * (not open yet) in the build's caps. Without it --compare leaves the direct
 * and gpu-proxy rows out where either side's memory is on a GPU (path_setup.c).
 */
bool gdr_xport_gpu_reg(const struct gdr_opts *o, const struct gdr_xlink *link);
/* Why a transport without it has no direct row, for the line a run prints. */
#define GDR_XPORT_NO_GPU_REG "it cannot register GPU memory (no HMEM or dma-buf)"
/*
 * 0, or -1 with one line naming the option and the transport (and the
 * provider, once opened: link; NULL before the open): --provider
 * without ofi; over a transport other than verbs, -R, -c UC/UD, atomics
 * without GDR_XC_ATOMIC, -e without wait, -W and --qp_addr (verbs port
 * counters and QP numbers), and on a client GPU memory without
 * gdr_xport_gpu_reg unless --staged or --compare runs without the direct
 * path (a server learns its client's test later: gdr_xpath_connect refuses
 * its GPU memory then). xp NULL: verbs.
 */
int gdr_xport_fit(const struct gdr_opts *o, const struct gdr_xport_ops *xp,
		  const struct gdr_xlink *link, bool is_server);

#endif
