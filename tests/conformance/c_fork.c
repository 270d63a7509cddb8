/* SPDX-License-Identifier: MIT */
/*
 * Conformance: fork and cuInit. A child forked before its parent's cuInit
 * initialises and works; a child forked after it (without exec) gets
 * CUDA_ERROR_NOT_INITIALIZED from every call, cuInit included, while the
 * parent carries on. gdrperf's --matrix launcher and every process that forks
 * without exec rely on the first and must avoid the second.
 */
#include "config.h"
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "conf.h"

/* Run fn in a child; its exit status (77 passed through, anything odd is 1). */
static int in_child(void (*fn)(void))
{
	int st = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		fn();
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

/* Forked before any cuInit: the child initialises on its own and allocates. */
static void before(void)
{
	const struct gdr_cuda_api *cu;
	char why[256], *init;
	CUdevice dev = 0;
	CUcontext ctx = NULL;
	CUdeviceptr p = 0;
	CUresult get, ret, alloc = CUDA_ERROR_UNKNOWN;

	gdr_set_prog("c_fork");
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		/* no driver (the parent then skips too), or cuInit refused: its name */
		init = strstr(why, "cuInit failed: ");
		printf("RULE fork_before_cuinit cuInit=%.*s\n",
		       init ? (int)strcspn(init + 15, " ") : 6, init ? init + 15 : "failed");
		printf("# info %s\n", why);
		return;
	}
	get = cu->cuDeviceGet(&dev, 0);
	ret = cu->cuDevicePrimaryCtxRetain(&ctx, dev);
	if (!ret && !cu->cuCtxSetCurrent(ctx)) {
		alloc = cu->cuMemAlloc(&p, 1 << 20);
		if (!alloc)
			cu->cuMemFree(p);
	}
	printf("RULE fork_before_cuinit cuInit=CUDA_SUCCESS cuDeviceGet=%s "
	       "cuDevicePrimaryCtxRetain=%s cuMemAlloc=%s\n",
	       conf_name(get), conf_name(ret), conf_name(alloc));
}

static const struct gdr_cuda_api *parent_cu;

/* Forked after the parent's cuInit: the same calls, cuInit first. */
static void after(void)
{
	const struct gdr_cuda_api *cu = parent_cu;
	CUdevice dev = 0;
	CUcontext ctx = NULL;
	CUresult init = cu->cuInit(0), get, ret;

	get = cu->cuDeviceGet(&dev, 0);
	ret = cu->cuDevicePrimaryCtxRetain(&ctx, 0);
	printf("RULE fork_after_cuinit cuInit=%s cuDeviceGet=%s cuDevicePrimaryCtxRetain=%s\n",
	       conf_name(init), conf_name(get), conf_name(ret));
}

int main(void)
{
	CUdevice dev;
	int rc;

	/* first, while this process has not touched the driver */
	rc = in_child(before);
	if (rc)
		return rc;
	parent_cu = conf_load("c_fork");
	rc = in_child(after);
	if (rc)
		return rc;
	printf("RULE fork_after_cuinit_parent cuDeviceGet=%s\n",
	       conf_name(parent_cu->cuDeviceGet(&dev, 0)));
	return 0;
}
