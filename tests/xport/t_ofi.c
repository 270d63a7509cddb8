/* SPDX-License-Identifier: MIT */
/*
 * The ofi transport end to end, both sides in two processes of this host,
 * over each provider named on the command line (default: "tcp;ofi_rxm" on
 * lo, and shm). A (the requester) drives; B (the target) posts receives,
 * keeps polling (libfabric's progress is manual) and checks what landed when
 * A's commands (sends with completion data) ask, answering on a socket.
 *
 * Checks: a write lands byte-exact; a read brings the peer's bytes; sends
 * land in posted order and the ring's LAST marker turns the last send into
 * one with data; a write with data lands and its data is reported with the
 * oldest receive's ctx; only signalled entries complete, with their ctx; a
 * post wraps the ring; a write with a wrong key fails with its ctx and a
 * line; an absent provider or domain is refused by name. Exit 77 when libfabric.so.1 or every
 * provider is absent (it says which); an absent provider among present ones is named and skipped.
 */
#include "config.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "log.h"
#include "xport.h"

#define BUF	   (1u << 20)
#define MSG_AREA   (BUF - 64u * 1024)
#define SLOT	   256u
#define NRECV	   16u
#define CMD_OFF	   (BUF - 128u * 1024) /* A's command scratch */
#define CMD_TAG	   0xC0DE0000u
#define WD_MAGIC   0xabcd1234u
#define LAST_MAGIC 0x1a57da7au
#define REPLY	   160

enum { C_CHECK = 1, C_ZERO, C_SEQ, C_WD, C_ERR_NEXT };

struct cmd {
	uint32_t code, seed;
	uint64_t off, len;
};

struct info {
	uint8_t blob[GDR_XADDR_MAX];
	uint64_t blen, addr, len, key;
};

struct side {
	const struct gdr_xport_ops *xp;
	struct gdr_xdom *d;
	struct gdr_xmr *mr;
	struct gdr_xep *ep;
	unsigned char *buf;
	int fd;
	struct info peer;
};

static const char *stage = "start";

/* Seconds a side may run before it is called hung: $T_OFI_WATCHDOG (slow VMs), else 60. */
static unsigned int watchdog(void)
{
	const char *e = getenv("T_OFI_WATCHDOG");

	return e && atoi(e) > 0 ? (unsigned int)atoi(e) : 60;
}

static void hung(int sig)
{
	static const char m[] = "t_ofi: a step hung past the watchdog (no completion): ";

	(void)sig;
	if (write(2, m, sizeof(m) - 1) < 0 || write(2, stage, strlen(stage)) < 0 ||
	    write(2, "\n", 1) < 0)
		_exit(3);
	_exit(3);
}

static unsigned char pat(uint32_t seed, uint64_t at)
{
	return (unsigned char)(seed * 131u + at * 7u + (at >> 8));
}

static void fill(unsigned char *p, uint32_t seed, uint64_t at, uint64_t len)
{
	for (uint64_t j = 0; j < len; j++)
		p[j] = pat(seed, at + j);
}

/* The first byte of p that is not the pattern (len when all are). */
static uint64_t differs(const unsigned char *p, uint32_t seed, uint64_t at, uint64_t len)
{
	for (uint64_t j = 0; j < len; j++)
		if (p[j] != pat(seed, at + j))
			return j;
	return len;
}

static int full_io(int fd, void *p, size_t n, int wr)
{
	char *c = p;

	while (n) {
		ssize_t k = wr ? write(fd, c, n) : read(fd, c, n);

		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static int setup(struct side *s, const char *prov, const char *dev, int fd)
{
	struct gdr_xdom_cfg dc = {.dev = dev, .provider = prov, .cq_depth = 256, .neps = 2};
	struct gdr_xep_cfg ec = {.index = 0, .tx_depth = 64, .rx_depth = NRECV};
	struct gdr_xlink link;
	struct gdr_xmem m = {.len = BUF, .kind = GDR_XMEM_HOST, .dmabuf_fd = -1};
	struct info me = {0};
	struct gdr_xremote rem;
	const char *method;

	s->fd = fd;
	s->xp = gdr_xport_find("ofi");
	if (!s->xp || s->xp->open(&s->d, &dc, &link))
		return -1;
	s->buf = aligned_alloc(4096, BUF);
	if (!s->buf)
		return -1;
	memset(s->buf, 0, BUF);
	m.addr = s->buf;
	if (s->xp->reg(s->d, &m, GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_WRITE | GDR_XA_REMOTE_READ,
		       &s->mr, &method) ||
	    s->xp->ep_open(s->d, &ec, &s->ep))
		return -1;
	me.blen = s->xp->addr(s->ep, me.blob, sizeof(me.blob));
	me.addr = (uintptr_t)s->buf;
	me.len = BUF;
	me.key = s->xp->key(s->mr);
	if (!me.blen || full_io(fd, &me, sizeof(me), 1) || full_io(fd, &s->peer, sizeof(me), 0))
		return -1;
	rem = (struct gdr_xremote){.addr = s->peer.addr, .len = s->peer.len, .key = s->peer.key};
	if (s->xp->connect(s->ep, s->peer.blob, s->peer.blen, &rem))
		return -1;
	printf("t_ofi: %s: %s (dev %s)\n", prov, link.what_ran, link.dev);
	return 0;
}

/* ---- B: the target ---- */

struct target {
	struct side s;
	uint32_t next;	   /* receives completed: the next's slot is next % NRECV */
	uint32_t seq;	   /* plain sends seen, in order */
	uint32_t wd, last; /* writes with data, LAST-marked sends seen */
	int err_ok;	   /* failed receive completions allowed (after C_ERR_NEXT) */
	char fails[REPLY];
};

static void failf(struct target *t, const char *what, unsigned long long a, unsigned long long b)
{
	if (!t->fails[0])
		snprintf(t->fails, sizeof(t->fails), "%s (%llu, %llu)", what, a, b);
}

static void reply(struct target *t, int ok, const char *why)
{
	char r[REPLY] = "ok";

	if (t->fails[0])
		snprintf(r, sizeof(r), "%s", t->fails);
	else if (!ok)
		snprintf(r, sizeof(r), "%s", why);
	if (full_io(t->s.fd, r, sizeof(r), 1))
		_exit(4);
}

static void command(struct target *t, const struct cmd *c)
{
	const unsigned char *p = t->s.buf + c->off;
	uint64_t k;

	switch (c->code) {
	case C_CHECK:
		k = differs(p, c->seed, c->off, c->len);
		reply(t, k == c->len, "bytes differ from what was written");
		break;
	case C_ZERO:
		for (k = 0; k < c->len && !p[k]; k++)
			;
		reply(t, k == c->len, "bytes the post should not have written were written");
		break;
	case C_SEQ:
		reply(t, t->seq == c->len && t->last == 1,
		      "sends missing, or the LAST marker's data not seen once");
		break;
	case C_WD:
		reply(t, t->wd == c->len, "writes with data missing");
		break;
	case C_ERR_NEXT:
		t->err_ok = 1;
		reply(t, 1, "");
		break;
	default:
		reply(t, 0, "unknown command");
	}
}

static void received(struct target *t, const struct gdr_xcqe *e)
{
	uint32_t slot = t->next % NRECV;
	const unsigned char *p = t->s.buf + MSG_AREA + slot * SLOT;
	uint32_t seq;

	if (e->status) {
		if (!t->err_ok)
			failf(t, "a receive failed", (unsigned long long)e->status, 0);
		return;
	}
	if (e->ctx != 1000 + slot || e->ep != 0)
		failf(t, "receive completions out of posted order: ctx, expected",
		      (unsigned long long)e->ctx, 1000 + slot);
	t->next++;
	if ((e->flags & GDR_XCQE_DATA) && (e->data & 0xffff0000u) == CMD_TAG) {
		struct cmd c;

		memcpy(&c, p, sizeof(c));
		command(t, &c);
	} else if ((e->flags & GDR_XCQE_DATA) && e->data == WD_MAGIC) {
		t->wd++;
	} else {
		memcpy(&seq, p, sizeof(seq));
		if (seq != t->seq)
			failf(t, "a send landed out of order: seq, expected", seq, t->seq);
		t->seq++;
		if (e->flags & GDR_XCQE_DATA) {
			if (e->data != LAST_MAGIC || seq != 7)
				failf(t, "a send's data is wrong: data, seq", e->data, seq);
			t->last++;
		}
	}
	if (t->s.xp->post_recv(t->s.ep, t->s.mr, MSG_AREA + slot * SLOT, SLOT, 1, 1000 + slot))
		failf(t, "cannot post a receive again", slot, 0);
}

static int run_target(const char *prov, const char *dev, int fd)
{
	static struct target t;
	struct gdr_xcqe e[8];
	struct pollfd pf = {.fd = fd, .events = POLLIN};
	int n;

	if (setup(&t.s, prov, dev, fd))
		return 1;
	fill(t.s.buf + 64 * 1024, 2, 64 * 1024, 4096); /* what A reads */
	for (uint32_t i = 0; i < NRECV; i++)
		if (t.s.xp->post_recv(t.s.ep, t.s.mr, MSG_AREA + i * SLOT, SLOT, 1, 1000 + i))
			return 1;
	if (full_io(fd, "R", 1, 1)) /* receives are posted */
		return 1;
	for (;;) {
		n = t.s.xp->poll(t.s.d, GDR_XCQ_RECV, e, 8);
		if (n < 0)
			return 1;
		for (int k = 0; k < n; k++)
			received(&t, &e[k]);
		if (poll(&pf, 1, 0) > 0) /* A's quit (it may come after a broken connection) */
			break;
	}
	t.s.xp->ep_close(t.s.ep);
	t.s.xp->dereg(t.s.mr);
	t.s.xp->close(t.s.d);
	free(t.s.buf);
	return 0;
}

/* ---- A: the requester ---- */

static int failed;

static void check(int ok, const char *prov, const char *what)
{
	printf("%s %s: %s\n", ok ? "ok  " : "FAIL", prov, what);
	if (!ok)
		failed = 1;
}

/* Poll the send queue until n completions; their ctx into ctx[], statuses must be 0. */
static int reap(struct side *s, int n, uint64_t *ctx, struct gdr_xcqe *last)
{
	struct gdr_xcqe e[8];
	int got = 0, k;

	while (got < n) {
		k = s->xp->poll(s->d, GDR_XCQ_SEND, e, n - got < 8 ? n - got : 8);
		if (k < 0)
			return -1;
		for (int j = 0; j < k; j++) {
			if (ctx)
				ctx[got] = e[j].ctx;
			if (last)
				*last = e[j];
			if (e[j].status && !last)
				return -1;
			got++;
		}
	}
	return 0;
}

/* Send a command to B and wait for its answer: 0 when "ok" (else printed). */
static int ask(struct side *s, uint32_t code, uint64_t off, uint64_t len, uint32_t seed)
{
	struct cmd c = {.code = code, .seed = seed, .off = off, .len = len};
	struct gdr_xop op = {
	    .kind = GDR_XOP_SEND_DATA, .len = sizeof(c), .loff = CMD_OFF, .data = CMD_TAG | code};
	char r[REPLY];

	memcpy(s->buf + CMD_OFF, &c, sizeof(c));
	if (s->xp->post_op(s->ep, s->mr, &op, 0xC0) || reap(s, 1, NULL, NULL) ||
	    full_io(s->fd, r, sizeof(r), 0))
		return -1;
	if (strcmp(r, "ok")) {
		printf("     target: %s\n", r);
		return -1;
	}
	return 0;
}

static void t_write(struct side *s, const char *prov)
{
	struct gdr_xop op = {.kind = GDR_XOP_WRITE, .len = 4096, .loff = 0, .roff = 0};
	uint64_t ctx = 0;

	stage = "write";
	fill(s->buf, 1, 0, 4096);
	check(!s->xp->post_op(s->ep, s->mr, &op, 0x11) && !reap(s, 1, &ctx, NULL) && ctx == 0x11 &&
		  !ask(s, C_CHECK, 0, 4096, 1),
	      prov, "a write of 4096 bytes lands byte-exact, its completion carries its ctx");
}

static void t_read(struct side *s, const char *prov)
{
	struct gdr_xop op = {
	    .kind = GDR_XOP_READ, .len = 4096, .loff = 128 * 1024, .roff = 64 * 1024};

	stage = "read";
	check(!s->xp->post_op(s->ep, s->mr, &op, 0x22) && !reap(s, 1, NULL, NULL) &&
		  differs(s->buf + 128 * 1024, 2, 64 * 1024, 4096) == 4096,
	      prov, "a read of 4096 bytes brings the peer's bytes");
}

static void t_send(struct side *s, const char *prov)
{
	struct gdr_xop ops[8];
	uint64_t sig[8] = {0, 0, 0, 0, 0, 0, 0, 0x55};

	stage = "send/recv";
	for (uint32_t i = 0; i < 8; i++) {
		ops[i] =
		    (struct gdr_xop){.kind = GDR_XOP_SEND, .len = 64, .loff = 256 * 1024 + i * 64};
		memcpy(s->buf + ops[i].loff, &i, sizeof(i));
	}
	check(!s->xp->prep(s->ep, s->mr, ops, 8) &&
		  !s->xp->post(s->ep, 0, 8, sig, GDR_XP_LAST, LAST_MAGIC) &&
		  !reap(s, 1, NULL, NULL) && !ask(s, C_SEQ, 0, 8, 0),
	      prov, "8 sends land in posted order; LAST makes the last one carry its data");
	/* a write of local scatter/gather entries (--sge) is not built here: refused at prep */
	ops[0] = (struct gdr_xop){
	    .kind = GDR_XOP_WRITE, .len = 128, .loff = 0, .nsge = 2, .sge_stride = 4096};
	check(s->xp->prep(s->ep, s->mr, ops, 1) && strstr(gdr_last_error(), "(--sge)"), prov,
	      "a write of 2 local entries is refused at prep, naming --sge");
}

static void t_write_data(struct side *s, const char *prov)
{
	struct gdr_xop op = {.kind = GDR_XOP_WRITE_DATA,
			     .len = 512,
			     .loff = 300 * 1024,
			     .roff = 200 * 1024,
			     .data = WD_MAGIC};

	stage = "write with data";
	fill(s->buf + op.loff, 4, op.roff, 512);
	check(!s->xp->post_op(s->ep, s->mr, &op, 0x44) && !reap(s, 1, NULL, NULL) &&
		  !ask(s, C_WD, 0, 1, 0) && !ask(s, C_CHECK, op.roff, 512, 4),
	      prov, "a write with data lands; the peer sees its data on the oldest receive");
}

static void t_signalled(struct side *s, const char *prov)
{
	struct gdr_xop ops[8],
	    one = {.kind = GDR_XOP_WRITE, .len = 64, .loff = 320 * 1024, .roff = 400 * 1024 + 1024};
	uint64_t sig[8] = {0, 0, 0, 0x33, 0, 0, 0, 0x77}, ctx[3] = {0};

	stage = "signalled only";
	for (uint32_t i = 0; i < 8; i++) {
		ops[i] = (struct gdr_xop){.kind = GDR_XOP_WRITE,
					  .len = 64,
					  .loff = 320 * 1024 + i * 64,
					  .roff = 400 * 1024 + i * 64};
		fill(s->buf + ops[i].loff, 10, ops[i].roff, 64);
	}
	fill(s->buf + one.loff, 10, one.roff, 0); /* its bytes are entry 0's: not checked */
	if (s->xp->prep(s->ep, s->mr, ops, 8) || s->xp->post(s->ep, 0, 8, sig, 0, 0) ||
	    reap(s, 2, ctx, NULL) || s->xp->post_op(s->ep, s->mr, &one, 0x99) ||
	    reap(s, 1, ctx + 2, NULL)) {
		check(0, prov, "8 writes, 2 signalled: only those complete, with their ctx");
		return;
	}
	/* the one-off write was signalled after both: the third completion must be it */
	check(((ctx[0] == 0x33 && ctx[1] == 0x77) || (ctx[0] == 0x77 && ctx[1] == 0x33)) &&
		  ctx[2] == 0x99 && !ask(s, C_CHECK, 400 * 1024, 512, 10),
	      prov, "8 writes, 2 signalled: only those complete, with their ctx");
}

static void t_wrap(struct side *s, const char *prov)
{
	struct gdr_xop ops[4];
	uint64_t sig[3] = {0, 0, 0x66}, ctx = 0;
	const uint64_t r = 450 * 1024;

	stage = "ring wrap-around";
	for (uint32_t i = 0; i < 4; i++) {
		ops[i] = (struct gdr_xop){.kind = GDR_XOP_WRITE,
					  .len = 64,
					  .loff = 360 * 1024 + i * 64,
					  .roff = r + i * 64};
		fill(s->buf + ops[i].loff, 20, ops[i].roff, 64);
	}
	check(!s->xp->prep(s->ep, s->mr, ops, 4) && !s->xp->post(s->ep, 3, 3, sig, 0, 0) &&
		  !reap(s, 1, &ctx, NULL) && ctx == 0x66 && !ask(s, C_CHECK, r + 192, 64, 20) &&
		  !ask(s, C_CHECK, r, 128, 20) && !ask(s, C_ZERO, r + 128, 64, 0),
	      prov, "a post of 3 from entry 3 of 4 writes entries 3, 0, 1 and not 2");
}

/*
 * The receive posted on the endpoint that the wrong key's write broke: it
 * completes in error, and its line names that write's failure (the cause), not
 * only a cancellation (send_lat over verbs;ofi_rxm once failed with a bare
 * "Operation canceled" on a receive, its cause never printed).
 */
static void cancelled_names_cause(struct side *s, const char *prov, struct gdr_xep *bad)
{
	struct gdr_xop op = {.kind = GDR_XOP_WRITE, .len = 64, .loff = 0, .roff = 0};
	struct gdr_xcqe e = {0};
	char cause[256];
	const char *p = strstr(gdr_last_error(), "endpoint 1: ");
	int n = 0;

	snprintf(cause, sizeof(cause), "%s", p ? p + strlen("endpoint 1: ") : "?");
	while (n == 0)
		n = s->xp->poll(s->d, GDR_XCQ_RECV, &e, 1);
	if (n == 1 && e.status && e.ctx == 0xCA1)
		s->xp->cqe_error(s->d, &e, "t_ofi: the broken endpoint's receive (expected)");
	if (!strstr(gdr_last_error(), cause))
		printf("     receive: n %d status %d ctx %#llx, its line '%s' lacks '%s'\n", n,
		       e.status, (unsigned long long)e.ctx, gdr_last_error(), cause);
	check(n == 1 && e.status && e.ctx == 0xCA1 && e.ep == 1 && p &&
		  strstr(gdr_last_error(), cause),
	      prov, "the receive the failure cancelled completes in error, naming the failure");
	/* a later operation completes flushed, its line naming the same failure */
	memset(&e, 0, sizeof(e));
	if (s->xp->post_op(bad, s->mr, &op, 0xF1) || reap(s, 1, NULL, &e) || !e.status ||
	    e.ctx != 0xF1 ||
	    s->xp->cqe_error(s->d, &e, "t_ofi: the broken endpoint's write (expected)") != -1 ||
	    !strstr(gdr_last_error(), cause)) {
		printf("     write: status %d ctx %#llx, its line '%s' lacks '%s'\n", e.status,
		       (unsigned long long)e.ctx, gdr_last_error(), cause);
		check(0, prov, "a later operation completes flushed, naming the failure");
		return;
	}
	check(1, prov, "a later operation completes flushed, naming the failure");
}

static void t_bad_key(struct side *s, const char *prov)
{
	struct gdr_xep_cfg ec = {.index = 1, .tx_depth = 8, .rx_depth = 1};
	struct gdr_xremote rem = {
	    .addr = s->peer.addr, .len = s->peer.len, .key = s->peer.key ^ 0x5a5a5a5aull};
	struct gdr_xop op = {.kind = GDR_XOP_WRITE, .len = 64, .loff = 0, .roff = 0};
	struct gdr_xep *bad;
	struct gdr_xcqe e = {0};

	stage = "bad key";
	if (!strcmp(prov, "shm")) {
		/* libfabric 1.17's shm checks no key on this path: a wrong-key write completes
		 * without FI_DELIVERY_COMPLETE and never with it (seen here) */
		printf("skip %s: a write with a wrong key (shm checks no RMA key)\n", prov);
		return;
	}
	if (ask(s, C_ERR_NEXT, 0, 0, 0) || s->xp->ep_open(s->d, &ec, &bad) ||
	    s->xp->connect(bad, s->peer.blob, s->peer.blen, &rem) ||
	    s->xp->post_recv(bad, s->mr, MSG_AREA, SLOT, 1, 0xCA1) ||
	    s->xp->post_op(bad, s->mr, &op, 0xBAD) || reap(s, 1, NULL, &e)) {
		check(0, prov, "a write with a wrong key completes in error");
		return;
	}
	if (!e.status || e.ctx != 0xBAD || e.ep != 1)
		printf("     status %d ctx %#llx ep %u\n", e.status, (unsigned long long)e.ctx,
		       e.ep);
	check(e.status != 0 && e.ctx == 0xBAD && e.ep == 1 &&
		  s->xp->cqe_error(s->d, &e, "t_ofi: the wrong key's write (expected)") == -1,
	      prov, "a write with a wrong key completes in error, with its ctx and a line");
	cancelled_names_cause(s, prov, bad);
	s->xp->ep_close(bad);
}

static int run_requester(const char *prov, const char *dev, int fd)
{
	static struct side s;
	char r;

	if (setup(&s, prov, dev, fd) || full_io(fd, &r, 1, 0))
		return 1;
	t_write(&s, prov);
	t_read(&s, prov);
	t_send(&s, prov);
	t_write_data(&s, prov);
	t_signalled(&s, prov);
	t_wrap(&s, prov);
	t_bad_key(&s, prov);
	stage = "quit";
	if (full_io(fd, "Q", 1, 1))
		return 1;
	s.xp->ep_close(s.ep);
	s.xp->dereg(s.mr);
	s.xp->close(s.d);
	free(s.buf);
	return failed;
}

/* ---- the driver: nothing of libfabric in this process ---- */

/* In a child: 0 when the provider opens, 2 when libfabric is absent, 3 when the provider is. */
static int probe(const char *prov, const char *dev)
{
	struct gdr_xdom_cfg dc = {.dev = dev, .provider = prov, .cq_depth = 16, .neps = 1};
	const struct gdr_xport_ops *xp = gdr_xport_find("ofi");
	struct gdr_xlink link;
	struct gdr_xdom *d;

	if (!xp || xp->open(&d, &dc, &link))
		return strstr(gdr_last_error(), "not found")	      ? 2
		       : strstr(gdr_last_error(), "has no FI_EP_RDM") ? 3
								      : 1;
	xp->close(d);
	return 0;
}

/* What tcp;ofi_rxm cannot do is refused in one line, before any network step. */
static int refusals(const struct gdr_xport_ops *xp)
{
	struct gdr_xdom_cfg ev = {
	    .provider = "tcp;ofi_rxm", .dev = "lo", .cq_depth = 16, .neps = 1, .events = true};
	struct gdr_xdom_cfg dc = {
	    .provider = "tcp;ofi_rxm", .dev = "lo", .cq_depth = 16, .neps = 1};
	static char page[4096];
	struct gdr_xmem gpu = {
	    .addr = page, .len = sizeof(page), .kind = GDR_XMEM_CUDA, .dmabuf_fd = -1};
	struct gdr_xmem dmabuf = {
	    .addr = page, .len = sizeof(page), .dmabuf_fd = 0, .flags = GDR_XMEM_BY_DMABUF};
	struct gdr_xmem either = {.addr = page, .len = sizeof(page), .dmabuf_fd = 0};
	struct gdr_xlink link;
	struct gdr_xdom *d = NULL;
	struct gdr_xmr *mr = NULL;
	const char *method;
	int ok = 1;

	if (!xp->open(&d, &ev, &link) || !strstr(gdr_last_error(), "-e"))
		ok = 0;
	if (xp->open(&d, &dc, &link))
		return 1;
	/* no FI_HMEM on tcp: the opened link says so (xport_fit.c decides from it), and GPU
	 * memory (never touched: refused first) */
	if (link.caps & (GDR_XC_HMEM | GDR_XC_DMABUF) || strcmp(link.provider, "tcp;ofi_rxm"))
		ok = 0;
	if (!xp->reg(d, &gpu, GDR_XA_REMOTE_WRITE, &mr, &method) || mr ||
	    !strstr(gdr_last_error(), "FI_HMEM"))
		ok = 0;
	/* built against headers below 1.20 (no DMABUF cap): dma-buf alone is refused; memory
	 * that also offers its address registers by it (xmem.h) */
	if (!(xp->caps & GDR_XC_DMABUF) &&
	    (!xp->reg(d, &dmabuf, GDR_XA_REMOTE_WRITE, &mr, &method) || mr ||
	     !strstr(gdr_last_error(), ">= 1.20")))
		ok = 0;
	if (!(xp->caps & GDR_XC_DMABUF)) {
		if (xp->reg(d, &either, GDR_XA_REMOTE_WRITE, &mr, &method) || !mr ||
		    strcmp(method, "host"))
			ok = 0;
		xp->dereg(mr);
		mr = NULL;
	}
	xp->close(d);
	printf("%s tcp;ofi_rxm: -e, GPU memory without FI_HMEM (the link's caps say so) and "
	       "dma-buf alone before 1.20 are refused in one line; with its address it registers\n",
	       ok ? "ok  " : "FAIL");
	return !ok;
}

/* In a child: a provider or a domain that is not there is refused in one line. */
static int bad_names(void)
{
	const struct gdr_xport_ops *xp = gdr_xport_find("ofi");
	struct gdr_xdom_cfg nop = {.provider = "nosuch", .cq_depth = 16, .neps = 1};
	struct gdr_xdom_cfg nod = {
	    .provider = "tcp;ofi_rxm", .dev = "nodev0", .cq_depth = 16, .neps = 1};
	struct gdr_xlink link;
	struct gdr_xdom *d = NULL;
	int ok = 1;

	if (!xp->open(&d, &nop, &link) || d || !strstr(gdr_last_error(), "nosuch"))
		ok = 0;
	if (!xp->open(&d, &nod, &link) || d || !strstr(gdr_last_error(), "no domain nodev0"))
		ok = 0;
	printf("%s tcp;ofi_rxm: an absent provider, an absent domain (-d) are refused, named\n",
	       ok ? "ok  " : "FAIL");
	return refusals(xp) || !ok;
}

static int child_rc(pid_t p)
{
	int st;

	if (waitpid(p, &st, 0) != p)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int one(const char *prov, const char *dev)
{
	int sv[2], ra, rb;
	pid_t a, b;

	fflush(stdout);
	a = fork();
	if (a == 0)
		_exit(probe(prov, dev));
	ra = child_rc(a);
	if (ra)
		return ra;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	fflush(stdout);
	b = fork();
	if (b == 0) {
		close(sv[0]);
		alarm(watchdog());
		_exit(run_target(prov, dev, sv[1]));
	}
	a = fork();
	if (a == 0) {
		close(sv[1]);
		alarm(watchdog());
		rb = run_requester(prov, dev, sv[0]);
		fflush(stdout);
		_exit(rb);
	}
	close(sv[0]);
	close(sv[1]);
	ra = child_rc(a);
	rb = child_rc(b);
	if (rb)
		printf("FAIL %s: the target exited with %d\n", prov, rb);
	return ra || rb ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const char *const def[] = {"tcp;ofi_rxm", "shm"};
	int n = argc > 1 ? argc - 1 : 2, ran = 0, bad = 0, rc;

	gdr_set_prog("t_ofi");
	setvbuf(stdout, NULL, _IOLBF, 0); /* a child killed by the watchdog keeps its lines */
	signal(SIGALRM, hung);
#ifndef HAVE_LIBFABRIC
	{
		/* the stub is there and says how to get the real one */
		struct gdr_xdom_cfg dc = {.cq_depth = 16};
		const struct gdr_xport_ops *xp = gdr_xport_find("ofi");
		struct gdr_xdom *d;
		struct gdr_xlink link;

		if (!xp || !xp->open(&d, &dc, &link) ||
		    !strstr(gdr_last_error(), "libfabric-dev")) {
			printf(
			    "FAIL: --transport=ofi in a build without libfabric does not say how "
			    "to get it\n");
			return 1;
		}
		printf("SKIP: this build has no libfabric headers (configure found no "
		       "rdma/fabric.h)\n");
		return 77;
	}
#endif
	for (int i = 0; i < n; i++) {
		const char *prov = argc > 1 ? argv[i + 1] : def[i];
		/* tcp on loopback: the test stays on this host */
		const char *dev = !strncmp(prov, "tcp", 3) ? "lo" : NULL;

		rc = one(prov, dev);
		if (rc == 2) {
			printf("SKIP: libfabric.so.1 cannot be loaded (install libfabric1)\n");
			return 77;
		}
		if (rc == 3) {
			printf("SKIP %s: libfabric has no such provider here\n", prov);
			continue;
		}
		ran++;
		bad |= rc != 0;
		if (!strcmp(prov, "tcp;ofi_rxm")) {
			pid_t p;

			fflush(stdout);
			p = fork();
			if (p == 0)
				_exit(bad_names() | fflush(stdout));
			bad |= child_rc(p) != 0;
		}
	}
	if (!ran) {
		printf("SKIP: none of the providers is present\n");
		return 77;
	}
	return bad;
}
