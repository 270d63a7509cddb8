/* SPDX-License-Identifier: MIT */
/*
 * The last MPI calls of a rank, bounded (issue 34.12). MPI_Finalize waits
 * for every rank and MPI_Abort for the launcher; on a node whose network
 * stalled neither need ever return, and the job then hangs until an outside
 * limit kills it. Rank 0 has written its CSV and JSON by then, so a rank
 * that is still in one of them after the watchdog's time says so on stderr
 * and exits with the status it already has.
 */
#include "config.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cluster_int.h"

static volatile sig_atomic_t exit_status;
static char line[160];
static volatile sig_atomic_t line_len;

static void on_alarm(int sig)
{
	(void)sig;
	if (line_len > 0 && write(2, line, (size_t)line_len) < 0)
		line_len = 0; /* nothing more to do: the exit below is what matters */
	_exit(exit_status);
}

void gdr_cexit_arm(int rank, const char *what, unsigned seconds, int status)
{
	struct sigaction sa;
	int n;

	exit_status = status;
	n = snprintf(line, sizeof(line),
		     "rank %d: %s did not return within %u s (a node's network stalled?); exit %d "
		     "without it\n",
		     rank, what, seconds, status);
	line_len = n < 0 ? 0 : n >= (int)sizeof(line) ? (int)sizeof(line) - 1 : n;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}
