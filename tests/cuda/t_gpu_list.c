/* SPDX-License-Identifier: MIT */
/*
 * The launchers' fork rule (launch/gpu_list.c, docs/ARCHITECTURE.md), over the CUDA driver
 * double (t_gpu_list_double.sh), which answers every call of a child forked after cuInit
 * CUDA_ERROR_NOT_INITIALIZED as the driver does: gdr_gpu_list gives the GPUs in CUDA's index
 * order (not PCI order) without loading CUDA in this process, so a child forked afterwards
 * still uses the GPU; once this process has loaded CUDA, gdr_fork_check refuses and a child
 * forked then cannot use the GPU; no driver is one line of why.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../unit/check.h"
#include "gpu_list.h"
#include "log.h"

/* In a child: GPU 0's address through CUDA; the child's exit status (0: it got one). */
static int child_uses_gpu(void)
{
	char bdf[32], why[200];
	int st = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (!pid)
		_exit(gdr_mem_gpu_bdf(GDR_MEM_API_CUDA, 0, bdf, sizeof(bdf), why, sizeof(why)) ? 3
											       : 0);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	char bdf[4][32], why[200] = "", one[32];
	int n;

	gdr_set_prog("t_gpu_list");
	if (argc == 2 && !strcmp(argv[1], "nodriver")) {
		n = gdr_gpu_list(GDR_MEM_API_CUDA, bdf, 4, why, sizeof(why));
		CHECK(n == -1 && strstr(why, "not found"), "no driver: %d '%s'", n, why);
		CHECK(!gdr_mem_runtime_loaded(), "no driver: nothing loaded here");
		return CHECK_DONE();
	}
	/* the fixture (t_gpu_list_double.sh) lists 0000:c1:00.0 before 0000:41:00.0 */
	n = gdr_gpu_list(GDR_MEM_API_CUDA, bdf, 4, why, sizeof(why));
	CHECK(n == 2, "%d GPUs (%s)", n, why);
	CHECK(n == 2 && !strcmp(bdf[0], "0000:c1:00.0") && !strcmp(bdf[1], "0000:41:00.0"),
	      "CUDA's index order, not PCI order: %s %s", bdf[0], n > 1 ? bdf[1] : "-");
	n = gdr_gpu_list(GDR_MEM_API_CUDA, bdf, 1, why, sizeof(why));
	CHECK(n == 1 && !strcmp(bdf[0], "0000:c1:00.0"), "at most max: %d", n);
	CHECK(!gdr_mem_runtime_loaded(), "the list loaded CUDA in this process: %s",
	      gdr_mem_runtime_loaded());
	CHECK(gdr_fork_check("t_gpu_list") == 0, "a CUDA-free process may fork");
	CHECK(child_uses_gpu() == 0, "a child forked by a CUDA-free process cannot use the GPU");

	/* this process loads CUDA: the launchers' check refuses, and a child is refused by CUDA */
	CHECK(gdr_mem_gpu_bdf(GDR_MEM_API_CUDA, 0, one, sizeof(one), why, sizeof(why)) == 0,
	      "CUDA here: %s", why);
	CHECK(gdr_mem_runtime_loaded() != NULL, "loaded CUDA not said");
	fprintf(stderr, "expect one internal error line:\n");
	CHECK(gdr_fork_check("t_gpu_list") == -1, "a process with CUDA loaded may fork");
	CHECK(child_uses_gpu() == 3, "a child forked after cuInit used the GPU");
	return CHECK_DONE();
}
