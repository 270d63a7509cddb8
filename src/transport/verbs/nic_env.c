/* SPDX-License-Identifier: MIT */
/* NIC settings fixed before any queue pair exists (see nic_env.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "log.h"
#include "nic_env.h"

#define STC_ENV "MLX5_SCATTER_TO_CQE"

/* This process set the variable itself (an earlier run of a --persistent server). */
static bool stc_ours;

void gdr_scatter_to_cqe(bool gpu_rx, char *desc, size_t n)
{
	const char *user = getenv(STC_ENV);

	if (user && stc_ours && !strcmp(user, "0")) {
		if (gpu_rx) {
			snprintf(desc, n,
				 "scatter-to-CQE off (" STC_ENV
				 "=0: receive buffers in GPU memory)");
			return;
		}
		unsetenv(STC_ENV); /* host buffers now: back to the provider's default */
		stc_ours = false;
		user = NULL;
	}
	if (user) {
		if (gpu_rx && strcmp(user, "0"))
			gdr_warn(STC_ENV "=%s with receive buffers in GPU memory: libmlx5 may "
				 "crash copying a small message into them; unset it or set 0",
				 user);
		snprintf(desc, n, "scatter-to-CQE " STC_ENV "=%s (set by the user)", user);
		return;
	}
	if (!gpu_rx) {
		snprintf(desc, n, "scatter-to-CQE provider default");
		return;
	}
	if (setenv(STC_ENV, "0", 0)) {
		gdr_warn("cannot set " STC_ENV "=0; a small message received into GPU memory "
			 "may crash libmlx5");
		snprintf(desc, n, "scatter-to-CQE provider default (setting " STC_ENV " failed)");
		return;
	}
	stc_ours = true;
	snprintf(desc, n, "scatter-to-CQE off (" STC_ENV "=0: receive buffers in GPU memory)");
}

int gdr_relaxed_ordering_flag(const struct gdr_opts *o)
{
#if HAVE_DECL_IBV_ACCESS_RELAXED_ORDERING
	/* Not for latency: write latency polls the last byte of the buffer. */
	if (o->kind == GDR_KIND_BW && !o->disable_pcie_relaxed)
		return IBV_ACCESS_RELAXED_ORDERING;
#endif
	(void)o;
	return 0;
}

void gdr_relaxed_ordering_desc(const struct gdr_opts *o, char *desc, size_t n)
{
	if (gdr_relaxed_ordering_flag(o))
		snprintf(desc, n, "PCIe relaxed ordering requested");
	else if (o->kind != GDR_KIND_BW)
		snprintf(desc, n, "PCIe relaxed ordering off (latency test)");
	else if (o->disable_pcie_relaxed)
		snprintf(desc, n, "PCIe relaxed ordering off (--disable_pcie_relaxed)");
	else
		snprintf(desc, n, "PCIe relaxed ordering unavailable (libibverbs too old)");
}
