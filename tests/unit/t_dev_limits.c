/* SPDX-License-Identifier: MIT */
/*
 * A request's queues and memory against fake device limits (issue 43.9):
 * Soft-RoCE's max_cqe of 32767 refuses -q 64 at the default -r 512 (a
 * receive CQ of 32784 entries) and takes -q 63; a ConnectX-like device takes
 * -q 64; each limit (max_cqe for either CQ, max_qp_wr, max_qp, max_sge,
 * max_mr_size) is named when it is the one passed; --sge=N on the client
 * against max_sge.
 */
#include "config.h"
#include <string.h>
#include <infiniband/verbs.h>
#include "dev_limits.h"

#include "check.h"

int main(void)
{
	/* rxe (ibv_devinfo -v in the VM, Debian 6.1) and a ConnectX-like device */
	struct ibv_device_attr rxe = {.max_qp = 1048560,
				      .max_qp_wr = 1048576,
				      .max_sge = 32,
				      .max_cqe = 32767,
				      .max_mr_size = UINT64_MAX};
	struct ibv_device_attr cx = {.max_qp = 1 << 18,
				     .max_qp_wr = 32768,
				     .max_sge = 30,
				     .max_cqe = (1 << 22) - 1,
				     .max_mr_size = UINT64_MAX};
	struct ibv_device_attr d;
	struct gdr_opts o = {.tx_depth = 128, .rx_depth = 512, .num_qps = 64};
	char why[300] = "";

	CHECK(gdr_recv_cqe(512, 64) == 32784 && gdr_send_cqe(128, 64) == 20480);
	CHECK(gdr_send_wr(1) == 33 && gdr_send_wr(128) == 145);
	CHECK(gdr_dev_limits_check(&rxe, &o, 64, 1, 0, 0, why, sizeof(why)) == -1);
	CHECK(!strcmp(why, "-q 64 with -r 512 needs a receive completion queue of 32784 entries; "
			   "the device allows 32767 (max_cqe): ask for fewer QPs (-q) or a "
			   "smaller -r"),
	      "%s", why);
	CHECK(gdr_dev_limits_check(&rxe, &o, 63, 1, 0, 0, why, sizeof(why)) == 0, "%s", why);
	CHECK(gdr_dev_limits_check(&cx, &o, 64, 3, 1 << 30, 0, why, sizeof(why)) == 0, "%s", why);

	/* the send CQ: -t 8192 on 2 QPs, (8192 + 32) x 2 x 2 = 32896 entries */
	o.tx_depth = 8192;
	CHECK(gdr_dev_limits_check(&rxe, &o, 2, 1, 0, 0, why, sizeof(why)) == -1 &&
		  strstr(why, "send completion queue of 32896 entries") && strstr(why, "-t"),
	      "%s", why);
	/* work requests per QP: -t 32768 needs 32785 send requests */
	o.tx_depth = 32768;
	CHECK(gdr_dev_limits_check(&cx, &o, 1, 1, 0, 0, why, sizeof(why)) == -1 &&
		  strstr(why, "32785 send and 512 receive") && strstr(why, "(max_qp_wr)"),
	      "%s", why);
	o.tx_depth = 128;
	o.rx_depth = 32769;
	CHECK(gdr_dev_limits_check(&cx, &o, 1, 1, 0, 0, why, sizeof(why)) == -1 &&
		  strstr(why, "(max_qp_wr)"),
	      "%s", why);
	o.rx_depth = 512;
	/* QPs: -q on each path */
	d = cx;
	d.max_qp = 100;
	CHECK(gdr_dev_limits_check(&d, &o, 64, 1, 0, 0, why, sizeof(why)) == 0, "%s", why);
	CHECK(gdr_dev_limits_check(&d, &o, 64, 2, 0, 0, why, sizeof(why)) == -1 &&
		  strstr(why, "-q 64 on 2 paths needs 128 QPs; the device allows 100 (max_qp)"),
	      "%s", why);
	d = cx;
	d.max_sge = 0;
	CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 0, why, sizeof(why)) == -1 &&
		  strstr(why, "(max_sge)"),
	      "%s", why);
	d = cx;
	d.max_mr_size = 1ULL << 32;
	CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 1ULL << 32, 0, why, sizeof(why)) == 0, "%s", why);
	CHECK(gdr_dev_limits_check(&d, &o, 1, 1, (1ULL << 32) + 4096, 0, why, sizeof(why)) == -1 &&
		  strstr(why, "(max_mr_size)"),
	      "%s", why);
	CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 0, why, sizeof(why)) == 0,
	      "mr_len 0: unchecked");
	/* --regions on the server: M regions beside one a path, within max_mr */
	d = cx;
	d.max_mr = 1024;
	CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 1023, why, sizeof(why)) == 0, "%s", why);
	CHECK(gdr_dev_limits_check(&d, &o, 1, 2, 0, 1023, why, sizeof(why)) == -1 &&
		  strstr(why, "--regions=1023 registers 1025 memory regions with the test's own; "
			      "the device allows 1024 (max_mr)"),
	      "%s", why);
	CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 0, why, sizeof(why)) == 0, "no regions");
	d.max_mr = 0; /* not said: not checked */
	CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 1024, why, sizeof(why)) == 0, "%s", why);
	/* --sge on the client (the requester): N entries a send work request, within max_sge
	 * (the ConnectX-like 30 refuses 32, Soft-RoCE's 32 takes it); the server posts one */
	{
		char host[] = "peer";

		d = cx;
		o.kv_sge = 32;
		CHECK(gdr_send_sge(&o) == 1, "the server: %u entries", gdr_send_sge(&o));
		CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 0, why, sizeof(why)) == 0, "%s", why);
		o.server = host;
		CHECK(gdr_send_sge(&o) == 32, "the client: %u entries", gdr_send_sge(&o));
		CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 0, why, sizeof(why)) == -1 &&
			  strstr(why, "--sge=32: a work request of 32 scatter/gather entries; the "
				      "device allows 30 (max_sge)"),
		      "%s", why);
		d = rxe;
		CHECK(gdr_dev_limits_check(&d, &o, 1, 1, 0, 0, why, sizeof(why)) == 0, "%s", why);
		o.kv_sge = 0;
		CHECK(gdr_send_sge(&o) == 1, "no --sge: %u entries", gdr_send_sge(&o));
		o.server = NULL;
	}
	return CHECK_DONE();
}
