/* SPDX-License-Identifier: MIT */
/*
 * The stop on signals (base/stop.h): the first SIGINT asks for a stop, a repeat within a
 * second is the same stop; a second one a second or more later ends a plain process and
 * makes a launcher (gdr_stop_on_signals_hurry) hurry instead; a third ends the launcher.
 * Each case in a child process, so a signal that ends it is seen from outside.
 */
#include "config.h"
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "stop.h"

#include "check.h"

/* Child: catch, then raise SIGINT at the given delays (us); exit 10 + requested + 2 x hurried. */
static int child(bool hurry, const unsigned *delays, int n)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (hurry ? gdr_stop_on_signals_hurry() : gdr_stop_on_signals())
			_exit(1);
		for (int i = 0; i < n; i++) {
			usleep(delays[i]);
			raise(SIGINT);
		}
		_exit(10 + gdr_stop_requested() + 2 * gdr_stop_hurried());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void)
{
	static const unsigned one[] = {0}, quick[] = {0, 100000}, late[] = {0, 1100000},
			      third[] = {0, 1100000, 1100000};
	int rc;

	rc = child(false, one, 1);
	CHECK(rc == 11, "one SIGINT: a stop asked, the process goes on (%d)", rc);
	rc = child(false, quick, 2);
	CHECK(rc == 11, "a repeat within a second: the same stop (%d)", rc);
	rc = child(false, late, 2);
	CHECK(rc == 128 + SIGINT, "a second SIGINT 1.1 s later ends a plain process (%d)", rc);
	rc = child(true, quick, 2);
	CHECK(rc == 11, "launcher: a repeat within a second is the same stop (%d)", rc);
	rc = child(true, late, 2);
	CHECK(rc == 13, "launcher: a second SIGINT 1.1 s later asks it to hurry, not end (%d)", rc);
	rc = child(true, third, 3);
	CHECK(rc == 128 + SIGINT, "launcher: a third SIGINT 1.1 s after the second ends it (%d)",
	      rc);
	return CHECK_DONE();
}
