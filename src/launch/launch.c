/* SPDX-License-Identifier: MIT */
/* The program of a test binary: its options, then one pair (the driver) or every pair (cluster). */
#include "config.h"
#include <signal.h>
#include "cluster.h"
#include "exitcode.h"
#include "launch.h"
#include "log.h"
#include "matrix.h"
#include "rails.h"
#include "run.h"

int gdr_main(int argc, char **argv, const struct gdr_test *t)
{
	struct gdr_opts o;
	int ret;

	gdr_set_prog(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	ret = gdr_opts_parse(&o, t, argc, argv);
	if (ret)
		return ret > 0 ? GDR_EXIT_OK : GDR_EXIT_USAGE;
	gdr_quiet = o.quiet;
	if (o.pairing && !o.matrix && o.use_cuda != GDR_CUDA_AUTO) {
		gdr_err("--pairing=%s: read by --use_cuda=auto (or written by --matrix)", o.pairing);
		gdr_opts_free(&o);
		return GDR_EXIT_USAGE;
	}
	ret = o.cluster	 ? gdr_cluster_main(&o, t)
	      : o.matrix ? gdr_matrix_main(&o, t)
	      : o.rails	 ? gdr_rails_main(&o, t)
			 : gdr_run(&o, t, NULL);
	gdr_opts_free(&o);
	return ret;
}
