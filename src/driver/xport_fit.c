/* SPDX-License-Identifier: MIT */
/* The options a transport cannot honour (xport_fit.h): one line each, before the network. */
#include "config.h"
#include <string.h>
#include "log.h"
#include "xport_fit.h"

static bool gpu_memory(const struct gdr_opts *o)
{
	return o->rocm || o->use_cuda != GDR_CUDA_NONE;
}

bool gdr_xport_gpu_reg(const struct gdr_opts *o, const struct gdr_xlink *link)
{
	const struct gdr_xport_ops *xp = gdr_xport_find(o->transport ? o->transport : "");

	if (!gdr_xport_via_ops(xp))
		return true;
	return ((link ? link->caps : xp->caps) & (GDR_XC_HMEM | GDR_XC_DMABUF)) != 0;
}

/* Why xp cannot run o, or NULL. */
static const char *unfit(const struct gdr_opts *o, const struct gdr_xport_ops *xp,
			 const struct gdr_xlink *link, bool is_server, const char **opt)
{
	if (o->rdma_cm)
		return *opt = "-R (rdma_cm)", "its endpoints connect by the address exchange only";
	if (o->conn != GDR_CONN_RC)
		return *opt = o->conn == GDR_CONN_UD ? "-c UD" : "-c UC",
		       "its endpoints are reliable and connected (RC) only";
	if (o->verb == GDR_VERB_ATOMIC && !(xp->caps & GDR_XC_ATOMIC))
		return *opt = "atomics", "it has no 64-bit atomics";
	if (o->events && !xp->wait)
		return *opt = "-e", "it has no completion events (its completions are polled)";
	if (!is_server && gpu_memory(o) && !o->staged && !o->compare && !gdr_xport_gpu_reg(o, link))
		return *opt = o->rocm ? "--use_rocm" : "--use_cuda",
		       GDR_XPORT_NO_GPU_REG ": the direct path cannot run; --staged runs (host "
					    "bounce buffers), --compare without its direct row";
	if (o->counters_list)
		return *opt = "-W", "the counters are a verbs port's";
	if (o->qp_addr)
		return *opt = "--qp_addr", "the lines are verbs QP numbers";
	return NULL;
}

int gdr_xport_fit(const struct gdr_opts *o, const struct gdr_xport_ops *xp,
		  const struct gdr_xlink *link, bool is_server)
{
	const char *name = xp ? xp->name : GDR_XPORT_DEFAULT, *opt = NULL, *why;

	if (o->provider && strcmp(name, "ofi")) {
		gdr_err("--provider=%s: only the ofi transport takes a provider (this run's "
			"transport: %s; add --transport=ofi)",
			o->provider, name);
		return -1;
	}
	if (!gdr_xport_via_ops(xp) || !(why = unfit(o, xp, link, is_server, &opt)))
		return 0;
	if (link && link->provider[0]) /* the provider as opened decided it */
		gdr_err("%s: not over the %s transport with provider %s: %s", opt, name,
			link->provider, why);
	else
		gdr_err("%s: not over the %s transport: %s", opt, name, why);
	return -1;
}
