/* SPDX-License-Identifier: MIT */
/*
 * The CUDA backend names the first CUDA error of every run, not only the
 * first of the process (issue 32.15): a --persistent server runs one client
 * after another in one process. Against the CUDA driver double with
 * GDR_DOUBLE_FAIL=copies:0 (every copy fails, the context stays usable;
 * t_cuda_errors_double.sh): two runs of init, alloc and a failing copy, each
 * must print its cause once; a second failure within a run stays quiet.
 */
#include "config.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuda_api.h"
#include "cuda_skip.h"
#include "log.h"
#include "mem.h"

#include "../unit/check.h"

/* One run: init, alloc, two failing copies; what it printed on stderr into out. */
static void one_run(const char *errfile, char *out, size_t n)
{
	struct gdr_mem m = {0};
	struct gdr_mem_cfg o = {.gpu = 0};
	char buf[64];
	int save = dup(2), fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FILE *f;
	size_t k;

	CHECK(save >= 0 && fd >= 0 && dup2(fd, 2) == 2);
	CHECK(gdr_mem_cuda_init(&m, &o, NULL) == 0);
	CHECK(m.ops && m.ops->alloc(&m, 4096) == 0);
	CHECK(m.ops && m.ops->to_host(&m, buf, 0, sizeof(buf)) == -1);
	CHECK(m.ops && m.ops->from_host(&m, 0, buf, sizeof(buf)) == -1);
	if (m.ops)
		m.ops->free(&m);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	close(fd);
	f = fopen(errfile, "r");
	k = f ? fread(out, 1, n - 1, f) : 0;
	out[k] = '\0';
	if (f)
		fclose(f);
}

int main(void)
{
	char tmp[] = "/tmp/t_cuda_errors.XXXXXX", errfile[64], first[1024], second[1024];
	const char *fail = getenv("GDR_DOUBLE_FAIL");

	gdr_set_prog("t_cuda_errors");
	if (!fail || strcmp(fail, "copies:0")) {
		printf("skip: needs the CUDA double with GDR_DOUBLE_FAIL=copies:0\n");
		return 77;
	}
	(void)cuda_or_skip();
	CHECK(mkdtemp(tmp) != NULL);
	snprintf(errfile, sizeof(errfile), "%s/err", tmp);
	one_run(errfile, first, sizeof(first));
	one_run(errfile, second, sizeof(second));
	unlink(errfile);
	rmdir(tmp);
	printf("run 1 printed: %s", first[0] ? first : "(nothing)\n");
	printf("run 2 printed: %s", second[0] ? second : "(nothing)\n");
	/* one line each: the first failing copy and its cause; the second copy quiet */
	CHECK(strstr(first, "t_cuda_errors: error: cuMemcpyDtoH: ") &&
		  strstr(first, "injected by the CUDA double") && !strstr(first, "cuMemcpyHtoD"),
	      "%s", first);
	CHECK(strstr(second, "t_cuda_errors: error: cuMemcpyDtoH: ") &&
		  strstr(second, "injected by the CUDA double") && !strstr(second, "cuMemcpyHtoD"),
	      "%s", second);
	if (!failures)
		printf("t_cuda_errors: all checks passed\n");
	return failures ? 1 : 0;
}
