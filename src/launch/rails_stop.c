/* SPDX-License-Identifier: MIT */
/*
 * --rails: stopping the rails (rails_int.h). A stop asks every client to end; rails still
 * running GDR_RAILS_GRACE_S later, or at a second signal, are killed; every wait for a
 * rail's process on a stop is bounded, so the launcher always writes what completed.
 */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "clock.h"
#include "log.h"
#include "rails_int.h"
#include "stop.h"

/*
 * The sizes a rail completed: every size it started, when its client ran out (ended its
 * outputs without a stop); else all but the one it was in (running, at the barrier, stopped,
 * or dead mid-size).
 */
static size_t sizes_done(const struct rail *r)
{
	if (r->ended && !r->stopped[0])
		return r->nready;
	return r->nready ? r->nready - 1 : 0;
}

/* The launcher's stop line, and every client told to stop (a signal to this process alone). */
void gdr_rails_stop(struct rail *r, int n, size_t nsizes, char *stopped, size_t len)
{
	uint64_t size = 0;
	size_t done = nsizes;

	for (int i = 0; i < n; i++) {
		if (r[i].cli > 0)
			kill(r[i].cli, SIGTERM);
		if (r[i].size > size)
			size = r[i].size;
		if (sizes_done(&r[i]) < done)
			done = sizes_done(&r[i]);
	}
	snprintf(stopped, len,
		 "interrupted by %s during the %llu-byte test; %zu of %zu sizes completed on every "
		 "rail",
		 gdr_stop_signal_name(), (unsigned long long)size, done, nsizes);
}

/*
 * A stop that the rails do not finish within GDR_RAILS_GRACE_S (a rail hung in a driver call,
 * stopped, cut off), or a second signal: every rail's processes killed, what their pipes
 * still hold read for half a second, then the launcher writes what completed.
 */
void gdr_rails_kill(struct rail *r, int n)
{
	int left = 0;

	for (int i = 0; i < n; i++) {
		left += r[i].up >= 0;
		if (r[i].cli > 0)
			kill(r[i].cli, SIGKILL);
		if (r[i].srv > 0)
			kill(r[i].srv, SIGKILL);
	}
	if (gdr_stop_hurried())
		gdr_warn("--rails: a second signal with %d rail%s still running: killed them; "
			 "writing what completed",
			 left, left == 1 ? "" : "s");
	else
		gdr_warn("--rails: %d rail%s still running %d s after the stop: killed them; "
			 "writing what completed",
			 left, left == 1 ? "" : "s", GDR_RAILS_GRACE_S);
}

/* waitpid for at most ms (< 0: no limit): 1 reaped (*st), 0 not. */
static int wait_for(pid_t pid, int *st, int ms)
{
	for (int k = 0; ms < 0 || k * 50 <= ms; k++) {
		pid_t w = waitpid(pid, st, ms < 0 ? 0 : WNOHANG);

		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR)
			return 0;
		if (w == 0)
			usleep(50000);
	}
	return 0;
}

/* One process, without waiting: 1 reaped (its exit status in *status, if given), else 0. */
static int reaped(pid_t pid, int *status)
{
	int st;

	if (pid <= 0 || waitpid(pid, &st, WNOHANG) != pid)
		return 0;
	if (status)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 1;
}

/*
 * On a stop: the servers told to end, then every rail's processes waited for together,
 * 2 s in all (their exits run side by side; a process that SIGKILL does not end is left).
 */
static void reap_stopping(struct rail *r, int n)
{
	uint64_t end = gdr_now_ns() + 2000000000ull;
	bool cli_done[GDR_MAX_RAILS] = {0}, srv_done[GDR_MAX_RAILS] = {0};
	int left;

	for (int i = 0; i < n; i++)
		if (r[i].srv > 0)
			kill(r[i].srv, SIGTERM);
	do {
		left = 0;
		for (int i = 0; i < n; i++) {
			cli_done[i] =
			    cli_done[i] || r[i].cli <= 0 || reaped(r[i].cli, &r[i].status);
			srv_done[i] = srv_done[i] || r[i].srv <= 0 || reaped(r[i].srv, NULL);
			left += !cli_done[i] + !srv_done[i];
		}
		if (left)
			usleep(20000);
	} while (left && gdr_now_ns() < end);
}

/*
 * Each client's exit; each server ends when its client has gone (bounded). On a stop
 * every wait is bounded (reap_stopping).
 */
void gdr_rails_reap(struct rail *r, int n, bool stopping)
{
	int st;

	if (stopping) {
		reap_stopping(r, n);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (r[i].cli <= 0 || !wait_for(r[i].cli, &st, -1))
			continue;
		r[i].status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	for (int i = 0; i < n; i++) {
		if (r[i].srv <= 0)
			continue;
		if (!wait_for(r[i].srv, &st, 10000)) {
			kill(r[i].srv, SIGTERM);
			wait_for(r[i].srv, &st, 2000);
		}
	}
}
