/* SPDX-License-Identifier: MIT */
/*
 * The real-driver tests that keep a kernel resident (t_copier_sm, t_gproxy)
 * take the GPU one at a time under `make -j check`: two processes' kernels
 * time-slice the GPU (milliseconds a slice without MPS), which turned
 * t_copier_sm's idle-copy bound into a figure of the other test (1.6-1.8 ms
 * in 2 of 3 `make -j16 check` on an H200, 2026-11-27; 3 of 3 passed alone).
 * An exclusive flock on one file in the temporary folder; released at exit.
 * With a double (GDR_LIBCUDA set) nothing is taken: its kernels are threads.
 */
#ifndef GDR_TESTS_GPU_ALONE_H
#define GDR_TESTS_GPU_ALONE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>

static inline void gpu_alone(void)
{
	const char *lib = getenv("GDR_LIBCUDA"), *tmp = getenv("TMPDIR");
	char path[512];
	int fd;

	if (lib && *lib)
		return;
	snprintf(path, sizeof(path), "%s/gdrperf-gpu-tests.lock", tmp && *tmp ? tmp : "/tmp");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || flock(fd, LOCK_EX)) /* held until exit */
		printf("  note: %s not locked: other GPU tests may share the GPU\n", path);
}

#endif
