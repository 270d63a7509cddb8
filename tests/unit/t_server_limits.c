/* SPDX-License-Identifier: MIT */
/*
 * The server's memory bound counts every path it will run: --compare with
 * a GPU client runs host, direct, staged and, its kernel permitting,
 * gpu-proxy (4 paths at -q 2, and the host path's own buffers), against sums
 * worked out by hand.
 */
#include "config.h"
#include "conn.h"
#include "server_limits.h"
#include "staging.h"

#include "check.h"

int main(void)
{
	struct gdr_opts o = {.num_qps = 2, .tx_depth = 100, .rx_depth = 28, .compare = true};
	struct gdr_conn c = {.o = &o, .region_len = 1 << 20};
	const uint64_t wr = 2 * 128 * 320, mib = 1 << 20; /* QPs x (tx + rx) x 320 B */

	CHECK(gdr_server_paths(&c) == 2, "host client, host server: direct and staged");
	CHECK(gdr_server_need(&c) == 2 * mib + 2 * mib + GDR_CTRL_LEN + 2 * wr);
	c.client_gpu = true;
	CHECK(gdr_server_paths(&c) == 4, "GPU client: host, direct, staged, gpu-proxy");
	CHECK(gdr_server_need(&c) == 2 * mib + 2 * mib + GDR_CTRL_LEN + 2 * mib + 4 * wr, "%llu",
	      (unsigned long long)gdr_server_need(&c));
	o.num_qps = 9; /* more QPs than gpu-proxy takes: host, direct, staged */
	CHECK(gdr_server_paths(&c) == 3);
	o.num_qps = 2;
	o.compare = false;
	CHECK(gdr_server_paths(&c) == 1 && gdr_server_need(&c) == 2 * mib + wr);
	return CHECK_DONE();
}
