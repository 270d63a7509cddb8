/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport's hot path (transport/verbs/verbs_data.c) on a fake device
 * whose post_send, post_recv and poll_cq record what they are given: prep
 * builds each entry once (opcode, addresses, keys, inline, immediate, -c UD,
 * atomics); a post of n entries is one post_send of a chain of n that
 * patches only flags, wr_id, the links and the LAST marker (restored by the
 * next post); a post of n after posts of other lengths, starts and signals
 * is exactly what prep built plus its own signals and marker (post_patches);
 * post_op, post_recv in batches, completions as gdr_xcqe.
 */
#include "config.h"
#include <arpa/inet.h>
#include <stdlib.h>
#include "check.h"
#include "rng.h"
#include "verbs.h"
#include "verbs_xp.h"

#define MAXREC 64

static struct {
	int sends, recvs;
	uint32_t qpn;
	int n;
	struct ibv_send_wr wr[MAXREC];
	struct ibv_sge sge[MAXREC];
	struct ibv_recv_wr rwr[MAXREC];
	struct ibv_sge rsge[MAXREC];
	struct ibv_wc wc[4];
	int nwc;
} rec;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	(void)bad;
	rec.sends++;
	rec.qpn = qp->qp_num;
	rec.n = 0;
	for (; wr && rec.n < MAXREC; wr = wr->next, rec.n++) {
		rec.wr[rec.n] = *wr;
		if (wr->num_sge)
			rec.sge[rec.n] = *wr->sg_list;
	}
	return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	(void)qp;
	(void)bad;
	rec.recvs++;
	rec.n = 0;
	for (; wr && rec.n < MAXREC; wr = wr->next, rec.n++) {
		rec.rwr[rec.n] = *wr;
		rec.rsge[rec.n] = *wr->sg_list;
	}
	return 0;
}

static int fake_poll_cq(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	int n = rec.nwc < num ? rec.nwc : num;

	(void)cq;
	memcpy(wc, rec.wc, (size_t)n * sizeof(*wc));
	rec.nwc = 0;
	return n;
}

static uint8_t buf[4096];
static struct ibv_context ctx;
static struct ibv_qp qp0 = {.context = &ctx, .qp_num = 0x11};
static struct ibv_qp qp1 = {.context = &ctx, .qp_num = 0x22};
static struct ibv_cq scq = {.context = &ctx}, rcq = {.context = &ctx};
static struct ibv_ah ah;
static struct ibv_mr mr = {.addr = buf, .lkey = 7};
static struct gdr_opts o = {.conn = GDR_CONN_RC};
static struct gdr_vconn v = {.scq = &scq, .rcq = &rcq};
static struct gdr_conn c = {.o = &o, .nqp = 2, .npaths = 1, .v = &v};
static struct gdr_path *p = &c.path[0];

static void setup(void)
{
	ctx.ops.post_send = fake_post_send;
	ctx.ops.post_recv = fake_post_recv;
	ctx.ops.poll_cq = fake_poll_cq;
	*p = (struct gdr_path){.name = "direct",
			       .inline_max = 64,
			       .remote = {.addr = 0x100000, .len = 0x2000, .key = 0x55}};
	v.path[0] = (struct gdr_vpath){.mr = &mr, .qp = {&qp0, &qp1}, .ah = {&ah, &ah}};
	v.path[0].peer[1].qpn = 0x99;
	CHECK(!gdr_vx_wrap_path(&c, p) && c.xp == gdr_xport_find("verbs") && c.xd && p->xmr &&
	      p->ep[0] && p->ep[1] && p->ep[1]->index == 1 && p->ep[1]->rem.key == 0x55);
}

/* prep: every entry built once, as the operation says. */
static void prep_builds(void)
{
	const struct gdr_xop ops[4] = {
	    {.kind = GDR_XOP_WRITE, .inline_ok = true, .len = 8, .loff = 16, .roff = 32},
	    {.kind = GDR_XOP_READ, .len = 128, .loff = 2048, .roff = 64},
	    {.kind = GDR_XOP_WRITE_DATA, .inline_ok = true, .len = 100, .roff = 8, .data = 0x6764},
	    {.kind = GDR_XOP_SEND, .inline_ok = true, .len = 4},
	};
	struct gdr_xep *ep = p->ep[0];

	CHECK(!c.xp->prep(ep, p->xmr, ops, 4) && ep->n == 4);
	CHECK(ep->wr[0].opcode == IBV_WR_RDMA_WRITE && ep->wr[0].send_flags == IBV_SEND_INLINE &&
	      ep->wr[0].wr.rdma.remote_addr == 0x100000 + 32 && ep->wr[0].wr.rdma.rkey == 0x55);
	CHECK(ep->sge[0].addr == (uintptr_t)buf + 16 && ep->sge[0].length == 8 &&
	      ep->sge[0].lkey == 7 && ep->wr[0].sg_list == &ep->sge[0] && ep->wr[0].num_sge == 1);
	CHECK(ep->wr[1].opcode == IBV_WR_RDMA_READ && !ep->wr[1].send_flags &&
		  ep->wr[1].wr.rdma.remote_addr == 0x100000 + 64,
	      "a read is never inline");
	CHECK(ep->wr[2].opcode == IBV_WR_RDMA_WRITE_WITH_IMM && !ep->wr[2].send_flags &&
		  ep->wr[2].imm_data == htonl(0x6764),
	      "100 bytes > inline_max 64: not inline");
	CHECK(ep->wr[3].opcode == IBV_WR_SEND && ep->wr[3].send_flags == IBV_SEND_INLINE);
}

/* post: one post_send of the chain, only flags, wr_id, links and the LAST marker patched. */
static void post_chains(void)
{
	const uint64_t sig[3] = {0, 5, 9};
	const uint64_t one[1] = {3};
	struct gdr_xep *ep = p->ep[0];

	rec.sends = 0;
	CHECK(!c.xp->post(ep, 3, 3, sig, GDR_XP_LAST, 0x4c41));
	CHECK(rec.sends == 1 && rec.n == 3 && rec.qpn == 0x11, "%d calls, a chain of %d", rec.sends,
	      rec.n);
	CHECK(rec.wr[0].opcode == IBV_WR_SEND && rec.wr[0].imm_data == 0 &&
		  rec.wr[0].send_flags == IBV_SEND_INLINE && rec.wr[0].wr_id == 0,
	      "the ring wraps: entry 3 first, unsignalled");
	CHECK(rec.wr[1].opcode == IBV_WR_RDMA_WRITE && rec.wr[1].wr_id == 5 &&
	      rec.wr[1].send_flags == (IBV_SEND_INLINE | IBV_SEND_SIGNALED));
	CHECK(rec.wr[2].opcode == IBV_WR_RDMA_READ && rec.wr[2].wr_id == 9 &&
		  rec.wr[2].send_flags == IBV_SEND_SIGNALED && rec.wr[2].imm_data == htonl(0x4c41),
	      "the last entry carries LAST (a read's opcode unchanged)");
	/* LAST marks the chain's last entry; a send became SEND_WITH_IMM above only when last */
	CHECK(!c.xp->post(ep, 2, 2, sig, GDR_XP_LAST, 0x4c41) && rec.n == 2);
	CHECK(rec.wr[0].opcode == IBV_WR_RDMA_WRITE_WITH_IMM && rec.wr[0].imm_data == htonl(0x6764),
	      "not the last entry: its own data");
	CHECK(rec.wr[1].opcode == IBV_WR_SEND_WITH_IMM && rec.wr[1].imm_data == htonl(0x4c41));
	/* the next post restores the marked entry to what prep built */
	CHECK(!c.xp->post(ep, 3, 1, one, 0, 0) && rec.n == 1);
	CHECK(rec.wr[0].opcode == IBV_WR_SEND && rec.wr[0].imm_data == 0 && rec.wr[0].wr_id == 3 &&
		  rec.wr[0].send_flags == (IBV_SEND_INLINE | IBV_SEND_SIGNALED),
	      "opcode %d after LAST", rec.wr[0].opcode);
	CHECK(!ep->wr[3].next, "the chain ends at its last entry");
}

/*
 * A post of n entries after posts of other lengths, starts, signals and
 * LAST markers: the chain is exactly entries first..first+n-1 of the ring
 * (wrapping), each what prep built, signalled with its ctx where sig says
 * and only there, the last one carrying LAST only when asked, the chain
 * cut after exactly n. Checked against a copy of the ring as prep left it.
 */
#define PRING 7
static void post_patches(void)
{
	const struct gdr_xop ops[PRING] = {
	    {.kind = GDR_XOP_WRITE, .inline_ok = true, .len = 8, .roff = 8},
	    {.kind = GDR_XOP_SEND, .inline_ok = true, .len = 16, .loff = 64},
	    {.kind = GDR_XOP_WRITE_DATA, .len = 128, .loff = 128, .roff = 256, .data = 0x6764},
	    {.kind = GDR_XOP_READ, .len = 32, .loff = 512, .roff = 512},
	    {.kind = GDR_XOP_WRITE, .len = 200, .loff = 1024, .roff = 1024},
	    {.kind = GDR_XOP_SEND, .len = 100, .loff = 1536},
	    {.kind = GDR_XOP_WRITE, .inline_ok = true, .len = 4, .loff = 2048, .roff = 2048},
	};
	struct gdr_xep *ep = p->ep[1];
	struct ibv_send_wr built[PRING];
	uint64_t sig[PRING];
	int bad = 0;

	CHECK(!c.xp->prep(ep, p->xmr, ops, PRING));
	memcpy(built, ep->wr, sizeof(built));
	for (int i = 0; i < 400 && bad < 5; i++) {
		/* the first two: a post of 3 after a post of the whole ring, then random ones */
		uint32_t first = i == 0 ? 4 : i == 1 ? 1 : (uint32_t)(rng() % PRING);
		uint32_t n = i == 0 ? PRING : i == 1 ? 3 : 1 + (uint32_t)(rng() % PRING);
		bool last = i == 0 || (i > 1 && rng() % 4 == 0);

		for (uint32_t k = 0; k < n; k++)
			sig[k] = i == 0 || rng() % 3 == 0 ? 0x100 * (uint64_t)i + k + 1 : 0;
		CHECK(!c.xp->post(ep, first, n, sig, last ? GDR_XP_LAST : 0, 0x4c41));
		if (rec.n != (int)n || rec.qpn != 0x22) {
			CHECK(rec.n == (int)n, "post %d: a chain of %d for %u entries", i, rec.n,
			      n);
			bad++;
			continue;
		}
		for (uint32_t k = 0; k < n; k++) {
			uint32_t at = (first + k) % PRING;
			struct ibv_send_wr want = built[at];
			const struct ibv_send_wr *got = &rec.wr[k];

			if (sig[k]) {
				want.send_flags |= IBV_SEND_SIGNALED;
				want.wr_id = sig[k];
			}
			if (last && k + 1 == n) {
				want.imm_data = htonl(0x4c41);
				if (want.opcode == IBV_WR_SEND)
					want.opcode = IBV_WR_SEND_WITH_IMM;
			}
			want.next = k + 1 == n ? NULL : &ep->wr[(at + 1) % PRING];
			if (got->wr_id != want.wr_id || got->send_flags != want.send_flags ||
			    got->opcode != want.opcode || got->imm_data != want.imm_data ||
			    got->next != want.next || got->sg_list != want.sg_list ||
			    got->num_sge != want.num_sge ||
			    got->wr.rdma.remote_addr != want.wr.rdma.remote_addr ||
			    got->wr.rdma.rkey != want.wr.rdma.rkey) {
				CHECK(0,
				      "post %d (first %u, n %u%s): entry %u: wr_id %llu/%llu flags "
				      "%u/%u opcode %d/%d imm %x/%x next %s",
				      i, first, n, last ? ", LAST" : "", at,
				      (unsigned long long)got->wr_id,
				      (unsigned long long)want.wr_id, got->send_flags,
				      want.send_flags, got->opcode, want.opcode, got->imm_data,
				      want.imm_data, got->next == want.next ? "ok" : "wrong");
				bad++;
				break;
			}
		}
	}
	CHECK(!bad, "%d posts differ from prep's ring and their own signals", bad);
	rec.n = -1;
	CHECK(c.xp->post(ep, 0, PRING + 1, sig, 0, 0) == -1 && rec.n == -1,
	      "more entries than the ring: refused before the device");
	CHECK(c.xp->post(ep, PRING, 1, sig, 0, 0) == -1 && rec.n == -1,
	      "a first entry past the ring: refused");
	/* a ring of one (the latency tests): linked to itself, cut at every post */
	CHECK(!c.xp->prep(ep, p->xmr, &ops[1], 1));
	for (int i = 0; i < 3; i++) {
		sig[0] = i == 1 ? 0 : 7;
		CHECK(!c.xp->post(ep, 0, 1, sig, i == 1 ? GDR_XP_LAST : 0, 0x4c41) && rec.n == 1);
		CHECK(!rec.wr[0].next && rec.wr[0].wr_id == sig[0] &&
			  rec.wr[0].send_flags ==
			      (IBV_SEND_INLINE | (sig[0] ? IBV_SEND_SIGNALED : 0)) &&
			  rec.wr[0].opcode == (i == 1 ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND) &&
			  rec.wr[0].imm_data == (i == 1 ? htonl(0x4c41) : 0),
		      "ring of one, post %d", i);
	}
}

/* post_op: one request, signalled with its ctx or not at all; atomics; -c UD's address. */
static void post_op_one(void)
{
	struct gdr_xop fadd = {
	    .kind = GDR_XOP_FADD, .len = 8, .loff = 8, .roff = 64, .add_swap = 1};
	struct gdr_xop cas = {
	    .kind = GDR_XOP_CSWAP, .len = 8, .roff = 128, .cmp = 0, .add_swap = 1};
	struct gdr_xop send = {.kind = GDR_XOP_SEND_DATA, .len = 0, .data = 0x40000000};

	rec.sends = 0;
	CHECK(!c.xp->post_op(p->ep[1], p->xmr, &fadd, 0) && rec.sends == 1 && rec.qpn == 0x22);
	CHECK(rec.wr[0].opcode == IBV_WR_ATOMIC_FETCH_AND_ADD && !rec.wr[0].send_flags &&
	      rec.wr[0].wr.atomic.remote_addr == 0x100000 + 64 &&
	      rec.wr[0].wr.atomic.compare_add == 1 && rec.wr[0].wr.atomic.rkey == 0x55 &&
	      rec.sge[0].addr == (uintptr_t)buf + 8 && rec.sge[0].length == 8);
	CHECK(!c.xp->post_op(p->ep[1], p->xmr, &cas, 77));
	CHECK(rec.wr[0].opcode == IBV_WR_ATOMIC_CMP_AND_SWP && rec.wr[0].wr_id == 77 &&
	      rec.wr[0].send_flags == IBV_SEND_SIGNALED && rec.wr[0].wr.atomic.compare_add == 0 &&
	      rec.wr[0].wr.atomic.swap == 1);
	o.conn = GDR_CONN_UD;
	CHECK(!c.xp->post_op(p->ep[1], p->xmr, &send, 1));
	CHECK(rec.wr[0].opcode == IBV_WR_SEND_WITH_IMM && rec.wr[0].num_sge == 0 &&
		  rec.wr[0].imm_data == htonl(0x40000000) && rec.wr[0].wr.ud.ah == &ah &&
		  rec.wr[0].wr.ud.remote_qpn == 0x99 && rec.wr[0].wr.ud.remote_qkey == GDR_UD_QKEY,
	      "an empty send (no SGE), addressed to the peer's QP 1 on UD");
	o.conn = GDR_CONN_RC;
}

/* post_recv: n receives in batches of 32 per post_recv, each with ctx, at off. */
static void post_recv_batches(void)
{
	rec.recvs = 0;
	CHECK(!c.xp->post_recv(p->ep[0], p->xmr, 1024, 256, 40, 6));
	CHECK(rec.recvs == 2 && rec.n == 8, "%d calls, the last of %d", rec.recvs, rec.n);
	CHECK(rec.rwr[7].wr_id == 6 && !rec.rwr[7].next &&
	      rec.rsge[0].addr == (uintptr_t)buf + 1024 && rec.rsge[0].length == 256 &&
	      rec.rsge[0].lkey == 7);
}

/* poll: completions as gdr_xcqe (ctx, data in host order, RECV, the endpoint); a failure. */
static void poll_converts(void)
{
	struct gdr_xcqe e[4];
	int n;

	rec.wc[0] = (struct ibv_wc){.wr_id = 1,
				    .opcode = IBV_WC_RECV_RDMA_WITH_IMM,
				    .qp_num = 0x22,
				    .wc_flags = IBV_WC_WITH_IMM,
				    .imm_data = htonl(0x4c41),
				    .byte_len = 12};
	rec.wc[1] = (struct ibv_wc){.wr_id = 5 << 8, .opcode = IBV_WC_RDMA_WRITE, .qp_num = 0x11};
	rec.wc[2] =
	    (struct ibv_wc){.wr_id = 0, .opcode = IBV_WC_RECV, .qp_num = 0x11, .byte_len = 3};
	rec.nwc = 3;
	n = c.xp->poll(c.xd, GDR_XCQ_RECV, e, 4);
	CHECK(n == 3, "%d", n);
	CHECK(e[0].ctx == 1 && e[0].data == 0x4c41 && e[0].len == 12 && e[0].ep == 1 &&
	      e[0].flags == (GDR_XCQE_DATA | GDR_XCQE_RECV) && !e[0].status);
	CHECK(e[1].ctx == 5 << 8 && !e[1].flags && e[1].ep == 0 && !e[1].status);
	CHECK(e[2].flags == GDR_XCQE_RECV && e[2].len == 3 && e[2].ep == 0);
	rec.wc[0] = (struct ibv_wc){.wr_id = 9, .status = IBV_WC_REM_ACCESS_ERR, .qp_num = 0x22};
	rec.nwc = 1;
	n = c.xp->poll(c.xd, GDR_XCQ_SEND, e, 4);
	CHECK(n == 1 && e[0].status == IBV_WC_REM_ACCESS_ERR && e[0].ep == 1 && e[0].ctx == 9);
	CHECK(c.xp->cqe_error(c.xd, &e[0], "send") == -1, "a failed completion: one line, -1");
	CHECK(c.xp->wait(c.xd, 1) == 0, "no -e: nothing to wait on");
}

int main(void)
{
	setup();
	prep_builds();
	post_chains();
	post_patches();
	post_op_one();
	post_recv_batches();
	poll_converts();
	gdr_vx_unwrap(&c);
	CHECK(!c.xd && !p->xmr && !p->ep[0] && !p->ep[1], "unwrap frees every object");
	return CHECK_DONE();
}
