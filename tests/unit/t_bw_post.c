/* SPDX-License-Identifier: MIT */
/*
 * The bandwidth requester's posts (engine/bw_ring.c, gdr_bw_post) through a
 * fake transport that records each post: which ring entries, which of them
 * are signalled with which ctx (the messages a completion covers and the
 * QP), the LAST flag. Against a model that counts message by message: one
 * signalled in sig_every across posts, the QP's final message signalled and
 * marked; the ring's head wraps; every message covered once; the signal
 * list handed to the transport is all zeros again after each post (the
 * engine writes only the signalled places).
 */
#include "config.h"
#include <stdlib.h>
#include "bw.h"
#include "bw_ring.h"
#include "check.h"
#include "rng.h"

#define MAXN 64

static struct {
	uint32_t first, n;
	uint64_t sig[MAXN];
	unsigned int flags;
	uint32_t last_data;
	int posts;
} rec;

static int fake_post(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		     unsigned int flags, uint32_t last_data)
{
	(void)ep;
	rec.first = first;
	rec.n = n;
	memcpy(rec.sig, sig, n * sizeof(*sig));
	rec.flags = flags;
	rec.last_data = last_data;
	rec.posts++;
	return 0;
}

static const struct gdr_xport_ops fake = {.name = "fake", .post = fake_post};

/* The model: per QP, the messages since its last signalled one and its next ring entry. */
struct model {
	uint32_t unsignaled, head;
	uint64_t covered;
};

/* One run: nqp QPs, per_qp messages each, completions arriving in random amounts. */
static void run(uint32_t every, uint32_t post_list, uint32_t depth, uint32_t ring, uint64_t per_qp,
		uint32_t nqp)
{
	static struct gdr_conn c;
	static struct gdr_path path;
	static struct gdr_bw_state s;
	struct model m[2] = {{0}};
	int bad = 0;

	c = (struct gdr_conn){.nqp = nqp, .xp = &fake};
	memset(&s, 0, sizeof(s));
	s.c = &c;
	s.p = &path;
	s.size = 64;
	s.per_qp = per_qp;
	s.depth = depth;
	s.sig_every = every;
	s.post_list = post_list;
	s.ring = ring;
	s.sig = calloc(post_list, sizeof(*s.sig));
	CHECK(s.sig && post_list <= MAXN && nqp <= 2);
	if (!s.sig)
		return;
	for (;;) {
		bool more = false;

		for (uint32_t q = 0; q < nqp; q++) {
			struct gdr_bw_qp *p = &s.qp[q];
			uint64_t room = depth - (p->posted - p->completed), n = post_list;
			bool last;
			int got;

			if (n > room)
				n = room;
			if (n > per_qp - p->posted)
				n = per_qp - p->posted;
			last = n && p->posted + n == per_qp;
			rec.posts = 0;
			got = gdr_bw_post(&s, q);
			if (got != (int)n || rec.posts != (n ? 1 : 0)) {
				CHECK(0, "every %u list %u: %d posted, %llu expected", every,
				      post_list, got, (unsigned long long)n);
				bad++;
				break;
			}
			for (uint32_t k = 0; n && k < post_list; k++)
				if (s.sig[k]) {
					CHECK(0,
					      "every %u list %u: sig[%u] left %llu after the post",
					      every, post_list, k, (unsigned long long)s.sig[k]);
					bad++;
				}
			if (n &&
			    (rec.first != m[q].head || rec.flags != (last ? GDR_XP_LAST : 0u) ||
			     (last && rec.last_data != GDR_IMM_LAST))) {
				CHECK(0, "every %u list %u: first %u (model %u), flags %u, last %d",
				      every, post_list, rec.first, m[q].head, rec.flags, last);
				bad++;
			}
			for (uint32_t k = 0; k < n; k++) {
				uint64_t want = 0;

				if (++m[q].unsignaled >= every || (last && k + 1 == n)) {
					want = gdr_bw_wr_id(q, m[q].unsignaled);
					m[q].covered += m[q].unsignaled;
					m[q].unsignaled = 0;
				}
				if (rec.sig[k] != want) {
					CHECK(
					    0,
					    "every %u list %u: QP %u message %llu: sig %llu, model "
					    "%llu",
					    every, post_list, q,
					    (unsigned long long)(p->posted - n + k),
					    (unsigned long long)rec.sig[k],
					    (unsigned long long)want);
					bad++;
				}
				m[q].head = m[q].head + 1 == ring ? 0 : m[q].head + 1;
			}
			if (bad)
				break;
			/* some of what is in flight completes */
			if (p->posted > p->completed)
				p->completed += 1 + rng() % (p->posted - p->completed);
			more |= p->posted < per_qp;
		}
		if (bad || !more)
			break;
	}
	for (uint32_t q = 0; q < nqp && !bad; q++)
		CHECK(m[q].covered == per_qp && !m[q].unsignaled && !s.qp[q].final_pending,
		      "every %u list %u: QP %u covered %llu of %llu", every, post_list, q,
		      (unsigned long long)m[q].covered, (unsigned long long)per_qp);
	free(s.sig);
}

int main(void)
{
	/* cq_mod 100 at -l 32 (the default), a signal per post, every message, none but the last */
	run(100, 32, 128, 128, 5000, 2);
	run(32, 32, 128, 128, 1000, 1);
	run(1, 32, 128, 128, 777, 2);
	run(1, 1, 128, 128, 300, 1);
	run(100, 1, 128, 128, 1000, 2);
	run(7, 5, 16, 16, 1001, 2);
	run(3, 8, 8, 8, 99, 1);
	run(1000, 32, 64, 64, 500, 1);
	run(5, 16, 40, 41, 3000, 2);
	return CHECK_DONE();
}
