/* SPDX-License-Identifier: MIT */
/*
 * The transport conformance harness: any transport of xport.h, by name, held
 * to what the engine relies on (xt_cases.c), between two processes.
 *
 *   t_xport TRANSPORT [ARG]
 *
 * ARG is what the transport's row in rows[] makes of it (its device, -d, by
 * default; a libfabric provider for ofi).
 * The test forks and execs itself as the peer (--peer FD TRANSPORT [ARG]),
 * the two swap their regions' facts and each case's endpoint addresses over
 * a socketpair. Exit 0 all passed, 1 a failure, 77 no such transport here.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "xt_cases.h"

/*
 * The transport-specific part, one row each: what the command line's
 * argument after the transport's name means to it. A transport without a
 * row takes it as its device (gdr_xdom_cfg.dev, -d).
 */
static void arg_dev(struct gdr_xdom_cfg *c, const char *arg)
{
	c->dev = arg;
}

/* ofi: the libfabric provider ("tcp;ofi_rxm", "shm"). */
static void arg_provider(struct gdr_xdom_cfg *c, const char *arg)
{
	c->provider = arg;
}

/*
 * ofi: a provider's own documented rule that makes a case moot (docs/ofi.md),
 * its reason printed with the skip; NULL: the case runs.
 */
static const char *moot_provider(const char *arg, const char *name)
{
	if (arg && !strcmp(arg, "shm") && !strcmp(name, "bad_key"))
		return "shm (libfabric 1.17) gives no completion for a write under a key the "
		       "peer never gave: its rule, docs/ofi.md";
	return NULL;
}

static const struct xt_row {
	const char *name;
	void (*arg)(struct gdr_xdom_cfg *c, const char *arg);
	const char *(*moot)(const char *arg, const char *name); /* NULL: every case runs */
} rows[] = {
    {"loop", arg_dev, NULL},		  /* "loop", its one device, or none */
    {"ofi", arg_provider, moot_provider}, /* a libfabric provider */
};

static const struct xt_row *the_row; /* this run's, NULL none */
static const char *the_arg;

static void apply_arg(const char *name, struct gdr_xdom_cfg *c, const char *arg)
{
	the_arg = arg;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].name, name)) {
			the_row = &rows[i];
			rows[i].arg(c, arg);
			return;
		}
	arg_dev(c, arg);
}

static const char *moot(const char *name)
{
	return the_row && the_row->moot ? the_row->moot(the_arg, name) : NULL;
}

static bool runs(const struct xt *t, const struct xt_case *c)
{
	return (t->xp->caps & c->needs) == c->needs && !(t->xp->caps & c->lacks);
}

/* Every case, both sides in step: A's failures plus the peer's, reported by A. */
static int run_cases(struct xt *t)
{
	int failed = 0, passed = 0, skipped = 0;

	for (uint32_t i = 0; xt_cases[i].name; i++) {
		const struct xt_case *c = &xt_cases[i];
		struct gdr_xep *ep = NULL;
		uint32_t theirs = 0;
		const char *why = moot(c->name);

		if (why) {
			if (!t->peer)
				printf("skip %s: %s\n", c->name, why);
			skipped++;
			continue;
		}
		if (!runs(t, c)) {
			if (!t->peer)
				printf("skip %s: the transport %s\n", c->name,
				       c->lacks ? "has a capability that makes it moot"
						: "lacks a capability it needs");
			skipped++;
			continue;
		}
		t->cname = c->name;
		t->fails = 0;
		xt_say(t, i);
		XT_CHECK(t, xt_hear(t) == i, "the sides are out of step");
		if (!c->own_ep && !(ep = xt_pair(t, (uint16_t)i, NULL)))
			exit(1);
		c->run(t, ep, (size_t)i * XT_SLOT);
		XT_CHECK(t, !t->nstash[0] && !t->nstash[1],
			 "%d send and %d receive completions nobody asked for", t->nstash[0],
			 t->nstash[1]);
		t->nstash[0] = t->nstash[1] = 0;
		if (t->peer || t->child)
			xt_barrier(t); /* neither closes while the other still works */
		if (ep)
			t->xp->ep_close(ep);
		if (t->peer) {
			xt_say(t, (uint32_t)t->fails);
			continue;
		}
		if (t->child)
			theirs = xt_hear(t);
		printf("%s %s\n", t->fails || theirs ? "FAIL" : "ok", c->name);
		if (t->fails || theirs)
			failed++;
		else
			passed++;
	}
	if (!t->peer)
		printf("t_xport %s: %d cases passed, %d failed, %d skipped\n", t->xp->name, passed,
		       failed, skipped);
	return failed ? 1 : 0;
}

int main(int argc, char **argv);

static pid_t spawn_peer(int fd, int argc, char **argv)
{
	char fds[16], *args[8] = {"t_xport", "--peer", fds};
	pid_t pid;
	int n = 3;

	snprintf(fds, sizeof(fds), "%d", fd);
	for (int i = 1; i < argc && n < 7; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	pid = fork();
	if (pid == 0) {
		/* argv[0] first: under valgrind /proc/self/exe is valgrind's */
		if (strchr(argv[0], '/'))
			execv(argv[0], args);
		execv("/proc/self/exe", args);
		if (errno == ENOEXEC) /* qemu-user without binfmt_misc: the forked copy is the peer */
			_exit(main(n, args));
		perror("t_xport: exec of the peer");
		_exit(1);
	}
	return pid;
}

int main(int argc, char **argv)
{
	struct xt t = {.sock = -1};
	struct gdr_xdom_cfg cfg = {.cq_depth = 256, .neps = 4};
	int sv[2], rc, status;

	t.peer = argc > 2 && !strcmp(argv[1], "--peer");
	if (t.peer) {
		t.sock = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: t_xport TRANSPORT [ARG]\n");
		return 2;
	}
	t.xp = gdr_xport_find(argv[1]);
	if (!t.xp) {
		printf("t_xport: no transport '%s' in this build (it has: %s): skipped\n", argv[1],
		       gdr_xport_names());
		return 77;
	}
	if (argc > 2)
		apply_arg(argv[1], &cfg, argv[2]);
	if (!t.peer) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
			perror("t_xport: socketpair");
			return 1;
		}
		t.child = spawn_peer(sv[1], argc, argv);
		close(sv[1]);
		t.sock = sv[0];
		if (t.child < 0) {
			perror("t_xport: fork");
			return 1;
		}
	}
	rc = xt_open(&t, &cfg);
	if (rc == -GDR_XNODEV) {
		if (!t.peer)
			printf("t_xport: this host has no %s %s: skipped\n", argv[1],
			       argc > 2 ? argv[2] : "device");
		close(t.sock);
		if (t.child > 0)
			waitpid(t.child, &status, 0);
		return 77;
	}
	if (rc) {
		fprintf(stderr, "FAIL [%s]: cannot open the %s transport\n",
			t.peer ? "peer" : "requester", argv[1]);
		return 1;
	}
	xt_swap_regions(&t);
	rc = run_cases(&t);
	xt_close(&t);
	close(t.sock);
	if (t.child > 0 && (waitpid(t.child, &status, 0) != t.child || !WIFEXITED(status) ||
			    WEXITSTATUS(status))) {
		fprintf(stderr, "FAIL: the peer did not exit 0\n");
		rc = 1;
	}
	return rc;
}
