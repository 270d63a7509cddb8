/* SPDX-License-Identifier: MIT */
/*
 * The negotiated test (transport/test_req.h): a client's options become a
 * request, travel as a HELLO, and a server's run applies it to a copy of
 * its own options; what is the server's alone stays the server's.
 */
#include "config.h"
#include <string.h>
#include "check.h"
#include "test_req.h"

static const struct gdr_test T_WBW = {"write_bw", GDR_VERB_WRITE, GDR_KIND_BW};

static int parse(struct gdr_opts *o, char *line)
{
	char *argv[32], *save = NULL;
	int argc = 0;

	for (char *t = strtok_r(line, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	return gdr_opts_parse(o, &T_WBW, argc, argv);
}

int main(void)
{
	char cl[] = "gdr_write_bw --write_with_imm -b -q 4 -t 64 -r 32 -n 77 --warmup 3 "
		    "--sizes=4K:16K:2 -m 1024 --validate --staged --stage_chunk 8192 "
		    "--run-token=n7.r0 --transport=loop host";
	char sv[] = "gdr_write_bw --persistent --listen_timeout 9 -m 2048 --max_mem 1G";
	struct gdr_opts c, s, run;
	struct gdr_test_req req, back;
	struct gdr_hello h;

	if (parse(&c, cl) || parse(&s, sv)) {
		CHECK(0, "options parse");
		return CHECK_DONE();
	}
	CHECK(gdr_test_req_of(&req, &c) == 0);
	req.client_gpu = true;
	CHECK(req.verb == GDR_VERB_WRITE_IMM && req.nsizes == 3 && req.sizes[2] == 16384,
	      "verb %d, %zu sizes", req.verb, req.nsizes);
	gdr_test_req_to_hello(&req, &h);
	gdr_test_req_from_hello(&back, &h);
	CHECK(back.verb == req.verb && back.kind == req.kind && back.conn == req.conn &&
		  back.bidir && back.validate && back.staged && back.client_gpu &&
		  back.num_qps == req.num_qps && back.iters == req.iters &&
		  back.stage_chunk == req.stage_chunk && back.mtu == req.mtu &&
		  back.nsizes == req.nsizes && !strcmp(back.token, "n7.r0") &&
		  !strcmp(h.xport, "loop") && !strcmp(back.xport, "loop") &&
		  !memcmp(back.sizes, req.sizes, req.nsizes * sizeof(req.sizes[0])),
	      "a request survives its HELLO");

	{ /* no --transport: the HELLO names the default, verbs */
		struct gdr_test_req d;
		struct gdr_hello dh;

		CHECK(gdr_test_req_of(&d, &s) == 0);
		gdr_test_req_to_hello(&d, &dh);
		CHECK(!strcmp(dh.xport, "verbs"), "the default transport in the HELLO: '%s'",
		      dh.xport);
	}
	run = s;
	gdr_test_req_apply(&back, &run);
	CHECK(run.verb == GDR_VERB_WRITE_IMM && run.bidir && run.num_qps == 4 &&
		  run.tx_depth == 64 && run.rx_depth == 32 && run.iters == 77 && run.warmup == 3 &&
		  run.conn == GDR_CONN_RC && run.validate && run.staged && !run.compare &&
		  run.stage_chunk == 8192,
	      "the run's options carry the client's test");
	CHECK(run.mtu == 1024, "-m: the smaller of the two sides' (%u)", run.mtu);
	CHECK(run.persistent && run.listen_timeout == 9 && run.max_mem == (1ull << 30) &&
		  !run.server,
	      "the server's own options stay");
	CHECK(s.verb == GDR_VERB_WRITE && !s.bidir && s.num_qps == 1 && s.mtu == 2048,
	      "the server's options themselves are untouched");
	gdr_opts_free(&c);
	gdr_opts_free(&s);
	{ /* --run_token: what travels in the HELLO only, 31 characters at most */
		char bad[] = "gdr_write_bw --run_token=a/b host";
		char big[] = "gdr_write_bw --run_token=0123456789abcdef0123456789abcdef host";

		CHECK(parse(&c, bad) != 0, "--run_token with a '/' refused");
		CHECK(parse(&c, big) != 0, "--run_token of 32 characters refused");
	}
	{ /* a KV run: the cells' blocks as the sizes, the batches, pool and placement in the
	   * HELLO; the server's run learns the whole shape (and -t raised to the largest batch) */
		char kv[] = "gdr_read_bw --block=16K,64K --batch=4,32 --pool=8M "
			    "--place=random:5 -n 9 host";
		struct gdr_opts k, ks, kr;
		struct gdr_test_req kq, kb;
		struct gdr_hello kh;

		if (parse(&k, kv) || parse(&ks, sv)) {
			CHECK(0, "KV options parse");
			return CHECK_DONE();
		}
		CHECK(k.tx_depth == 128 && k.kv_pool == (8u << 20), "-t %u pool %llu", k.tx_depth,
		      (unsigned long long)k.kv_pool);
		CHECK(gdr_test_req_of(&kq, &k) == 0);
		CHECK(kq.nsizes == 4 && kq.sizes[0] == 16384 && kq.sizes[1] == 16384 &&
			  kq.sizes[2] == 65536 && kq.sizes[3] == 65536,
		      "the cells' blocks, block-major: %zu sizes", kq.nsizes);
		gdr_test_req_to_hello(&kq, &kh);
		gdr_test_req_from_hello(&kb, &kh);
		kr = ks;
		gdr_test_req_apply(&kb, &kr);
		CHECK(kr.kv_nblocks == 2 && kr.kv_blocks[0] == 16384 && kr.kv_blocks[1] == 65536 &&
			  kr.kv_nbatch == 2 && kr.kv_batch[0] == 4 && kr.kv_batch[1] == 32 &&
			  kr.kv_pool == (8u << 20) && kr.kv_place.kind == GDR_KV_RANDOM &&
			  kr.kv_place.seed == 5 && gdr_opts_kv_batch(&kr, 3) == 32 &&
			  gdr_opts_kv_batch(&kr, 2) == 4,
		      "the server's run has the KV shape");
		CHECK(ks.kv_nblocks == 0 && ks.kv_nbatch == 0, "the server's own options untouched");
		gdr_opts_free(&k);
		gdr_opts_free(&ks);
		/* -t unset: raised to the largest batch; no --place: seq, and the HELLO encodes */
		char big[] = "gdr_write_bw --block=4K --batch=1000 host";
		if (!parse(&k, big)) {
			struct gdr_msg hm = {.type = GDR_MSG_HELLO};
			uint8_t wire[4096];

			CHECK(k.tx_depth == 1000 && k.kv_pool == 2 * 4096 * 1000, "-t %u pool %llu",
			      k.tx_depth, (unsigned long long)k.kv_pool);
			CHECK(k.kv_place.kind == GDR_KV_SEQ && k.kv_place.stride == 1,
			      "the default placement");
			CHECK(gdr_test_req_of(&kq, &k) == 0);
			gdr_test_req_to_hello(&kq, &hm.u.hello);
			hm.u.hello.repeat = 1;
			CHECK(gdr_msg_encode(&hm, wire, sizeof(wire)) > 0,
			      "a KV HELLO with the default placement encodes");
			gdr_opts_free(&k);
		} else {
			CHECK(0, "--batch=1000 parses");
		}
	}
	return CHECK_DONE();
}
