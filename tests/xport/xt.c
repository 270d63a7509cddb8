/* SPDX-License-Identifier: MIT */
/* The conformance harness's plumbing (xt.h). */
#include "config.h"
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "xt.h"

void xt_fail(struct xt *t, const char *file, int line, const char *cond, const char *note, ...)
{
	va_list ap;

	t->fails++;
	fprintf(stderr, "FAIL %s [%s] %s:%d: %s", t->cname ? t->cname : "setup",
		t->peer ? "peer" : "requester", file, line, cond);
	if (note[2]) { /* note is ": " and the caller's words, if any */
		va_start(ap, note);
		vfprintf(stderr, note, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
}

int xt_open(struct xt *t, const struct gdr_xdom_cfg *cfg)
{
	struct gdr_xmem m = {.kind = GDR_XMEM_HOST, .dmabuf_fd = -1, .len = XT_REGION};
	struct gdr_xlink link = {.rate_gbps = -1};
	const char *method = NULL;
	int rc = t->xp->open(&t->d, cfg, &link);

	if (rc)
		return rc == -GDR_XNODEV ? rc : -1;
	/* the link's facts: named, and a rate that is known or 0 */
	XT_CHECK(t, link.dev[0] && link.layer[0], "open left the link's dev or layer empty");
	XT_CHECK(t, link.rate_gbps >= 0, "open left the link's rate at %g", link.rate_gbps);
	t->buf = aligned_alloc(4096, XT_REGION);
	if (!t->buf)
		return -1;
	memset(t->buf, 0, XT_REGION);
	m.addr = t->buf;
	if (t->xp->reg(t->d, &m, GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_WRITE | GDR_XA_REMOTE_READ,
		       &t->mr, &method))
		return -1;
	XT_CHECK(t, method && !strcmp(method, "host"), "host memory registered as '%s'",
		 method ? method : "(none)");
	return t->fails ? -1 : 0;
}

void xt_close(struct xt *t)
{
	if (t->mr)
		t->xp->dereg(t->mr);
	if (t->d)
		t->xp->close(t->d);
	free(t->buf);
}

static void xfer(struct xt *t, void *p, size_t n, bool out)
{
	for (size_t done = 0; done < n;) {
		ssize_t r = out ? write(t->sock, (char *)p + done, n - done)
				: read(t->sock, (char *)p + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			fprintf(stderr, "FAIL %s [%s]: the other side is gone (%s)\n",
				t->cname ? t->cname : "setup", t->peer ? "peer" : "requester",
				r ? strerror(errno) : "end of file");
			exit(1);
		}
		done += (size_t)r;
	}
}

void xt_say(struct xt *t, uint32_t v)
{
	xfer(t, &v, sizeof(v), true);
}

int xt_poll(struct xt *t, enum gdr_xcq cq, struct gdr_xcqe *e, int max)
{
	int got = 0, n;

	for (; got < max && t->nstash[cq]; got++) {
		e[got] = t->stash[cq][0];
		memmove(t->stash[cq], t->stash[cq] + 1, --t->nstash[cq] * sizeof(e[0]));
	}
	if (got == max)
		return got;
	n = t->xp->poll(t->d, cq, e + got, max - got);
	return n < 0 ? n : got + n;
}

/* Poll both CQs once into the stash (a side waiting on the other). */
static void progress(struct xt *t)
{
	for (int q = 0; q < 2 && t->d; q++) {
		int n = t->nstash[q] < XT_STASH
			    ? t->xp->poll(t->d, (enum gdr_xcq)q, &t->stash[q][t->nstash[q]], 1)
			    : 0;

		XT_CHECK(t, n >= 0, "poll failed while waiting on the other side");
		if (n > 0)
			t->nstash[q]++;
	}
}

uint32_t xt_hear(struct xt *t)
{
	struct pollfd p = {.fd = t->sock, .events = POLLIN};
	uint32_t v;

	while (!poll(&p, 1, 1))
		progress(t);

	xfer(t, &v, sizeof(v), false);
	return v;
}

void xt_barrier(struct xt *t)
{
	xt_say(t, 0xba);
	XT_CHECK(t, xt_hear(t) == 0xba, "the sides are out of step");
}

int xt_swap_regions(struct xt *t)
{
	struct gdr_xremote mine = {
	    .addr = (uintptr_t)t->buf, .len = XT_REGION, .key = t->xp->key(t->mr)};

	xfer(t, &mine, sizeof(mine), true);
	xfer(t, &t->rem, sizeof(t->rem), false);
	return 0;
}

struct gdr_xep *xt_pair(struct xt *t, uint16_t index, const struct gdr_xremote *rem)
{
	struct gdr_xep_cfg cfg = {
	    .index = index, .tx_depth = 64, .rx_depth = 64, .max_inline = 64, .max_rd_atomic = 16};
	uint8_t mine[GDR_XADDR_MAX], theirs[GDR_XADDR_MAX];
	uint32_t n, m = 0;
	struct gdr_xep *ep;

	if (t->xp->ep_open(t->d, &cfg, &ep)) {
		XT_CHECK(t, !"ep_open");
		return NULL;
	}
	n = (uint32_t)t->xp->addr(ep, mine, sizeof(mine));
	XT_CHECK(t, n > 0 && n <= GDR_XADDR_MAX, "addr gave %u bytes", n);
	xt_say(t, n);
	xfer(t, mine, n, true);
	m = xt_hear(t);
	if (m > GDR_XADDR_MAX) {
		XT_CHECK(t, m <= GDR_XADDR_MAX, "the peer's address is %u bytes", m);
		exit(1);
	}
	xfer(t, theirs, m, false);
	if (t->xp->connect(ep, theirs, m, rem ? rem : &t->rem)) {
		XT_CHECK(t, !"connect");
		t->xp->ep_close(ep);
		return NULL;
	}
	xt_barrier(t); /* neither side closes before both are connected */
	return ep;
}

static long ms_since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000 + (b.tv_nsec - a->tv_nsec) / 1000000;
}

int xt_reap(struct xt *t, enum gdr_xcq cq, struct gdr_xcqe *e, int want)
{
	struct timespec t0;
	int got = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < want) {
		int n = xt_poll(t, cq, e + got, want - got);

		if (n < 0) {
			XT_CHECK(t, n >= 0, "poll failed");
			break;
		}
		got += n;
		if (!n && ms_since(&t0) > XT_HANG_MS) {
			XT_CHECK(t, got == want, "%d of %d completions after %d ms: a hang", got,
				 want, XT_HANG_MS);
			break;
		}
	}
	return got;
}

int xt_capture(struct xt *t, int (*fn)(struct xt *t, const void *arg), const void *arg, char *out,
	       size_t cap)
{
	FILE *f = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	if (!f || saved < 0) {
		XT_CHECK(t, !"tmpfile or dup");
		exit(1);
	}
	fflush(stderr);
	dup2(fileno(f), 2);
	rc = fn(t, arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(out, 1, cap - 1, f);
	fclose(f);
	out[n] = 0;
	return rc;
}

bool xt_is_line(const char *out)
{
	size_t n = strlen(out);

	return n > 1 && strchr(out, '\n') == out + n - 1;
}

struct cqe_call {
	const struct gdr_xcqe *e;
	const char *what;
};

static int call_cqe_error(struct xt *t, const void *arg)
{
	const struct cqe_call *c = arg;

	return t->xp->cqe_error(t->d, c->e, c->what);
}

bool xt_one_line(struct xt *t, const struct gdr_xcqe *e, const char *what)
{
	struct cqe_call c = {e, what};
	char out[512];
	int rc = xt_capture(t, call_cqe_error, &c, out, sizeof(out));

	XT_CHECK(t, rc == -1, "cqe_error returned %d", rc);
	XT_CHECK(t, xt_is_line(out), "cqe_error printed '%s'", out);
	return rc == -1 && xt_is_line(out);
}

void xt_fill(uint8_t *p, size_t n, uint32_t seed, size_t from)
{
	for (size_t i = 0; i < n; i++)
		p[i] = xt_pat(seed, from + i);
}

size_t xt_differs(const uint8_t *p, size_t n, uint32_t seed, size_t from)
{
	size_t i = 0;

	while (i < n && p[i] == xt_pat(seed, from + i))
		i++;
	return i;
}

bool xt_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}
