/* SPDX-License-Identifier: MIT */
/*
 * The libfabric transport in a build without libfabric's headers: its name
 * is known, and opening it says how to get it.
 */
#include "config.h"
#include "log.h"
#include "xport.h"

static int none_open(struct gdr_xdom **d, const struct gdr_xdom_cfg *cfg, struct gdr_xlink *link)
{
	*d = NULL;
	gdr_err("--transport=ofi: this gdrperf was built without libfabric's headers; install "
		"them (Debian/Ubuntu: apt-get install libfabric-dev) and run configure again");
	return -GDR_XNODEV;
}

const struct gdr_xport_ops gdr_xport_ofi = {
    .name = "ofi",
    .open = none_open,
};
