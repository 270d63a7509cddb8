/* SPDX-License-Identifier: MIT */
/* --transport=NAME: the transport of that name, or one line saying why there is none. */
#include "config.h"
#include <string.h>
#include "log.h"
#include "xport_pick.h"

/* The transports a build may lack (verbs and loop are in every one), and what brings them. */
#ifdef HAVE_LIBFABRIC
#define OFI_BUILT true
#else
#define OFI_BUILT false /* its row is a stub that says how to get it */
#endif
static const struct {
	const char *name, *how;
	bool built;
} optional[] = {
    {"ofi", "libfabric's headers (Debian: libfabric-dev; RPM: libfabric-devel)", OFI_BUILT},
};

/*
 * Verbs is built into every gdrperf (configure requires rdma-core): the
 * connection's own verbs code runs it while its ops row is not in the
 * registry yet, so the name stands even when gdr_xport_find has no row.
 */
static bool built_in(const char *name)
{
	return !strcmp(name, GDR_XPORT_DEFAULT);
}

int gdr_xport_pick(const char *name, const struct gdr_xport_ops **xp)
{
	const char *have = gdr_xport_names();

	if (!name)
		name = GDR_XPORT_DEFAULT;
	*xp = gdr_xport_find(name);
	if (built_in(name))
		return 0;
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (!strcmp(optional[i].name, name) && !optional[i].built) {
			gdr_err(
			    "--transport=%s: this build has no %s transport: build gdrperf with "
			    "%s installed (this build has: %s)",
			    name, name, optional[i].how, have[0] ? have : GDR_XPORT_DEFAULT);
			*xp = NULL;
			return -1;
		}
	if (*xp)
		return 0; /* run through its ops (driver/path_xport.c) */
	gdr_err("--transport=%s: no such transport (this build has: %s)", name,
		have[0] ? have : GDR_XPORT_DEFAULT);
	return -1;
}
