/* SPDX-License-Identifier: MIT */
/*
 * NIC settings: MLX5_SCATTER_TO_CQE is set to 0 for GPU receive buffers,
 * kept when the user set it, left alone for host memory; relaxed ordering
 * is asked for in bandwidth tests only, and never with --disable_pcie_relaxed.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "nic_env.h"

#include "check.h"

#define ENV "MLX5_SCATTER_TO_CQE"

static void scatter(void)
{
	char d[160];
	const char *v;

	unsetenv(ENV);
	gdr_scatter_to_cqe(false, d, sizeof(d));
	CHECK(getenv(ENV) == NULL, "host memory must not touch " ENV);
	CHECK(strstr(d, "provider default") != NULL, "%s", d);

	gdr_scatter_to_cqe(true, d, sizeof(d));
	v = getenv(ENV);
	CHECK(v && !strcmp(v, "0"), "GPU receive buffers need " ENV "=0");
	CHECK(strstr(d, "scatter-to-CQE off") != NULL, "%s", d);
	/* a --persistent server's next run: the variable is its own, not the user's */
	gdr_scatter_to_cqe(true, d, sizeof(d));
	CHECK(strstr(d, "scatter-to-CQE off") && !strstr(d, "set by the user"), "%s", d);
	gdr_scatter_to_cqe(false, d, sizeof(d));
	CHECK(getenv(ENV) == NULL && strstr(d, "provider default"), "host memory next: %s", d);

	/* The user's value is kept, and the header says so. */
	setenv(ENV, "1", 1);
	gdr_scatter_to_cqe(true, d, sizeof(d));
	v = getenv(ENV);
	CHECK(v && !strcmp(v, "1"), "the user's " ENV " was overwritten");
	CHECK(strstr(d, ENV "=1 (set by the user)") != NULL, "%s", d);
	unsetenv(ENV);
}

static void relaxed(void)
{
	struct gdr_opts o;
	char d[128];

	memset(&o, 0, sizeof(o));
	o.kind = GDR_KIND_BW;
#if HAVE_DECL_IBV_ACCESS_RELAXED_ORDERING
	CHECK(gdr_relaxed_ordering_flag(&o) == IBV_ACCESS_RELAXED_ORDERING);
	gdr_relaxed_ordering_desc(&o, d, sizeof(d));
	CHECK(!strcmp(d, "PCIe relaxed ordering requested"), "%s", d);
#else
	/* rdma-core < 28: nothing to ask for, and the header says why. */
	CHECK(gdr_relaxed_ordering_flag(&o) == 0);
	gdr_relaxed_ordering_desc(&o, d, sizeof(d));
	CHECK(strstr(d, "unavailable") != NULL, "%s", d);
#endif
	o.disable_pcie_relaxed = true;
	CHECK(gdr_relaxed_ordering_flag(&o) == 0);
	gdr_relaxed_ordering_desc(&o, d, sizeof(d));
	CHECK(strstr(d, "--disable_pcie_relaxed") != NULL, "%s", d);
	o.disable_pcie_relaxed = false;
	o.kind = GDR_KIND_LAT;
	CHECK(gdr_relaxed_ordering_flag(&o) == 0, "latency tests poll memory: no relaxed ordering");
	gdr_relaxed_ordering_desc(&o, d, sizeof(d));
	CHECK(strstr(d, "latency") != NULL, "%s", d);
}

int main(void)
{
	scatter();
	relaxed();
	return CHECK_DONE();
}
