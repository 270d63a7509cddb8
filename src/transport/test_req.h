/* SPDX-License-Identifier: MIT */
/*
 * The negotiated test: what the client's HELLO asks of the server, apart
 * from either side's own options. The client builds it from its options;
 * the server decodes it from the HELLO and its run applies it to a copy of
 * its own options (the server's options are never rewritten by a client).
 */
#ifndef GDR_TEST_REQ_H
#define GDR_TEST_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "opts.h"
#include "xchg.h"

struct gdr_test_req {
	enum gdr_verb verb;
	enum gdr_kind kind;
	enum gdr_qp_type conn;
	enum gdr_atomic_op atomic_op;
	bool bidir, validate, staged, compare, use_imm, rdma_cm, report_gbits, run_infinitely;
	bool atomic_contention;
	bool inline_set; /* -I given: no default inline on either side */
	bool client_gpu; /* the client's test memory is GPU memory */
	uint32_t num_qps, tx_depth, rx_depth, cq_mod, inline_size, mtu;
	uint32_t repeat; /* --repeat with --compare, else 1 */
	uint64_t iters, warmup, stage_chunk;
	double duration;
	size_t nsizes;
	uint64_t sizes[GDR_MAX_SIZES];
	char host[64]; /* the client's host name (its HELLO's; the client sends its own) */
	char token[32]; /* --run_token ("" none): the server must have been given the same */
	char xport[GDR_XPORT_NAME_MAX]; /* --transport: the server's must be the same */
	struct gdr_hello_kv kv; /* a KV run's batches, pool, placement (nbatch 0: none) */
};

/* Client: the request of its options and sizes. 0, or -1 (printed: bad sizes). */
int gdr_test_req_of(struct gdr_test_req *r, const struct gdr_opts *o);
/* The HELLO of a request, and the request of a (decoded, checked) HELLO. */
void gdr_test_req_to_hello(const struct gdr_test_req *r, struct gdr_hello *h);
void gdr_test_req_from_hello(struct gdr_test_req *r, const struct gdr_hello *h);
/* Server: a run's options, its own (o) with the client's test written over them. */
void gdr_test_req_apply(const struct gdr_test_req *r, struct gdr_opts *o);

#endif
