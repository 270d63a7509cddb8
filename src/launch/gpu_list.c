/* SPDX-License-Identifier: MIT */
/* The GPUs' addresses from a child, and the check before a fork without exec (gpu_list.h). */
#include "config.h"
#include "gpu_list.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "log.h"

/* In the child: "gpu BDF" a line, or "why REASON" when there is none; then it ends. */
static void list_in_child(enum gdr_mem_api api, int max, int fd)
{
	char bdf[32], why[200] = "";
	int i;

	for (i = 0; i < max; i++) {
		if (gdr_mem_gpu_bdf(api, i, bdf, sizeof(bdf), why, sizeof(why)))
			break;
		dprintf(fd, "gpu %s\n", bdf);
	}
	if (!i)
		dprintf(fd, "why %s\n", why[0] ? why : "no GPU");
	_exit(0); /* no atexit handler, no stdio buffer of the parent's */
}

/* The child's lines into bdf[]; the count, or -1 with why. */
static int read_list(int fd, char (*bdf)[32], int max, char *why, size_t wn)
{
	FILE *f = fdopen(fd, "r");
	char line[320];
	int n = 0;

	if (!f) {
		close(fd);
		snprintf(why, wn, "cannot read the GPU list: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "gpu ", 4) && n < max)
			snprintf(bdf[n++], 32, "%.31s", line + 4);
		else if (!strncmp(line, "why ", 4))
			snprintf(why, wn, "%s", line + 4);
	}
	fclose(f);
	return n;
}

int gdr_gpu_list(enum gdr_mem_api api, char (*bdf)[32], int max, char *why, size_t wn)
{
	int fd[2], n, st = 0;
	pid_t pid, w;

	snprintf(why, wn, "the GPU list ended early");
	if (pipe(fd)) {
		snprintf(why, wn, "cannot list the GPUs: pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(why, wn, "cannot list the GPUs: fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		close(fd[0]);
		list_in_child(api, max, fd[1]);
	}
	close(fd[1]);
	n = read_list(fd[0], bdf, max, why, wn);
	do
		w = waitpid(pid, &st, 0);
	while (w < 0 && errno == EINTR);
	if (w != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(why, wn, "the process listing the GPUs ended abnormally (%s %d)",
			 w == pid && WIFSIGNALED(st) ? "signal" : "status",
			 w != pid	   ? -1
			 : WIFSIGNALED(st) ? WTERMSIG(st)
					   : WEXITSTATUS(st));
		return -1;
	}
	return n > 0 ? n : -1;
}

int gdr_fork_check(const char *what)
{
	const char *rt = gdr_mem_runtime_loaded();

	if (!rt)
		return 0;
	gdr_err("internal error: %s: this process loaded a GPU runtime (%s), and a child forked "
		"from it without exec cannot use the GPU: a process that forks without exec never "
		"initialises a GPU runtime (docs/ARCHITECTURE.md)",
		what, rt);
	return -1;
}
