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
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "loop_pair.h"
#include "../unit/check.h"

int main(void)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = 3 * pg;
	struct gdr_xdom_cfg dc = {.cq_depth = 16};
	struct gdr_xep_cfg ec = {.tx_depth = 4, .rx_depth = 4};
	struct lp_side a = {0}, b = {0};
	struct gdr_xop op = {.kind = GDR_XOP_WRITE_DATA, .len = (uint32_t)pg, .data = 7};
	struct gdr_xcqe e;
	int rc = lp_open(&a, &b, len, &dc, &ec);

	if (rc)
		return rc == 77 ? 77 : 1;
	memset(a.buf, 0xab, pg);
	CHECK(!lp_xp->post_recv(b.ep, b.mr, 0, 16, 2, 5));

	/* a payload that lands: its notice says so, and the bytes are there */
	op.roff = pg;
	CHECK(!lp_xp->post_op(a.ep, a.mr, &op, 10));
	CHECK(lp_one(&a, GDR_XCQ_SEND, &e) == 1 && e.ctx == 10 && !e.status, "status %d", e.status);
	CHECK(lp_one(&b, GDR_XCQ_RECV, &e) == 1 && !e.status && e.data == 7, "status %d", e.status);
	CHECK(b.buf[pg] == 0xab && b.buf[2 * pg - 1] == 0xab, "the payload is not in place");

	/* a payload the kernel cannot place: the notice is an error too */
	CHECK(!mprotect(b.buf + 2 * pg, pg, PROT_NONE));
	op.roff = 2 * pg;
	CHECK(!lp_xp->post_op(a.ep, a.mr, &op, 11));
	CHECK(lp_one(&a, GDR_XCQ_SEND, &e) == 1 && e.ctx == 11 && e.status, "status %d", e.status);
	CHECK(lp_one(&b, GDR_XCQ_RECV, &e) == 1 && e.ctx == 5 && e.status,
	      "the receive of a payload never placed completed with status %d", e.status);

	lp_close(&a, &b);
	return CHECK_DONE();
}
