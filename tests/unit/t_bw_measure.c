/* SPDX-License-Identifier: MIT */
/*
 * A bandwidth size's measurement from the loop's state (engine/bw_size.c, gdr_bw_measure):
 * a side that timed no message (its last completion's time unset, 0) measured 0 s and no
 * rate, not the unsigned difference 0 - start (18446743931.8 s after 141.9 s of uptime, the
 * gpu-proxy rows of every --matrix file, issue 44); a side that did: its messages over its
 * interval, from the first post (requester) or the go (target).
 */
#include "config.h"
#include <string.h>
#include "bw.h"
#include "check.h"
#include "xchg.h"

static struct gdr_bw_state s;

static void unset_end(void)
{
	struct gdr_result_wire w;

	memset(&s, 0, sizeof(s));
	s.size = 65536;
	s.tx_active = true;
	s.t_start = 141900000000ull; /* 141.9 s of uptime */
	s.t_go = s.t_start - 1000;
	gdr_bw_measure(&s, &w);
	CHECK(w.iters == 0 && w.duration_s == 0, "requester: %llu in %.1f s",
	      (unsigned long long)w.iters, w.duration_s);
	CHECK(w.bw_avg_Bps == 0 && w.msg_rate_pps == 0);
	s.tx_active = false;
	s.rx_active = true;
	gdr_bw_measure(&s, &w);
	CHECK(w.iters == 0 && w.duration_s == 0, "target: %.1f s", w.duration_s);
	/* the go unset, a completion timed: no interval either */
	s.t_go = 0;
	s.t_last_rx = 5000;
	s.rx_done = 3;
	gdr_bw_measure(&s, &w);
	CHECK(w.duration_s == 0 && w.bw_avg_Bps == 0, "target without a go: %.3g s", w.duration_s);
}

static void timed(void)
{
	struct gdr_result_wire w;

	memset(&s, 0, sizeof(s));
	s.size = 1000;
	s.tx_active = true;
	s.t_start = 2000000000ull;
	s.t_last_tx = 4000000000ull; /* 2 s */
	s.tx_done = 500;
	gdr_bw_measure(&s, &w);
	CHECK(w.iters == 500 && w.duration_s == 2, "%llu in %g s", (unsigned long long)w.iters,
	      w.duration_s);
	CHECK(w.bw_avg_Bps == 250000 && w.msg_rate_pps == 250, "%g B/s %g /s", w.bw_avg_Bps,
	      w.msg_rate_pps);
	s.tx_active = false; /* a target: from the go to its last completion */
	s.rx_active = true;
	s.t_go = 1000000000ull;
	s.t_last_rx = 5000000000ull;
	s.rx_done = 800;
	gdr_bw_measure(&s, &w);
	CHECK(w.iters == 800 && w.duration_s == 4 && w.bw_avg_Bps == 200000, "%g s %g B/s",
	      w.duration_s, w.bw_avg_Bps);
}

int main(void)
{
	unset_end();
	timed();
	return CHECK_DONE();
}
