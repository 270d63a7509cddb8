/* SPDX-License-Identifier: MIT */
/*
 * The conformance cases (t_xport.c runs them): what verbs RC gives the
 * engine, held byte-exactly. Each runs on both sides, A (the requester) and
 * B (its peer), in lockstep over the socketpair, at its own slot b of each
 * side's region; ep is a fresh connected endpoint pair unless the case opens
 * its own. B's checks travel back to A after the case.
 */
#include "config.h"
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include "xt_cases.h"

#define POST(t, ep, op, ctx) XT_CHECK(t, !(t)->xp->post_op(ep, (t)->mr, op, ctx), "post_op")
#define RECV(t, ep, off, len, ctx)                                                                 \
	XT_CHECK(t, !(t)->xp->post_recv(ep, (t)->mr, off, len, 1, ctx), "post_recv")

/* One completion of cq, its ctx and status as expected. */
static void expect(struct xt *t, enum gdr_xcq cq, uint64_t ctx, struct gdr_xcqe *e)
{
	memset(e, 0, sizeof(*e));
	if (xt_reap(t, cq, e, 1) != 1)
		return;
	XT_CHECK(t, e->ctx == ctx, "ctx %#llx, expected %#llx", (unsigned long long)e->ctx,
		 (unsigned long long)ctx);
	XT_CHECK(t, !e->status, "status %d", e->status);
	XT_CHECK(t, cq == GDR_XCQ_RECV || !(e->flags & GDR_XCQE_RECV), "flags %#x", e->flags);
}

/* One completion of cq that failed, with cqe_error's one line. */
static void expect_error(struct xt *t, enum gdr_xcq cq, uint64_t ctx, const char *what)
{
	struct gdr_xcqe e = {0};

	if (xt_reap(t, cq, &e, 1) != 1)
		return;
	XT_CHECK(t, e.ctx == ctx, "ctx %#llx", (unsigned long long)e.ctx);
	XT_CHECK(t, e.status != 0, "a %s that should fail completed with status 0", what);
	if (e.status)
		xt_one_line(t, &e, what);
}

static void empty(struct xt *t, struct gdr_xep *ep, size_t b)
{
	struct gdr_xcqe e[4];

	(void)ep, (void)b;
	XT_CHECK(t, xt_poll(t, GDR_XCQ_SEND, e, 4) == 0, "an empty send CQ");
	XT_CHECK(t, xt_poll(t, GDR_XCQ_RECV, e, 4) == 0, "an empty receive CQ");
}

static void write_(struct xt *t, struct gdr_xep *ep, size_t b)
{
	struct gdr_xop op = {.kind = GDR_XOP_WRITE, .len = 4000, .loff = b, .roff = b + 64};
	struct gdr_xcqe e;

	if (t->peer) {
		memset(t->buf + b, 0, 8192);
		xt_say(t, 1);
		xt_hear(t);
		XT_CHECK(t, xt_zero(t->buf + b, 64), "written before the offset");
		XT_CHECK(t, xt_differs(t->buf + b + 64, 4000, 2, 0) == 4000, "the bytes written");
		XT_CHECK(t, xt_zero(t->buf + b + 4064, 8192 - 4064), "written past the length");
		return;
	}
	xt_hear(t);
	xt_fill(t->buf + b, 4000, 2, 0);
	POST(t, ep, &op, 0x111);
	expect(t, GDR_XCQ_SEND, 0x111, &e);
	xt_say(t, 1);
}

static void read_(struct xt *t, struct gdr_xep *ep, size_t b)
{
	struct gdr_xop op = {.kind = GDR_XOP_READ, .len = 4096, .loff = b + 100, .roff = b};
	struct gdr_xcqe e;

	if (t->peer) {
		xt_fill(t->buf + b, 8192, 3, 0);
		xt_say(t, 1);
		xt_hear(t);
		return;
	}
	memset(t->buf + b, 0, 8192);
	xt_hear(t);
	POST(t, ep, &op, 0x222);
	expect(t, GDR_XCQ_SEND, 0x222, &e);
	XT_CHECK(t, xt_zero(t->buf + b, 100), "read before the offset");
	XT_CHECK(t, xt_differs(t->buf + b + 100, 4096, 3, 0) == 4096, "the bytes read");
	XT_CHECK(t, xt_zero(t->buf + b + 4196, 8192 - 4196), "read past the length");
	xt_say(t, 1);
}

/* Signalled entries give their ctx back in order, unsignalled nothing; the ring wraps. */
static void order(struct xt *t, struct gdr_xep *ep, size_t b)
{
	static const uint64_t s1[8] = {0, 0, 102, 0, 0, 105, 0, 107};
	static const uint64_t s2[5] = {200, 201, 202, 203, 204}, s3[4] = {0};
	static const uint64_t want[9] = {102, 105, 107, 200, 201, 202, 203, 204, 999};
	struct gdr_xop ring[8], fence = {.kind = GDR_XOP_WRITE, .len = 8, .loff = b, .roff = b};
	struct gdr_xcqe e[10];
	int got;

	if (t->peer) {
		xt_hear(t);
		return;
	}
	for (int i = 0; i < 8; i++)
		ring[i] = (struct gdr_xop){
		    .kind = GDR_XOP_WRITE, .len = 256, .loff = b + i * 256u, .roff = b + i * 256u};
	XT_CHECK(t, !t->xp->prep(ep, t->mr, ring, 8), "prep");
	XT_CHECK(t, !t->xp->post(ep, 0, 8, s1, 0, 0), "post 0..7");
	XT_CHECK(t, !t->xp->post(ep, 6, 5, s2, 0, 0), "post 6,7,0,1,2");
	XT_CHECK(t, !t->xp->post(ep, 3, 4, s3, 0, 0), "post 3..6 unsignalled");
	POST(t, ep, &fence, 999);
	got = xt_reap(t, GDR_XCQ_SEND, e, 9);
	for (int i = 0; i < got; i++) {
		XT_CHECK(t, e[i].ctx == want[i], "completion %d: ctx %llu, expected %llu", i,
			 (unsigned long long)e[i].ctx, (unsigned long long)want[i]);
		XT_CHECK(t, !e[i].status, "completion %d: status %d", i, e[i].status);
	}
	XT_CHECK(t, xt_poll(t, GDR_XCQ_SEND, e, 10) == 0, "completions beyond the fence");
	xt_say(t, 1);
}

/* A ring posted across its end: the entries named, and only they, write where they say. */
static void ring(struct xt *t, struct gdr_xep *ep, size_t b)
{
	static const uint64_t sig[4] = {300, 301, 302, 303};
	static const bool named[6] = {true, true, false, false, true, true}; /* 4, 5, 0, 1 */
	struct gdr_xop r[6];
	struct gdr_xcqe e[4];

	if (t->peer) {
		memset(t->buf + b, 0, 6 * 512);
		xt_say(t, 1);
		xt_hear(t);
		for (size_t i = 0; i < 6; i++) {
			if (named[i])
				XT_CHECK(t,
					 xt_differs(t->buf + b + i * 512, 496, 5, i * 512) == 496,
					 "entry %zu's bytes", i);
			else
				XT_CHECK(t, xt_zero(t->buf + b + i * 512, 496),
					 "entry %zu wrote, not posted", i);
			XT_CHECK(t, xt_zero(t->buf + b + i * 512 + 496, 16), "entry %zu's tail", i);
		}
		return;
	}
	xt_hear(t);
	xt_fill(t->buf + b, 6 * 512, 5, 0);
	for (uint32_t i = 0; i < 6; i++)
		r[i] = (struct gdr_xop){
		    .kind = GDR_XOP_WRITE, .len = 496, .loff = b + i * 512, .roff = b + i * 512};
	XT_CHECK(t, !t->xp->prep(ep, t->mr, r, 6), "prep");
	XT_CHECK(t, !t->xp->post(ep, 4, 4, sig, 0, 0), "post 4,5,0,1");
	if (xt_reap(t, GDR_XCQ_SEND, e, 4) == 4)
		for (int i = 0; i < 4; i++)
			XT_CHECK(t, e[i].ctx == sig[i] && !e[i].status, "completion %d", i);
	xt_say(t, 1);
}

/* Writes with data: each one's payload is in place when its receive completes. */
static void write_data(struct xt *t, struct gdr_xep *ep, size_t b)
{
	static const uint64_t sig[4] = {410, 411, 412, 413};
	const uint32_t n = 224 << 10; /* large: a completion ahead of its copy shows */
	struct gdr_xop r[4];
	struct gdr_xcqe e[4];

	if (t->peer) {
		memset(t->buf + b, 0, 4 * n);
		for (uint32_t i = 0; i < 4; i++)
			RECV(t, ep, b + 4 * n, 64, 400 + i);
		xt_say(t, 1);
		for (uint32_t i = 0; i < 4; i++) {
			expect(t, GDR_XCQ_RECV, 400 + i, e);
			XT_CHECK(t, e->flags == (GDR_XCQE_RECV | GDR_XCQE_DATA), "flags %#x",
				 e->flags);
			XT_CHECK(t, e->data == 0xd0 + i, "data %#x", e->data);
			/* the last byte first: a copy runs front to back */
			XT_CHECK(t, t->buf[b + i * n + n - 1] == xt_pat(6, i * n + n - 1),
				 "write %u's last byte at its completion", i);
			XT_CHECK(t, e->len == n, "len %u", e->len);
			XT_CHECK(t, xt_differs(t->buf + b + i * n, n, 6, i * n) == n,
				 "write %u's payload at its completion", i);
		}
		xt_hear(t);
		return;
	}
	xt_hear(t);
	xt_fill(t->buf + b, 4 * n, 6, 0);
	for (uint32_t i = 0; i < 4; i++)
		r[i] = (struct gdr_xop){.kind = GDR_XOP_WRITE_DATA,
					.len = n,
					.loff = b + i * n,
					.roff = b + i * n,
					.data = 0xd0 + i};
	XT_CHECK(t, !t->xp->prep(ep, t->mr, r, 4), "prep");
	XT_CHECK(t, !t->xp->post(ep, 0, 4, sig, 0, 0), "post");
	if (xt_reap(t, GDR_XCQ_SEND, e, 4) == 4)
		for (int i = 0; i < 4; i++)
			XT_CHECK(t, e[i].ctx == sig[i] && !e[i].status, "completion %d", i);
	xt_say(t, 1);
}

/* Sends consume the posted receives in order. */
static void send_(struct xt *t, struct gdr_xep *ep, size_t b)
{
	struct gdr_xcqe e;

	if (t->peer) {
		memset(t->buf + b, 0, 3 * 256);
		for (uint32_t i = 0; i < 3; i++)
			RECV(t, ep, b + i * 256, 128, 500 + i);
		xt_say(t, 1);
		for (uint32_t i = 0; i < 3; i++) {
			expect(t, GDR_XCQ_RECV, 500 + i, &e);
			XT_CHECK(t, e.flags == GDR_XCQE_RECV, "flags %#x", e.flags);
			XT_CHECK(t, e.len == 100 + i, "len %u", e.len);
			XT_CHECK(t, xt_differs(t->buf + b + i * 256, 100 + i, 7 + i, 0) == 100 + i,
				 "message %u's bytes", i);
			XT_CHECK(t, xt_zero(t->buf + b + i * 256 + 100 + i, 156 - i),
				 "message %u wrote past its length", i);
		}
		xt_hear(t);
		return;
	}
	xt_hear(t);
	for (uint32_t i = 0; i < 3; i++) {
		struct gdr_xop op = {.kind = GDR_XOP_SEND, .len = 100 + i, .loff = b + i * 256};

		xt_fill(t->buf + b + i * 256, 100 + i, 7 + i, 0);
		POST(t, ep, &op, 600 + i);
	}
	for (uint32_t i = 0; i < 3; i++)
		expect(t, GDR_XCQ_SEND, 600 + i, &e);
	xt_say(t, 1);
}

/* GDR_XP_LAST: the last entry of a post carries last_data (a send becomes one with data). */
static void last(struct xt *t, struct gdr_xep *ep, size_t b)
{
	static const uint64_t sig[4] = {0, 0, 0, 777};
	struct gdr_xop r[4];
	struct gdr_xcqe e;

	if (t->peer) {
		for (uint32_t i = 0; i < 4; i++)
			RECV(t, ep, b + i * 64, 64, 700 + i);
		xt_say(t, 1);
		for (uint32_t i = 0; i < 4; i++) {
			expect(t, GDR_XCQ_RECV, 700 + i, &e);
			if (i < 3) {
				XT_CHECK(t, e.flags == GDR_XCQE_RECV, "send %u: flags %#x", i,
					 e.flags);
			} else {
				XT_CHECK(t, e.flags == (GDR_XCQE_RECV | GDR_XCQE_DATA),
					 "the last send: flags %#x", e.flags);
				XT_CHECK(t, e.data == 0x4c41, "the last send: data %#x", e.data);
			}
		}
		xt_hear(t);
		return;
	}
	xt_hear(t);
	xt_fill(t->buf + b, 4 * 32, 8, 0);
	for (uint32_t i = 0; i < 4; i++)
		r[i] = (struct gdr_xop){.kind = GDR_XOP_SEND, .len = 32, .loff = b + i * 32};
	XT_CHECK(t, !t->xp->prep(ep, t->mr, r, 4), "prep");
	XT_CHECK(t, !t->xp->post(ep, 0, 4, sig, GDR_XP_LAST, 0x4c41), "post");
	expect(t, GDR_XCQ_SEND, 777, &e);
	xt_say(t, 1);
}

/*
 * A send before the peer posts its receive: not failed and not lost; it
 * lands once the receive is posted (a transport may complete it early only
 * when it has buffered it). seed 9; inline: the payload is taken at post
 * time (changed after the post, the old bytes arrive).
 */
static void waits(struct xt *t, struct gdr_xep *ep, size_t b, bool inl)
{
	struct gdr_xop op = {.kind = GDR_XOP_SEND, .inline_ok = inl, .len = 32, .loff = b};
	struct gdr_xcqe e = {0};
	int n;

	if (t->peer) {
		memset(t->buf + b, 0, 64);
		xt_say(t, 1);
		xt_hear(t);
		RECV(t, ep, b, 64, 801);
		xt_say(t, 1);
		expect(t, GDR_XCQ_RECV, 801, &e);
		XT_CHECK(t, e.len == 32, "len %u", e.len);
		XT_CHECK(t, xt_differs(t->buf + b, 32, 9, 0) == 32, "the message's bytes");
		xt_hear(t);
		return;
	}
	xt_hear(t);
	xt_fill(t->buf + b, 32, 9, 0);
	POST(t, ep, &op, 800);
	if (inl)
		xt_fill(t->buf + b, 32, 10, 0);
	n = xt_poll(t, GDR_XCQ_SEND, &e, 1);
	XT_CHECK(t, n == 0 || (n == 1 && !e.status), "with no receive posted: %d, status %d", n,
		 e.status);
	xt_say(t, 1);
	xt_hear(t);
	if (n == 0)
		expect(t, GDR_XCQ_SEND, 800, &e);
	xt_say(t, 1);
}

static void send_waits(struct xt *t, struct gdr_xep *ep, size_t b)
{
	waits(t, ep, b, false);
}

static void inline_(struct xt *t, struct gdr_xep *ep, size_t b)
{
	waits(t, ep, b, true);
}

/*
 * The latency loop's shape: A posts its receive and a send the peer has no
 * receive for yet, then polls only its receive CQ; B posts its receive late,
 * takes the message and answers. Polling receives must move A's send.
 */
static void ping_pong(struct xt *t, struct gdr_xep *ep, size_t b)
{
	struct gdr_xop op = {.kind = GDR_XOP_SEND, .len = 24, .loff = b};
	struct gdr_xcqe e;

	memset(t->buf + b + 64, 0, 64);
	if (t->peer) {
		xt_hear(t);
		RECV(t, ep, b + 64, 64, 861);
		expect(t, GDR_XCQ_RECV, 861, &e);
		XT_CHECK(t, xt_differs(t->buf + b + 64, 24, 12, 0) == 24, "the ping's bytes");
		xt_fill(t->buf + b, 24, 13, 0);
		POST(t, ep, &op, 871);
		expect(t, GDR_XCQ_SEND, 871, &e);
		return;
	}
	RECV(t, ep, b + 64, 64, 860);
	xt_fill(t->buf + b, 24, 12, 0);
	POST(t, ep, &op, 870);
	xt_say(t, 1);
	expect(t, GDR_XCQ_RECV, 860, &e);
	XT_CHECK(t, xt_differs(t->buf + b + 64, 24, 13, 0) == 24, "the pong's bytes");
	expect(t, GDR_XCQ_SEND, 870, &e);
}

/* A send no receive ever meets: an error completion (or the transport buffered it), no hang. */
static void rnr(struct xt *t, struct gdr_xep *ep, size_t b)
{
	struct gdr_xop op = {.kind = GDR_XOP_SEND, .len = 16, .loff = b};
	struct gdr_xcqe e = {0};

	if (t->peer) {
		xt_say(t, 1);
		if (xt_hear(t) == 2) { /* buffered: it must land when a receive comes */
			memset(t->buf + b, 0, 64);
			RECV(t, ep, b, 64, 881);
			expect(t, GDR_XCQ_RECV, 881, &e);
			XT_CHECK(t, xt_differs(t->buf + b, 16, 11, 0) == 16, "the buffered bytes");
		}
		return;
	}
	xt_hear(t);
	xt_fill(t->buf + b, 16, 11, 0);
	POST(t, ep, &op, 880);
	if (xt_reap(t, GDR_XCQ_SEND, &e, 1) == 1 && e.status)
		xt_one_line(t, &e, "send");
	XT_CHECK(t, e.ctx == 880, "ctx %llu", (unsigned long long)e.ctx);
	xt_say(t, e.status ? 1 : 2);
}

struct post_call {
	struct gdr_xep *ep;
	const struct gdr_xop *op;
	uint64_t ctx;
};

static int call_post(struct xt *t, const void *arg)
{
	const struct post_call *c = arg;

	return t->xp->post_op(c->ep, t->mr, c->op, c->ctx);
}

/* A key the peer never gave, or a range outside its region: an error, no bytes moved. */
static void bad_remote(struct xt *t, size_t b, uint8_t kind, uint64_t key_xor, uint64_t roff,
		       uint16_t index)
{
	struct gdr_xremote bad = t->rem;
	struct gdr_xop op = {.kind = kind, .len = 64, .loff = b, .roff = roff};
	struct gdr_xep *ep;

	bad.key ^= key_xor;
	ep = xt_pair(t, index, t->peer ? NULL : &bad);
	if (!ep)
		return;
	if (t->peer) {
		memset(t->buf + b, 0, 64);
		memset(t->buf + XT_REGION - 8, 0x5a, 8);
		xt_say(t, 1);
		xt_hear(t);
		XT_CHECK(t, xt_zero(t->buf + b, 64), "bytes landed under a bad key");
		for (int i = 1; i <= 8; i++)
			XT_CHECK(t, t->buf[XT_REGION - i] == 0x5a, "the region's end was written");
	} else {
		xt_hear(t);
		memset(t->buf + b, kind == GDR_XOP_READ ? 0 : 0x33, 64);
		struct post_call pc = {ep, &op, 900};
		char out[512];

		/* refused at the post in one line (checked against rem there), or failed after */
		if (xt_capture(t, call_post, &pc, out, sizeof(out)))
			XT_CHECK(t, xt_is_line(out), "a refused post printed '%s'", out);
		else
			expect_error(t, GDR_XCQ_SEND, 900, kind == GDR_XOP_READ ? "read" : "write");
		if (kind == GDR_XOP_READ)
			XT_CHECK(t, xt_zero(t->buf + b, 64), "a failed read moved bytes");
		xt_say(t, 1);
	}
	xt_barrier(t);
	t->xp->ep_close(ep);
}

static void bad_key(struct xt *t, struct gdr_xep *ep, size_t b)
{
	(void)ep;
	bad_remote(t, b, GDR_XOP_WRITE, 1ull << 40, b, 100);
}

static void range_write(struct xt *t, struct gdr_xep *ep, size_t b)
{
	(void)ep;
	bad_remote(t, b, GDR_XOP_WRITE, 0, XT_REGION - 8, 101);
}

static void range_read(struct xt *t, struct gdr_xep *ep, size_t b)
{
	(void)ep;
	bad_remote(t, b, GDR_XOP_READ, 0, XT_REGION - 8, 102);
}

static int reg_gpu(struct xt *t, const void *arg)
{
	struct gdr_xmem m = {.addr = t->buf, .len = 4096, .kind = GDR_XMEM_CUDA, .dmabuf_fd = -1};
	struct gdr_xmr *mr = NULL;
	const char *method = NULL;
	int rc = t->xp->reg(t->d, &m, GDR_XA_LOCAL_WRITE, &mr, &method);

	(void)arg;
	if (!rc)
		t->xp->dereg(mr);
	return rc;
}

/* A transport without HMEM refuses GPU memory at reg, in one line. */
static void gpu_refused(struct xt *t, struct gdr_xep *ep, size_t b)
{
	char out[512];

	(void)ep, (void)b;
	XT_CHECK(t, xt_capture(t, reg_gpu, NULL, out, sizeof(out)) == -1, "GPU memory registered");
	XT_CHECK(t, xt_is_line(out), "reg printed '%s'", out);
}

/* The peer dies: the requester's next operation and its posted receives fail, no hang. */
static void peer_died(struct xt *t, struct gdr_xep *ep, size_t b)
{
	struct gdr_xop op = {.kind = GDR_XOP_WRITE, .len = 64, .loff = b, .roff = b};
	int status;

	if (t->peer) {
		xt_say(t, 1);
		xt_hear(t); /* killed here */
		return;
	}
	RECV(t, ep, b, 64, 950);
	RECV(t, ep, b + 64, 64, 951);
	xt_hear(t);
	kill(t->child, SIGKILL);
	XT_CHECK(t, waitpid(t->child, &status, 0) == t->child && WIFSIGNALED(status),
		 "the peer did not die");
	t->child = 0;
	POST(t, ep, &op, 960);
	expect_error(t, GDR_XCQ_SEND, 960, "write");
	expect_error(t, GDR_XCQ_RECV, 950, "receive");
	expect_error(t, GDR_XCQ_RECV, 951, "receive");
}

const struct xt_case xt_cases[] = {
    {"empty_poll", 0, 0, false, empty},
    {"write", GDR_XC_WRITE, 0, false, write_},
    {"read", GDR_XC_READ, 0, false, read_},
    {"order_signalled", GDR_XC_WRITE, 0, false, order},
    {"ring_wraps", GDR_XC_WRITE, 0, false, ring},
    {"write_data", GDR_XC_WRITE_DATA, 0, false, write_data},
    {"send_in_order", GDR_XC_SEND, 0, false, send_},
    {"last_flag", GDR_XC_SEND, 0, false, last},
    {"send_waits", GDR_XC_SEND, 0, false, send_waits},
    {"inline", GDR_XC_SEND | GDR_XC_INLINE, 0, false, inline_},
    {"ping_pong", GDR_XC_SEND, 0, false, ping_pong},
    {"no_receive", GDR_XC_SEND, 0, false, rnr},
    {"bad_key", GDR_XC_WRITE, 0, true, bad_key},
    {"range_write", GDR_XC_WRITE, 0, true, range_write},
    {"range_read", GDR_XC_READ, 0, true, range_read},
    {"gpu_refused", 0, GDR_XC_HMEM | GDR_XC_DMABUF, true, gpu_refused},
    {"peer_died", GDR_XC_WRITE, 0, false, peer_died}, /* the last: it kills the peer */
    {NULL, 0, 0, false, NULL},
};
