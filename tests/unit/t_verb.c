/* SPDX-License-Identifier: MIT */
/*
 * The verb descriptors (engine/verb.h, options/verb_def.h) and the roles
 * (transport/role.h): every row complete, its data consistent with what its
 * posting functions post, every per-test option default given once per test,
 * and each side's role for every test worked out by hand.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "opts_table.h"
#include "role.h"
#include "stage_wr.h"
#include "verb.h"
#include "xport.h"

/* The peer access an operation kind needs of the target's memory (0: none, two-sided). */
static unsigned kind_access(uint8_t k)
{
	switch (k) {
	case GDR_XOP_WRITE:
	case GDR_XOP_WRITE_DATA:
		return GDR_ACC_WRITE;
	case GDR_XOP_READ:
		return GDR_ACC_READ;
	case GDR_XOP_FADD:
	case GDR_XOP_CSWAP:
		return GDR_ACC_ATOMIC;
	default:
		return 0;
	}
}

static bool is_send(uint8_t k)
{
	return k == GDR_XOP_SEND || k == GDR_XOP_SEND_DATA;
}

/* The row's wire operation of a kind the direct path posts. */
static enum gdr_wire_op wire_op(uint8_t k)
{
	switch (k) {
	case GDR_XOP_WRITE:
		return GDR_OP_WRITE;
	case GDR_XOP_WRITE_DATA:
		return GDR_OP_WRITE_IMM;
	case GDR_XOP_READ:
		return GDR_OP_READ;
	case GDR_XOP_SEND:
	case GDR_XOP_SEND_DATA:
		return GDR_OP_SEND;
	default:
		return GDR_OP_ATOMIC;
	}
}

/* A message that consumes a receive at the target. */
static bool consumes_recv(uint8_t k)
{
	return is_send(k) || k == GDR_XOP_WRITE_DATA;
}

/* Every field of every row is there, and the data agree with each other. */
static void rows_complete(void)
{
	unsigned seen = 0;

	for (int v = 0; v < GDR_NVERBS; v++) {
		const struct gdr_verb_ops *vo = gdr_verb_ops_of((enum gdr_verb)v);
		const struct gdr_verb_def *d = gdr_verb_def((enum gdr_verb)v);

		CHECK(vo && d && vo->def == d && d->verb == (enum gdr_verb)v, "verb %d", v);
		if (!vo || !d)
			continue;
		CHECK(d->name && *d->name && !strcmp(gdr_verb_name(d->verb), d->name), "%d", v);
		CHECK(vo->bw_op && vo->lat_op, "%s: a posting function per kind", d->name);
		if (d->flag) { /* a variant: its base's tests, chosen by a flag */
			bool base = false;

			for (int b = 0; b < GDR_NVERBS; b++)
				base |= !gdr_verb_defs[b].flag &&
					gdr_verb_defs[b].tests[0] == d->tests[0] &&
					gdr_verb_defs[b].tests[1] == d->tests[1];
			CHECK(base && *d->flag, "%s: a variant of another verb's tests", d->name);
		}
		CHECK(!vo->target_zero == !vo->target_check, "%s: zero and check go together",
		      d->name);
		for (int k = 0; k < GDR_NKINDS; k++) {
			CHECK(d->title[k] && *d->title[k], "%s kind %d: title", d->name, k);
			CHECK(d->tests[k] && !(d->tests[k] & (d->tests[k] - 1)) &&
				  (d->flag || !(seen & d->tests[k])),
			      "%s kind %d: one test bit of its own", d->name, k);
			seen |= d->tests[k];
			for (int s = GDR_TD_SIZE; s < GDR_TD_N; s++)
				CHECK(d->defaults[k][s] && *d->defaults[k][s],
				      "%s kind %d: default of slot %d", d->name, k, s);
		}
		CHECK(d->conns & (1u << GDR_CONN_RC), "%s: every verb runs on RC", d->name);
		CHECK(!(d->conns & (1u << GDR_CONN_UD)) || d->op == GDR_OP_SEND,
		      "%s: UD carries sends", d->name);
		CHECK(!(d->fetches && d->target_recvs), "%s: a fetch is one-sided", d->name);
		CHECK((d->op == GDR_OP_SEND) == !d->peer_access, "%s: send <=> no remote access",
		      d->name);
		CHECK(d->target_recvs == (d->op == GDR_OP_SEND || d->op == GDR_OP_WRITE_IMM),
		      "%s: the messages that consume receives", d->name);
		CHECK(d->fetches == (d->op == GDR_OP_READ || d->op == GDR_OP_ATOMIC), "%s",
		      d->name);
		CHECK(!(d->peer_access & (d->peer_access - 1)), "%s: one kind of remote access",
		      d->name);
		CHECK(d->needs_atomic_cap == !!(d->peer_access & GDR_ACC_ATOMIC), "%s", d->name);
		CHECK(d->fetches == !!(d->peer_access & (GDR_ACC_READ | GDR_ACC_ATOMIC)), "%s",
		      d->name);
		CHECK(d->lat == (d->op == GDR_OP_SEND  ? GDR_LAT_SEND_PINGPONG
				 : d->needs_atomic_cap ? GDR_LAT_ATOMIC_RTT
				 : d->fetches	       ? GDR_LAT_READ_RTT
						       : GDR_LAT_WRITE_PINGPONG),
		      "%s: latency method", d->name);
		CHECK(d->size_unset <= GDR_MAX_MSG_SIZE, "%s", d->name);
	}
	CHECK(seen == (GDR_T_BW | GDR_T_LAT), "the rows cover every test: %#x", seen);
	CHECK(!gdr_verb_def((enum gdr_verb)GDR_NVERBS) &&
	      !gdr_verb_ops_of((enum gdr_verb)GDR_NVERBS));
}

/* A per-test option default lives in the verbs' rows only, and each is a valid value. */
static void defaults_once(void)
{
	const struct gdr_optdef *od = &gdr_test_optdef;
	int slots = 0;

	for (size_t i = 0; i < od->nrows; i++) {
		const struct gdr_opt *e = &od->rows[i];

		if (!e->per_test)
			continue;
		slots++;
		CHECK(!e->def, "--%s: its default is in the verbs' rows, not here too", e->name);
		CHECK(e->per_test > GDR_TD_NONE && e->per_test < GDR_TD_N, "--%s", e->name);
		for (int v = 0; v < GDR_NVERBS; v++)
			for (int k = 0; k < GDR_NKINDS; k++) {
				const char *s = gdr_verb_defs[v].defaults[k][e->per_test];
				struct gdr_test t = {"t", (enum gdr_verb)v, (enum gdr_kind)k};
				char *end;
				double x = s ? strtod(s, &end) : -1;

				CHECK(s && !*end && x >= e->min && x <= e->max, "--%s of %s %d: %s",
				      e->name, gdr_verb_defs[v].name, k, s ? s : "(none)");
				CHECK(gdr_test_default_of(e, &t) == s,
				      "--%s: the hook reads the row", e->name);
			}
	}
	CHECK(slots == GDR_TD_N - 1, "every slot is some option's: %d", slots);
}

/*
 * The staged loop's units of a row: those before a run's last are what the
 * direct path posts (bw), the last may add the run's immediate; a row the
 * staged loop cannot post refuses --staged.
 */
static void staged_agrees(const struct gdr_verb_def *d, uint8_t direct)
{
	uint8_t mid = GDR_XOP_WRITE, end = GDR_XOP_WRITE;
	struct gdr_opts o = {.verb = d->verb, .kind = GDR_KIND_BW, .staged = true};

	if (gdr_stage_unit_op(d->op, false, false, &mid) ||
	    gdr_stage_unit_op(d->op, true, false, &end)) {
		CHECK(d->no_staged && gdr_verb_refusal(&o) == d->no_staged,
		      "%s: the staged loop cannot post it, the row refuses --staged", d->name);
		return;
	}
	CHECK(!d->no_staged, "%s: staged posts it", d->name);
	CHECK(mid == direct, "%s staged: unit kind %d, direct %d", d->name, mid, direct);
	CHECK(wire_op(end) == d->op || (d->op == GDR_OP_WRITE && end == GDR_XOP_WRITE_DATA),
	      "%s staged: the run's last unit %d", d->name, end);
	CHECK(consumes_recv(end) == (d->target_recvs || d->op == GDR_OP_WRITE) || d->fetches,
	      "%s staged: the run's end reaches the target", d->name);
}

/*
 * What each row's posting functions post agrees with its data (access,
 * fetches, sends, receives consumed), and the staged loop posts the same
 * opcode for a run's units, or the row refuses --staged.
 */
static void posts_agree(void)
{
	for (int v = 0; v < GDR_NVERBS; v++) {
		const struct gdr_verb_ops *vo = &gdr_verb_ops[v];
		struct gdr_opts o = {.verb = (enum gdr_verb)v, .kind = GDR_KIND_BW};
		struct gdr_path p = {.name = "direct", .remote = {.len = 1 << 20}};
		struct gdr_conn c = {.o = &o, .region_len = 1 << 19};
		struct gdr_bw_state s = {
		    .c = &c, .p = &p, .verb = o.verb, .size = 8, .rrx_off = 1 << 19};
		struct gdr_lat l = {.c = &c, .p = &p, .size = 8};
		struct gdr_xop op = {.len = 8};
		/* the peer region the data row's access names: its rx half (write), tx (fetch) */
		uint64_t half = vo->def->fetches ? 0 : 1 << 19;

		vo->bw_op(&s, 0, 0, 0, &op);
		CHECK(kind_access(op.kind) == vo->def->peer_access, "%s bw: kind %d", vo->def->name,
		      op.kind);
		CHECK(wire_op(op.kind) == vo->def->op, "%s bw: the row's wire op", vo->def->name);
		CHECK(consumes_recv(op.kind) == vo->def->target_recvs, "%s bw", vo->def->name);
		CHECK(is_send(op.kind) || op.roff == half, "%s bw: remote offset %llu",
		      vo->def->name, (unsigned long long)op.roff);
		staged_agrees(vo->def, op.kind);
		gdr_lat_build_op(&l);
		CHECK(kind_access(l.op.kind) == vo->def->peer_access, "%s lat: kind %d",
		      vo->def->name, l.op.kind);
		CHECK(is_send(l.op.kind) == (vo->def->op == GDR_OP_SEND), "%s lat", vo->def->name);
		CHECK(vo->def->op != GDR_OP_WRITE_IMM || l.op.kind == GDR_XOP_WRITE_DATA,
		      "%s lat: every write carries its data", vo->def->name);
		CHECK(is_send(l.op.kind) || l.op.roff == half, "%s lat: remote offset %llu",
		      vo->def->name, (unsigned long long)l.op.roff);
		CHECK(l.op.loff == (vo->def->fetches ? c.region_len : 0) &&
			  l.op.inline_ok == !vo->def->fetches && l.op.len == 8,
		      "%s lat: local offset %llu", vo->def->name, (unsigned long long)l.op.loff);
	}
}

struct want {
	bool requester, target, data_in, posts_recvs;
};

static void role_is(enum gdr_verb v, enum gdr_kind k, bool bidir, bool server, struct want w)
{
	struct gdr_opts o = {.verb = v, .kind = k, .bidir = bidir};
	struct gdr_role r;
	const char *name = gdr_verb_defs[v].name;

	gdr_role_fill(&r, &o, server);
	CHECK(r.def == &gdr_verb_defs[v], "%s", name);
	CHECK(r.requester == w.requester && r.target == w.target && r.data_in == w.data_in &&
		  r.posts_recvs == w.posts_recvs,
	      "%s_%s%s %s: requester %d target %d data_in %d posts_recvs %d", name,
	      gdr_kind_name(k), bidir ? " -b" : "", server ? "server" : "client", r.requester,
	      r.target, r.data_in, r.posts_recvs);
	CHECK(r.access == gdr_role_access(gdr_verb_defs[v].peer_access), "%s", name);
	CHECK(r.access & GDR_XA_LOCAL_WRITE, "%s: receives and fetches land locally", name);
	CHECK(r.needs_atomic_cap == (v == GDR_VERB_ATOMIC), "%s", name);
}

/* Each side of each test, by hand. */
static void roles(void)
{
	const enum gdr_kind B = GDR_KIND_BW, L = GDR_KIND_LAT;
	const struct want client = {true, false, false, false}, server = {false, true, true, false};
	const struct want fetch_client = {true, false, true, false}, fetch_server = {0, 1, 0, 0};
	struct gdr_opts bad = {.verb = (enum gdr_verb)GDR_NVERBS};
	struct gdr_role r;

	role_is(GDR_VERB_WRITE, B, false, false, client);
	role_is(GDR_VERB_WRITE, B, false, true, server);
	role_is(GDR_VERB_WRITE, B, true, false, (struct want){1, 1, 1, 0});
	role_is(GDR_VERB_READ, B, false, false, fetch_client);
	role_is(GDR_VERB_READ, B, false, true, fetch_server);
	role_is(GDR_VERB_READ, B, true, true, (struct want){1, 1, 1, 0});
	role_is(GDR_VERB_ATOMIC, B, false, false, fetch_client);
	role_is(GDR_VERB_ATOMIC, B, false, true, fetch_server);
	role_is(GDR_VERB_SEND, B, false, false, client);
	role_is(GDR_VERB_SEND, B, false, true, (struct want){0, 1, 1, 1});
	role_is(GDR_VERB_SEND, B, true, false, (struct want){1, 1, 1, 1});
	role_is(GDR_VERB_WRITE_IMM, B, false, false, client);
	role_is(GDR_VERB_WRITE_IMM, B, false, true, (struct want){0, 1, 1, 1});
	/* latency: a ping-pong delivers to both sides; a round trip to the client */
	role_is(GDR_VERB_WRITE, L, false, false, (struct want){1, 0, 1, 0});
	role_is(GDR_VERB_WRITE, L, false, true, server);
	role_is(GDR_VERB_SEND, L, false, false, (struct want){1, 0, 1, 1});
	role_is(GDR_VERB_SEND, L, false, true, (struct want){0, 1, 1, 1});
	role_is(GDR_VERB_WRITE_IMM, L, false, false, (struct want){1, 0, 1, 1});
	role_is(GDR_VERB_READ, L, false, false, fetch_client);
	role_is(GDR_VERB_READ, L, false, true, fetch_server);
	role_is(GDR_VERB_ATOMIC, L, false, true, fetch_server);
	/* access by hand: what the peer may do, nothing more */
	CHECK(gdr_role_access(GDR_ACC_WRITE) == (GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_WRITE));
	CHECK(gdr_role_access(GDR_ACC_READ) == (GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_READ));
	CHECK(gdr_role_access(GDR_ACC_ATOMIC) ==
	      (GDR_XA_LOCAL_WRITE | GDR_XA_REMOTE_ATOMIC));
	CHECK(gdr_role_access(0) == GDR_XA_LOCAL_WRITE, "send: no remote access");
	gdr_role_fill(&r, &bad, true);
	CHECK(!r.def && !r.access, "no verb: no role");
}

int main(void)
{
	rows_complete();
	defaults_once();
	posts_agree();
	roles();
	return CHECK_DONE();
}
