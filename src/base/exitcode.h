/* SPDX-License-Identifier: MIT */
/*
 * The exit status of every gdrperf program (the test binaries alone, in pairs,
 * under --rails and --cluster, gdr_stage_bw, gdr_doctor): one scheme, so an
 * acceptance pipeline tells a slow node from a broken run without reading
 * stderr. docs/acceptance.md ("Exit status") and the man pages say the same.
 */
#ifndef GDR_EXITCODE_H
#define GDR_EXITCODE_H

enum gdr_exit {
	/* ran to its end; every floor set (-w, -y, --expect-bw) held, no doctor FAIL */
	GDR_EXIT_OK = 0,
	/* ran to its end, and a result is below a floor (FAIL, a cluster pair SLOW), or a
	 * doctor check FAILed: the node is what is wrong */
	GDR_EXIT_FAIL = 1,
	/* could not run or did not complete: device, memory, peer gone, network,
	 * output files, a cluster's ranks that do not agree */
	GDR_EXIT_ERROR = 2,
	/* the command line is wrong (an option, a value, a combination): nothing ran */
	GDR_EXIT_USAGE = 3,
	/* stopped by SIGINT or SIGTERM before its end (the rows that completed are
	 * kept and every output says where it stopped); --run_infinitely's Ctrl-C is
	 * its normal end and exits 0 */
	GDR_EXIT_INTERRUPTED = 4,
};

#endif
