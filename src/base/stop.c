/* SPDX-License-Identifier: MIT */
/*
 * A clean stop on SIGINT/SIGTERM (a client; --run_infinitely ends its run this way): the
 * signal only sets a flag loops and waits read.
 */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include "log.h"
#include "stop.h"

static volatile sig_atomic_t stop_asked, stop_sig, hurry_asked, may_hurry;
static struct timespec first_at;

/*
 * A second signal ends the process, but only one that comes a second or more
 * after the first: timeout(1) sends one SIGINT to its child and another to
 * its process group, which must not kill a run that is stopping cleanly.
 */
static void on_signal(int sig)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
	if (!stop_asked) {
		stop_asked = 1;
		stop_sig = sig;
		first_at = now;
		return;
	}
	if (now.tv_sec - first_at.tv_sec > 1 ||
	    (now.tv_sec - first_at.tv_sec == 1 && now.tv_nsec >= first_at.tv_nsec)) {
		if (may_hurry && !hurry_asked) { /* a launcher: the next one ends it */
			hurry_asked = 1;
			first_at = now;
			return;
		}
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

int gdr_stop_on_signals(void)
{
	struct sigaction sa;

	may_hurry = 0; /* a launcher's child: as any process */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL)) {
		gdr_err("cannot catch SIGINT/SIGTERM: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int gdr_stop_on_signals_hurry(void)
{
	int rc = gdr_stop_on_signals();

	may_hurry = 1;
	return rc;
}

bool gdr_stop_hurried(void)
{
	return hurry_asked != 0;
}

bool gdr_stop_requested(void)
{
	return stop_asked != 0;
}

const char *gdr_stop_signal_name(void)
{
	return stop_sig == SIGINT ? "SIGINT" : stop_sig == SIGTERM ? "SIGTERM" : "a signal";
}
