/* SPDX-License-Identifier: MIT */
/*
 * What the code under test writes to a file descriptor, captured:
 * capture_on(&c, 2) points stderr at a temporary file, capture_off(&c, buf, n)
 * puts it back and reads what came into buf (NUL-terminated, at most n - 1
 * bytes). Captures of different descriptors may nest. A failed tmpfile or dup
 * ends the test with status 1.
 */
#ifndef GDR_TEST_CAPTURE_H
#define GDR_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct capture {
	int fd;	   /* the descriptor captured */
	int saved; /* a copy of what it was */
	FILE *tmp; /* what it is meanwhile */
};

static inline void capture_on(struct capture *c, int fd)
{
	c->fd = fd;
	c->tmp = tmpfile();
	c->saved = dup(fd);
	if (!c->tmp || c->saved < 0) {
		perror("capture: tmpfile/dup");
		exit(1);
	}
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(c->tmp), fd);
}

static inline const char *capture_off(struct capture *c, char *buf, size_t n)
{
	size_t got;

	fflush(stdout);
	fflush(stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	rewind(c->tmp);
	got = fread(buf, 1, n - 1, c->tmp);
	buf[got] = 0;
	fclose(c->tmp);
	return buf;
}

#endif
