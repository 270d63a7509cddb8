/* SPDX-License-Identifier: MIT */
/*
 * Cluster mode's last MPI calls are bounded (issue 34.12): a rank armed with
 * gdr_cexit_arm that then hangs (as MPI_Finalize does when a node's network
 * stalls: it waits for every rank) exits on its own after the time given,
 * with the job's status and one line saying what did not return.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "cluster_int.h"

#include "check.h"

int main(void)
{
	int fds[2], st = 0;
	char err[512] = "";
	uint64_t t0 = gdr_now_ns();
	double s;
	ssize_t n;
	pid_t pid;

	CHECK(pipe(fds) == 0);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		gdr_cexit_arm(3, "MPI_Finalize", 1, 1);
		for (;;)
			pause(); /* a hung MPI_Finalize */
	}
	close(fds[1]);
	n = read(fds[0], err, sizeof(err) - 1);
	err[n > 0 ? n : 0] = '\0';
	CHECK(waitpid(pid, &st, 0) == pid);
	s = (double)(gdr_now_ns() - t0) / 1e9;
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %#x, want exit 1", st);
	CHECK(s >= 0.9 && s < 5, "ended after %.2f s, want about 1", s);
	CHECK(!strcmp(err, "rank 3: MPI_Finalize did not return within 1 s (a node's network "
			   "stalled?); exit 1 without it\n"),
	      "stderr '%s'", err);
	/* disarmed (alarm(0)) by a call that returned: nothing fires */
	pid = fork();
	if (pid == 0) {
		gdr_cexit_arm(0, "MPI_Finalize", 1, 7);
		alarm(0);
		sleep(2);
		_exit(0);
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "disarmed: status %#x", st);
	return CHECK_DONE();
}
