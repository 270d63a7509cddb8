/* SPDX-License-Identifier: MIT */
/*
 * A persistent kernel's PTX image (src/gpukern/gk_ptx.c), no driver needed:
 * the embedded PTX when the image's variable is unset or empty; a named
 * file read whole, also past one read's chunk and from a pipe (fseek/ftell
 * cannot size one); an empty or missing file refused with one reason naming
 * the variable and the file.
 */
#include "config.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpukern.h"

#include "../unit/check.h"

#define BIG (200 * 1024 + 7) /* more than three 64 KiB reads */

static const char embedded[] = ".version 6.0\n.target sm_70\n";
static const struct gdr_gpukern_image img = {.ptx = embedded, .env = "T_GPUKERN_PTX"};
static char big[BIG + 1];

struct writer {
	int fd;
	const char *data;
	size_t len;
};

static void *write_all(void *arg)
{
	struct writer *w = arg;
	size_t done = 0;

	while (done < w->len) {
		ssize_t k = write(w->fd, w->data + done, w->len - done);

		if (k <= 0)
			break;
		done += (size_t)k;
	}
	close(w->fd);
	return NULL;
}

/* The image with the variable set to path: whole and equal to want (NULL: refused). */
static void expect(const char *path, const char *want, const char *what)
{
	char why[256] = "", reason[256];
	char *got;

	setenv(img.env, path, 1);
	got = gdr_gpukern_ptx(&img, why, sizeof(why));
	if (want) {
		CHECK(got && got != embedded && strlen(got) == strlen(want) && !strcmp(got, want),
		      "%s: %zu bytes read of %zu (%s)", what, got ? strlen(got) : 0, strlen(want),
		      why);
	} else {
		snprintf(reason, sizeof(reason), "T_GPUKERN_PTX=%s: cannot read that PTX file",
			 path);
		CHECK(!got && !strcmp(why, reason), "%s: '%s'", what, why);
	}
	gdr_gpukern_ptx_free(&img, got);
}

int main(void)
{
	char dir[] = "/tmp/t_gpukern_ptx.XXXXXX", path[64], fd_path[32], why[64] = "";
	struct writer w = {.data = big, .len = BIG};
	pthread_t t;
	int p[2];
	FILE *f;

	for (size_t i = 0; i < BIG; i++)
		big[i] = (char)('a' + i % 26);
	big[BIG - 1] = '\n';
	unsetenv(img.env);
	CHECK(gdr_gpukern_ptx(&img, why, sizeof(why)) == embedded, "unset: the embedded PTX");
	setenv(img.env, "", 1);
	CHECK(gdr_gpukern_ptx(&img, why, sizeof(why)) == embedded, "empty: the embedded PTX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	snprintf(path, sizeof(path), "%s/big.ptx", dir);
	f = fopen(path, "w");
	CHECK(f && fwrite(big, 1, BIG, f) == BIG);
	if (f)
		fclose(f);
	expect(path, big, "a file of 200 KiB");
	f = fopen(path, "w");
	if (f)
		fclose(f);
	expect(path, NULL, "an empty file");
	unlink(path);
	expect(path, NULL, "a missing file");
	rmdir(dir);

	signal(SIGPIPE, SIG_IGN);
	CHECK(pipe(p) == 0);
	w.fd = p[1];
	CHECK(pthread_create(&t, NULL, write_all, &w) == 0);
	snprintf(fd_path, sizeof(fd_path), "/dev/fd/%d", p[0]);
	expect(fd_path, big, "a pipe");
	close(p[0]); /* a writer the loader left behind ends (EPIPE) */
	pthread_join(t, NULL);
	return CHECK_DONE();
}
