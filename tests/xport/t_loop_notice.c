/* SPDX-License-Identifier: MIT */
/*
 * The loop transport's write with data: its receive completion comes after
 * the payload and says what became of it. t_xport's write_data case sees a
 * completion that runs ahead of its copy only when the two processes happen
 * to run at once; here, in one process, a payload the kernel cannot place
 * (a page of the peer's region made inaccessible after registration) must
 * give the receive an error, never a completion that says the bytes are
 * there. Exit 77 when this build has no loop transport.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "xport.h"
#include "../unit/check.h"

static const struct gdr_xport_ops *xp;

struct side {
	struct gdr_xdom *d;
	struct gdr_xmr *mr;
	struct gdr_xep *ep;
	uint8_t *buf;
};

static int side_open(struct side *s, size_t len)
{
	struct gdr_xdom_cfg cfg = {.cq_depth = 16};
	struct gdr_xep_cfg ecfg = {.tx_depth = 4, .rx_depth = 4};
	struct gdr_xmem m = {.len = len, .kind = GDR_XMEM_HOST, .dmabuf_fd = -1};

	s->buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->buf == MAP_FAILED)
		return -1;
	m.addr = s->buf;
	if (xp->open(&s->d, &cfg, NULL) ||
	    xp->reg(s->d, &m, GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_WRITE, &s->mr, NULL))
		return -1;
	return xp->ep_open(s->d, &ecfg, &s->ep);
}

static int join(struct side *s, const struct side *peer, size_t len)
{
	struct gdr_xremote rem = {
	    .addr = (uintptr_t)peer->buf, .len = len, .key = xp->key(peer->mr)};
	uint8_t blob[GDR_XADDR_MAX];
	size_t n = xp->addr(peer->ep, blob, sizeof(blob));

	return n ? xp->connect(s->ep, blob, n, &rem) : -1;
}

/* One completion of cq within many polls (all is synchronous here: no waiting). */
static int one(struct side *s, enum gdr_xcq cq, struct gdr_xcqe *e)
{
	for (int i = 0; i < 1000; i++) {
		int n = xp->poll(s->d, cq, e, 1);

		if (n)
			return n;
	}
	return 0;
}

int main(void)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = 3 * pg;
	struct side a = {0}, b = {0};
	struct gdr_xop op = {.kind = GDR_XOP_WRITE_DATA, .len = (uint32_t)pg, .data = 7};
	struct gdr_xcqe e;

	xp = gdr_xport_find("loop");
	if (!xp) {
		printf("t_loop_notice: no loop transport in this build: skipped\n");
		return 77;
	}
	CHECK(!side_open(&a, len) && !side_open(&b, len), "open both sides");
	CHECK(!join(&a, &b, len) && !join(&b, &a, len), "connect both ways");
	if (failures)
		return CHECK_DONE();
	memset(a.buf, 0xab, pg);
	CHECK(!xp->post_recv(b.ep, b.mr, 0, 16, 2, 5));

	/* a payload that lands: its notice says so, and the bytes are there */
	op.roff = pg;
	CHECK(!xp->post_op(a.ep, a.mr, &op, 10));
	CHECK(one(&a, GDR_XCQ_SEND, &e) == 1 && e.ctx == 10 && !e.status, "status %d", e.status);
	CHECK(one(&b, GDR_XCQ_RECV, &e) == 1 && !e.status && e.data == 7, "status %d", e.status);
	CHECK(b.buf[pg] == 0xab && b.buf[2 * pg - 1] == 0xab, "the payload is not in place");

	/* a payload the kernel cannot place: the notice is an error too */
	CHECK(!mprotect(b.buf + 2 * pg, pg, PROT_NONE));
	op.roff = 2 * pg;
	CHECK(!xp->post_op(a.ep, a.mr, &op, 11));
	CHECK(one(&a, GDR_XCQ_SEND, &e) == 1 && e.ctx == 11 && e.status, "status %d", e.status);
	CHECK(one(&b, GDR_XCQ_RECV, &e) == 1 && e.ctx == 5 && e.status,
	      "the receive of a payload never placed completed with status %d", e.status);

	xp->ep_close(a.ep);
	xp->ep_close(b.ep);
	xp->dereg(a.mr);
	xp->dereg(b.mr);
	xp->close(a.d);
	xp->close(b.d);
	munmap(a.buf, len);
	munmap(b.buf, len);
	return CHECK_DONE();
}
