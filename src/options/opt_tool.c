/* SPDX-License-Identifier: MIT */
/* The no-NIC programs' shared option pieces (opt_tool.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <string.h>
#include "log.h"
#include "opt_tool.h"

int gdr_tool_no_host(void *settings, int argc, char **argv, const void *ctx)
{
	(void)settings;
	if (argc) {
		gdr_err("unexpected argument '%s': %s takes no host (no NIC involved)", argv[0],
			ctx ? (const char *)ctx : "this program");
		return -1;
	}
	return 0;
}

int gdr_tool_parse(const struct gdr_optdef *d, void *settings, size_t size, const char *prog,
		   int argc, char **argv)
{
	memset(settings, 0, size);
	return gdr_optparse(d, settings, prog, argc, argv);
}
