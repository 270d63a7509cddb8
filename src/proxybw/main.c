/* SPDX-License-Identifier: MIT */
/* gdr_proxy_bw: the gpu-proxy path's kernel -> CPU proxy -> kernel leg, null NIC, no NIC. */
#include "config.h"
#include "exitcode.h"
#include "log.h"
#include "proxybw.h"

int main(int argc, char **argv)
{
	struct pb_opts o;
	int rc;

	gdr_set_prog(argv[0]);
	rc = pb_parse(&o, argc, argv);
	if (rc)
		return rc < 0 ? GDR_EXIT_USAGE : GDR_EXIT_OK;
	gdr_quiet = o.quiet;
	rc = pb_run(&o);
	pb_opts_free(&o);
	return rc ? GDR_EXIT_ERROR : GDR_EXIT_OK;
}
