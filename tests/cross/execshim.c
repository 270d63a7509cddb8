/* SPDX-License-Identifier: MIT */
/*
 * tests/cross/execshim.c - binfmt_misc in user space, for `make check` of a
 * cross build (tests/cross/check.sh). Preloaded (LD_PRELOAD) into the host's
 * shells and tools that the test scripts run, it turns every exec of an ELF
 * file of the foreign machine into an exec of the emulator:
 *
 *   ./gdr_doctor --json   ->   qemu-aarch64-static -U LD_PRELOAD -0 ./gdr_doctor ./gdr_doctor --json
 *
 * Environment: GDR_CROSS_QEMU, the emulator's absolute path; GDR_CROSS_EM, the
 * ELF machine number of the programs it runs (183: aarch64). Built for the
 * host, never installed; without both variables every call passes through.
 * Interposed: execve, execv, execvp, execvpe, execl, execle, execlp,
 * posix_spawn, posix_spawnp (glibc's own internal calls among these bypass the
 * PLT, so each public one is caught here). No allocation: the calls may run in
 * a vfork child.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

#define PRE_ARGS 6 /* qemu -U LD_PRELOAD -0 ARGV0 PATH */

/* 1 when path is an ELF file of machine GDR_CROSS_EM and an emulator is named. */
static int foreign(const char *path)
{
	const char *em = getenv("GDR_CROSS_EM"), *q = getenv("GDR_CROSS_QEMU");
	unsigned char h[20];
	ssize_t n;
	int fd;

	if (!em || !*em || !q || *q != '/' || !path)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4))
		return 0;
	/* e_machine, little endian (EI_DATA 1) or big endian (2) */
	return (h[5] == 2 ? h[18] << 8 | h[19] : h[19] << 8 | h[18]) == atoi(em);
}

static int argc_of(char *const argv[])
{
	int n = 0;

	while (argv && argv[n])
		n++;
	return n;
}

/* nv (argc + PRE_ARGS + 1 slots) = the emulator's command line for path argv */
static void wrap(char **nv, const char *path, char *const argv[], int argc)
{
	nv[0] = getenv("GDR_CROSS_QEMU");
	nv[1] = "-U";
	nv[2] = "LD_PRELOAD";
	nv[3] = "-0";
	nv[4] = (char *)(argc ? argv[0] : path);
	nv[5] = (char *)path;
	for (int i = 1; i < argc; i++)
		nv[PRE_ARGS + i - 1] = argv[i];
	nv[PRE_ARGS + (argc ? argc - 1 : 0)] = NULL;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn real = (execve_fn)dlsym(RTLD_NEXT, "execve");
	int argc = argc_of(argv);
	char *nv[argc + PRE_ARGS + 1];

	if (!foreign(path))
		return real(path, argv, envp);
	wrap(nv, path, argv, argc);
	return real(nv[0], nv, envp);
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

/* The PATH entry of file that is a foreign ELF, in buf; NULL when none is. */
static const char *search(const char *file, char *buf, size_t n)
{
	const char *p = getenv("PATH");

	if (strchr(file, '/'))
		return foreign(file) ? file : NULL;
	if (!p)
		p = "/bin:/usr/bin";
	while (*p) {
		size_t len = strcspn(p, ":");

		if (snprintf(buf, n, "%.*s/%s", (int)(len ? len : 1), len ? p : ".", file) <
			(int)n &&
		    access(buf, X_OK) == 0)
			return foreign(buf) ? buf : NULL;
		p += len + (p[len] == ':');
	}
	return NULL;
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	char buf[PATH_MAX];
	const char *path = search(file, buf, sizeof(buf));

	if (path)
		return execve(path, argv, envp);
	return ((execve_fn)dlsym(RTLD_NEXT, "execvpe"))(file, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* The argument list of execl*: arg0 up to the NULL, into av (n slots at least). */
#define COUNT_ARGS(n, arg0)                                                                        \
	do {                                                                                       \
		va_list c_;                                                                        \
		va_start(c_, arg0);                                                                \
		for (n = 1; va_arg(c_, char *); n++)                                               \
			;                                                                          \
		va_end(c_);                                                                        \
	} while (0)

/* av[0..n]: arg0 and the n - 1 arguments after it in *ap, then the NULL (*ap stays after it). */
static void gather_args(char **av, const char *arg0, int n, va_list *ap)
{
	av[0] = (char *)arg0;
	for (int i = 1; i <= n; i++)
		av[i] = va_arg(*ap, char *);
}

int execl(const char *path, const char *arg0, ...)
{
	int n;
	va_list ap;

	COUNT_ARGS(n, arg0);
	char *av[n + 1];
	va_start(ap, arg0);
	gather_args(av, arg0, n, &ap);
	va_end(ap);
	return execve(path, av, environ);
}

int execlp(const char *file, const char *arg0, ...)
{
	int n;
	va_list ap;

	COUNT_ARGS(n, arg0);
	char *av[n + 1];
	va_start(ap, arg0);
	gather_args(av, arg0, n, &ap);
	va_end(ap);
	return execvpe(file, av, environ);
}

int execle(const char *path, const char *arg0, ...)
{
	int n;
	va_list ap;
	char **envp;

	COUNT_ARGS(n, arg0);
	char *av[n + 1];
	va_start(ap, arg0);
	gather_args(av, arg0, n, &ap);
	envp = va_arg(ap, char **);
	va_end(ap);
	return execve(path, av, envp);
}

/* posix_spawn of the emulator for path, a foreign ELF file */
static int spawn_foreign(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			 const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	spawn_fn real = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawn");
	int argc = argc_of(argv);
	char *nv[argc + PRE_ARGS + 1];

	wrap(nv, path, argv, argc);
	return real(pid, nv[0], fa, at, nv, envp);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	if (!foreign(path))
		return ((spawn_fn)dlsym(RTLD_NEXT, "posix_spawn"))(pid, path, fa, at, argv, envp);
	return spawn_foreign(pid, path, fa, at, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	char buf[PATH_MAX];
	const char *path = search(file, buf, sizeof(buf));

	if (!path)
		return ((spawn_fn)dlsym(RTLD_NEXT, "posix_spawnp"))(pid, file, fa, at, argv, envp);
	return spawn_foreign(pid, path, fa, at, argv, envp);
}
