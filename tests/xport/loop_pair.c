/* SPDX-License-Identifier: MIT */
/* Two loop-transport sides in one process (loop_pair.h). */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "loop_pair.h"

const struct gdr_xport_ops *lp_xp;

static int side_open(struct lp_side *s, size_t len, const struct gdr_xdom_cfg *dc,
		     const struct gdr_xep_cfg *ec)
{
	struct gdr_xmem m = {.len = len, .kind = GDR_XMEM_HOST, .dmabuf_fd = -1};
	const char *method;

	s->len = len;
	s->buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->buf == MAP_FAILED) {
		s->buf = NULL;
		return -1;
	}
	m.addr = s->buf;
	int rc = lp_xp->open(&s->d, dc, NULL);

	if (rc)
		return rc == -GDR_XNODEV ? 77 : -1;
	if (lp_xp->reg(s->d, &m, GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_WRITE | GDR_XA_REMOTE_READ,
		       &s->mr, &method))
		return -1;
	return lp_xp->ep_open(s->d, ec, &s->ep);
}

static int join(struct lp_side *s, const struct lp_side *peer)
{
	struct gdr_xremote rem = {
	    .addr = (uintptr_t)peer->buf, .len = peer->len, .key = lp_xp->key(peer->mr)};
	uint8_t blob[GDR_XADDR_MAX];
	size_t n = lp_xp->addr(peer->ep, blob, sizeof(blob));

	return n ? lp_xp->connect(s->ep, blob, n, &rem) : -1;
}

int lp_open(struct lp_side *a, struct lp_side *b, size_t len, const struct gdr_xdom_cfg *dc,
	    const struct gdr_xep_cfg *ec)
{
	lp_xp = gdr_xport_find("loop");
	if (!lp_xp) {
		printf("no loop transport in this build: skipped\n");
		return 77;
	}
	int rc = side_open(a, len, dc, ec);

	if (rc == 77) {
		printf("the loop transport cannot run on this host: skipped\n");
		return 77;
	}
	if (rc || side_open(b, len, dc, ec) || join(a, b) || join(b, a)) {
		fprintf(stderr, "FAIL: cannot open and connect two loop sides\n");
		return -1;
	}
	return 0;
}

static void side_close(struct lp_side *s)
{
	if (s->ep)
		lp_xp->ep_close(s->ep);
	if (s->mr)
		lp_xp->dereg(s->mr);
	if (s->d)
		lp_xp->close(s->d);
	if (s->buf)
		munmap(s->buf, s->len);
	memset(s, 0, sizeof(*s));
}

void lp_close(struct lp_side *a, struct lp_side *b)
{
	side_close(a);
	side_close(b);
}

int lp_one(struct lp_side *s, enum gdr_xcq cq, struct gdr_xcqe *e)
{
	for (int i = 0; i < 1000; i++) {
		int n = lp_xp->poll(s->d, cq, e, 1);

		if (n)
			return n;
	}
	return 0;
}

int lp_quiet(int (*fn)(void *arg), void *arg, char *out, size_t cap, int *lines)
{
	FILE *f = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	if (!f || saved < 0) {
		perror("tmpfile or dup");
		return -2;
	}
	fflush(stderr);
	dup2(fileno(f), 2);
	rc = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(out, 1, cap - 1, f);
	fclose(f);
	out[n] = 0;
	*lines = 0;
	for (char *p = out; (p = strchr(p, '\n')); p++)
		++*lines;
	return rc;
}
