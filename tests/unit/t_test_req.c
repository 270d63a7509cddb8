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
	return CHECK_DONE();
}
