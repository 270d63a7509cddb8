/* SPDX-License-Identifier: MIT */
/*
 * What the programs that measure without a NIC (gdr_stage_bw, gdr_proxy_bw) share in
 * their option tables on the engine (optengine.h): the rows each of them has, the
 * refusal of a host argument, and parsing into zeroed settings. ctx is the program's
 * name (gdr_tool_parse passes it to the hooks).
 */
#ifndef GDR_OPT_TOOL_H
#define GDR_OPT_TOOL_H

#include <stddef.h>
#include "optengine.h"

/* The GPU by PCI address, into char *F of settings type T. */
#define GDR_TOOL_ROW_BUS_ID(T, F)                                                                  \
	{                                                                                          \
		.name = "use_cuda_bus_id", .arg = "BDF", .type = GDR_OT_BDF, GDR_OPT_FIELD(T, F),  \
		.help = "GPU by PCI address, e.g. 0000:19:00.0"                                    \
	}

/* -q, into bool F of settings type T. */
#define GDR_TOOL_ROW_QUIET(T, F)                                                                   \
	{                                                                                          \
		.name = "quiet", .letter = 'q', .type = GDR_OT_FLAG, GDR_OPT_FIELD(T, F),          \
		.help = "no informational lines"                                                   \
	}

/* -h and -V, the table's last rows. */
#define GDR_TOOL_ROWS_HELP_VERSION                                                                 \
	{.name = "help", .letter = 'h', .type = GDR_OT_HELP, .help = "this help"},                 \
	{                                                                                          \
		.name = "version", .letter = 'V', .type = GDR_OT_VERSION,                          \
		.help = "print the version"                                                        \
	}

/* A gdr_optdef's rows and rules from the arrays R and U. */
#define GDR_TOOL_TABLE(R, U)                                                                       \
	.rows = R, .nrows = sizeof(R) / sizeof((R)[0]), .rules = U,                                \
	.nrules = sizeof(U) / sizeof((U)[0])

/* The positional hook: any word is refused in one line (ctx: the program's name). */
int gdr_tool_no_host(void *settings, int argc, char **argv, const void *ctx);

/* settings (size bytes) zeroed, then gdr_optparse with ctx prog; its answer. */
int gdr_tool_parse(const struct gdr_optdef *d, void *settings, size_t size, const char *prog,
		   int argc, char **argv);

#endif
