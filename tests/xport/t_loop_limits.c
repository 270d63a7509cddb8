/* SPDX-License-Identifier: MIT */
/*
 * The loop transport at its limits, in one process (loop_pair.h): what it
 * cannot do or was asked wrongly is refused at the call with -1 and one line
 * (completion events, a device it does not have, atomics, a post before
 * prep, a receive outside its region or over the depth, a full queue; an
 * inline_ok payload over the endpoint's inline size is not refused: it goes
 * by reference, as verbs and ofi send it); what fails on the way is a
 * completion whose status cqe_error explains in one line (a message longer
 * than its receive, at both ends; a local range outside the region; a send
 * that meets no receive, and the operations queued behind it flushed); a
 * send CQ that overflows makes poll fail with one line.
 */
#include "config.h"
#include <string.h>
#include "loop_pair.h"
#include "../unit/check.h"

static struct lp_side a, b;
static struct gdr_xdom_cfg dcfg;
static struct gdr_xop gop;
static uint64_t goff;
static uint32_t gn;

static int open_dom(void *arg)
{
	struct gdr_xdom *d;
	int rc = lp_xp->open(&d, &dcfg, NULL);

	(void)arg;
	if (!rc)
		lp_xp->close(d);
	return rc;
}

static int prep(void *arg)
{
	(void)arg;
	return lp_xp->prep(a.ep, a.mr, &gop, 1);
}

static int post(void *arg)
{
	(void)arg;
	return lp_xp->post(a.ep, 0, 1, NULL, 0, 0);
}

static int post_op(void *arg)
{
	(void)arg;
	return lp_xp->post_op(a.ep, a.mr, &gop, 1);
}

static int post_recv(void *arg)
{
	(void)arg;
	return lp_xp->post_recv(b.ep, b.mr, goff, 16, gn, 1);
}

static int poll_send(void *arg)
{
	struct gdr_xcqe e[8];

	(void)arg;
	return lp_xp->poll(a.d, GDR_XCQ_SEND, e, 8);
}

static int cqe_line(void *arg)
{
	return lp_xp->cqe_error(a.d, arg, "test");
}

/* fn refused with -1 and exactly one line. */
static void refused(int (*fn)(void *arg), const char *what)
{
	char out[512];
	int lines, rc = lp_quiet(fn, NULL, out, sizeof(out), &lines);

	CHECK(rc == -1 && lines == 1, "%s: rc %d, '%s'", what, rc, out);
}

/* e failed, and cqe_error says why in one line. */
static void failed(struct gdr_xcqe *e, uint64_t ctx, const char *what)
{
	char out[512];
	int lines, rc;

	CHECK(e->status != 0 && e->ctx == ctx, "%s: status %d ctx %llu", what, e->status,
	      (unsigned long long)e->ctx);
	rc = lp_quiet(cqe_line, e, out, sizeof(out), &lines);
	CHECK(rc == -1 && lines == 1, "%s: cqe_error rc %d, '%s'", what, rc, out);
}

/* A fresh pair on dcfg, -1 (a failed check) when it cannot be had. */
static int reopen(const struct gdr_xep_cfg *ec)
{
	int rc;

	lp_close(&a, &b);
	rc = lp_open(&a, &b, 1 << 16, &dcfg, ec);
	CHECK(!rc, "a fresh pair");
	return rc ? -1 : 0;
}

int main(void)
{
	struct gdr_xep_cfg ec = {.tx_depth = 4, .rx_depth = 4, .max_inline = 16};
	struct gdr_xcqe e;
	int rc;

	dcfg.cq_depth = 16;
	rc = lp_open(&a, &b, 1 << 16, &dcfg, &ec);
	if (rc)
		return rc == 77 ? 77 : 1;

	/* refused at the call */
	dcfg.events = true;
	refused(open_dom, "completion events");
	dcfg = (struct gdr_xdom_cfg){.cq_depth = 16, .dev = "eth0"};
	refused(open_dom, "a device loop lacks");
	dcfg = (struct gdr_xdom_cfg){.cq_depth = 16};
	refused(post, "a post before prep");
	gop = (struct gdr_xop){.kind = GDR_XOP_FADD, .len = 8};
	refused(prep, "atomics");
	goff = b.len - 8, gn = 1;
	refused(post_recv, "a receive outside its region");
	goff = 0, gn = 5;
	refused(post_recv, "5 receives on a depth of 4");
	/* inline_ok over the endpoint's inline size: sent by reference (as verbs and ofi do) */
	CHECK(!lp_xp->post_recv(b.ep, b.mr, 0, 32, 1, 11));
	gop = (struct gdr_xop){.kind = GDR_XOP_SEND, .inline_ok = true, .len = 32};
	CHECK(!lp_xp->post_op(a.ep, a.mr, &gop, 10), "an inline_ok payload of 32 over 16");
	CHECK(lp_one(&a, GDR_XCQ_SEND, &e) == 1 && e.status == 0 && e.ctx == 10);
	CHECK(lp_one(&b, GDR_XCQ_RECV, &e) == 1 && e.status == 0 && e.ctx == 11 && e.len == 32);

	/* a message longer than the receive it meets: an error at both ends */
	CHECK(!lp_xp->post_recv(b.ep, b.mr, 0, 16, 1, 21));
	gop = (struct gdr_xop){.kind = GDR_XOP_SEND, .len = 32};
	CHECK(!lp_xp->post_op(a.ep, a.mr, &gop, 20));
	CHECK(lp_one(&a, GDR_XCQ_SEND, &e) == 1);
	failed(&e, 20, "a send over its receive");
	CHECK(lp_one(&b, GDR_XCQ_RECV, &e) == 1);
	failed(&e, 21, "the receive under it");
	if (reopen(&ec))
		return CHECK_DONE();

	/* post_op with ctx 0 is unsignalled (as verbs' and ofi's): no completion of its own */
	gop = (struct gdr_xop){.kind = GDR_XOP_WRITE, .len = 8};
	CHECK(!lp_xp->post_op(a.ep, a.mr, &gop, 0));
	CHECK(!lp_xp->post_op(a.ep, a.mr, &gop, 25));
	CHECK(lp_one(&a, GDR_XCQ_SEND, &e) == 1 && e.ctx == 25 && !e.status,
	      "the first completion is ctx %llu, not the signalled 25", (unsigned long long)e.ctx);
	CHECK(lp_one(&a, GDR_XCQ_SEND, &e) == 0, "a second completion, ctx %llu",
	      (unsigned long long)e.ctx);

	/* a local range outside the region */
	gop = (struct gdr_xop){.kind = GDR_XOP_WRITE, .len = 64, .loff = a.len - 8};
	CHECK(!lp_xp->post_op(a.ep, a.mr, &gop, 30));
	CHECK(lp_one(&a, GDR_XCQ_SEND, &e) == 1);
	failed(&e, 30, "a local range outside the region");
	if (reopen(&ec))
		return CHECK_DONE();

	/* a full queue; then receive-not-ready for its head and the rest flushed, in order */
	gop = (struct gdr_xop){.kind = GDR_XOP_SEND, .len = 8};
	for (uint64_t i = 0; i < 4; i++)
		CHECK(!lp_xp->post_op(a.ep, a.mr, &gop, 40 + i));
	refused(post_op, "a fifth operation on a depth of 4");
	for (uint64_t i = 0; i < 4; i++) {
		int n = 0;

		/* bounded: the head fails after GDR_LOOP_RNR_MS, a guard of 30 s here */
		for (int k = 0; k < 30000000 && !n; k++)
			n = lp_xp->poll(a.d, GDR_XCQ_SEND, &e, 1);
		CHECK(n == 1, "operation %llu never completed", (unsigned long long)i);
		if (n == 1)
			failed(&e, 40 + i, i ? "flushed behind it" : "a send no receive meets");
		/* receives now: the endpoint is in error, the rest must not take them */
		if (!i)
			CHECK(!lp_xp->post_recv(b.ep, b.mr, 0, 16, 3, 49));
	}
	CHECK(lp_xp->poll(b.d, GDR_XCQ_RECV, &e, 1) == 0, "a flushed send was delivered");
	/* more signalled completions than the send CQ holds */
	dcfg.cq_depth = 2;
	if (reopen(&ec))
		return CHECK_DONE();
	gop = (struct gdr_xop){.kind = GDR_XOP_WRITE, .len = 8};
	for (uint64_t i = 0; i < 3; i++)
		CHECK(!lp_xp->post_op(a.ep, a.mr, &gop, 50 + i));
	refused(poll_send, "a send CQ of 2 given 3");
	lp_close(&a, &b);
	return CHECK_DONE();
}
