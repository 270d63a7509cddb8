/* SPDX-License-Identifier: MIT */
/*
 * --matrix on a host without an ACTIVE RDMA port (matrix.h): what can run, the copy leg of
 * the staged path, by gdr_stage_bw beside this program (src/stagebw sits above src/launch:
 * it runs as a program), each GPU alone and then every GPU at once.
 */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "clock.h"
#include "exitcode.h"
#include "log.h"
#include "matrix_int.h"
#include "run_header.h"
#include "stop.h"

/*
 * gdr_stage_bw's end into *st; a stop (SIGINT/SIGTERM to this program) is passed on to it, and
 * 3 s later it is killed. 0, or -1 not waited for.
 */
static int wait_stage_bw(pid_t pid, int *st)
{
	uint64_t told = 0;

	for (;;) {
		pid_t w = waitpid(pid, st, WNOHANG);

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -1;
		if (gdr_stop_requested() && !told) {
			kill(pid, SIGTERM);
			told = gdr_now_ns();
		} else if (told && gdr_now_ns() - told > 3000000000ull) {
			kill(pid, SIGKILL);
		}
		usleep(20000);
	}
}

/*
 * No ACTIVE RDMA port: the copy leg of the staged path, each GPU alone and then every GPU at
 * once, by gdr_stage_bw beside this program. Its exit status.
 */
int mx_copy_leg_only(const struct mx *m)
{
	char self[PATH_MAX], prog[PATH_MAX + 16], size[32], gpu[16], secs[40];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int worst = GDR_EXIT_OK;
	struct gdr_report_files files = gdr_run_report_files(m->o);
	const char *out = files.csv    ? "--csv"
			  : files.json ? "--json"
			  : files.prom ? "--prom"
				       : NULL;

	if (out) { /* the copy leg's rows are not a cell's: gdr_stage_bw --csv keeps them */
		gdr_err("--matrix: no ACTIVE RDMA port on this host: no cell to write to %s (the "
			"copy leg alone: gdr_stage_bw --use_cuda=all --csv=FILE)",
			out);
		return GDR_EXIT_USAGE;
	}
	printf(
	    "--matrix: no ACTIVE RDMA port on this host: the NIC columns did not run (no direct or "
	    "staged cell); the copy leg of the staged path alone, each GPU, then every GPU at "
	    "once (gdr_stage_bw)\n");
	if (m->o->pairing)
		gdr_warn("--pairing=%s: not written: no NIC port ran, so there is no pairing to "
			 "measure",
			 m->o->pairing);
	fflush(NULL);
	if (gdr_stop_on_signals()) /* a stop ends gdr_stage_bw too, then this program (4) */
		return GDR_EXIT_ERROR;
	if (len > 0)
		self[len] = '\0';
	if (len <= 0 || !strrchr(self, '/')) {
		gdr_err("--matrix: cannot find this program's folder for gdr_stage_bw");
		return GDR_EXIT_ERROR;
	}
	*strrchr(self, '/') = '\0';
	snprintf(prog, sizeof(prog), "%s/gdr_stage_bw", self);
	snprintf(size, sizeof(size), "--size=%llu", (unsigned long long)m->size);
	/* each measurement --matrix_time, whatever the copy's rate: its warm-up times the copies */
	snprintf(secs, sizeof(secs), "--time=%g", m->o->matrix_time);
	for (int g = 0; g <= m->ngpu; g++) {
		pid_t pid;
		int st;

		if (g == m->ngpu && m->ngpu < 2)
			break;
		snprintf(gpu, sizeof(gpu), g < m->ngpu ? "--use_cuda=%d" : "--use_cuda=all", g);
		printf("\n$ gdr_stage_bw %s %s %s --reps=1 --dir=all\n", gpu, size, secs);
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			execl(prog, "gdr_stage_bw", gpu, size, secs, "--reps=1", "--dir=all",
			      (char *)NULL);
			gdr_err("--matrix: %s: %s", prog, strerror(errno));
			_exit(GDR_EXIT_ERROR);
		}
		if (pid < 0 || wait_stage_bw(pid, &st) || !WIFEXITED(st) || WEXITSTATUS(st))
			worst = GDR_EXIT_ERROR;
		if (gdr_stop_requested()) {
			gdr_err(
			    "--matrix: interrupted by %s: the copy leg measured so far is above",
			    gdr_stop_signal_name());
			return GDR_EXIT_INTERRUPTED;
		}
	}
	return worst;
}
