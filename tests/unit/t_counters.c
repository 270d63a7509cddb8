/* SPDX-License-Identifier: MIT */
/*
 * -W on a sysfs fixture of an mlx5 port on a long-lived node (issue 32.6):
 * 16/8/4-bit IB error counters that sit at their maximum are flagged (a bad
 * cable at 65535 is not "none moved"), a 32-bit hw counter that wraps during a
 * size counts across the wrap, the data counters are bytes (4-byte units in
 * sysfs), and perftest's -W LIST picks the counters shown. The widths come
 * from the counter set the kernel shows (issue 43.3): a port whose PMA has
 * extended width (mlx5, bnxt_re) shows counters/unicast_xmit_packets, and its
 * data and packet counters are 64-bit there, so a busy port is not saturated;
 * a 32-bit one is saturated at all ones only. A 32-bit hw counter is flagged
 * when the row could have counted 2^32 or more between the reads (review
 * 2026-11-28 #10: more than one wrap hides).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "counters.h"

#include "check.h"
#include "put.h"

static const struct gdr_cnt_delta *find(const struct gdr_cnt_delta *d, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return &d[i];
	return NULL;
}

/* A busy mlx5 port (pma_group_ext) and a 32-bit one (pma_group), each read twice. */
static void widths(const char *tmp)
{
	char c[300], cmd[400], line[4096];
	struct gdr_cnt_snap *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct gdr_cnt_delta dl[GDR_CNT_MAX];
	const struct gdr_cnt_delta *x;
	int n;

	CHECK(a != NULL);
	snprintf(c, sizeof(c), "%s/class/infiniband/mlx5_4/ports/1/counters", tmp);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", c);
	CHECK(system(cmd) == 0);
	put(c, "port_xmit_data", "912345678901\n"); /* 3.6 TB moved since the last reset */
	put(c, "port_rcv_data", "4294967295\n");    /* 2^32-1: a 64-bit counter goes on */
	put(c, "port_xmit_packets", "98765432109\n");
	put(c, "port_rcv_packets", "98765432100\n");
	put(c, "unicast_xmit_packets", "98765432109\n"); /* only in the extended set */
	put(c, "unicast_rcv_packets", "98765432100\n");
	put(c, "port_xmit_wait", "4294967295\n"); /* 32-bit in both sets: saturated */
	put(c, "symbol_error", "0\n");
	CHECK(gdr_counters_read(a, "mlx5_4", 1) == 0 && a->n == 8, "%d", a->n);
	put(c, "port_xmit_data", "912345688901\n"); /* +10000 words */
	put(c, "port_rcv_data", "4294968295\n");    /* +1000 words */
	put(c, "port_xmit_packets", "98765433109\n");
	put(c, "unicast_xmit_packets", "98765433109\n");
	CHECK(gdr_counters_read(b, "mlx5_4", 1) == 0);
	n = gdr_counters_delta(a, b, dl, GDR_CNT_MAX);
	gdr_counters_format(dl, n, line, sizeof(line));
	CHECK(!strstr(line, "SATURATED at 17179869180") && !strstr(line, "_bytes +0 SATURATED"),
	      "a busy 64-bit port: %s", line);
	x = find(dl, n, "port_xmit_data_bytes");
	CHECK(x && x->d == 40000 && !x->sat, "port_xmit_data 64-bit: %s", line);
	x = find(dl, n, "port_rcv_data_bytes");
	CHECK(x && x->d == 4000 && !x->sat, "port_rcv_data at 2^32-1 words is not its end: %s",
	      line);
	x = find(dl, n, "port_xmit_packets");
	CHECK(x && x->d == 1000 && !x->sat, "port_xmit_packets 64-bit: %s", line);
	CHECK(!find(dl, n, "port_rcv_packets"), "idle and 64-bit: not shown: %s", line);
	x = find(dl, n, "port_xmit_wait");
	CHECK(x && x->sat && x->max == 4294967295ULL, "port_xmit_wait stays 32-bit: %s", line);
	CHECK(n == 5, "%d: %s", n, line);

	/* pma_group (no unicast_*): the four are 32-bit; saturated at all ones, not above */
	snprintf(c, sizeof(c), "%s/class/infiniband/qib0/ports/1/counters", tmp);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", c);
	CHECK(system(cmd) == 0);
	put(c, "port_xmit_data", "4294967295\n");  /* all ones: stopped */
	put(c, "port_rcv_data", "912345678901\n"); /* above 32 bits: a wider counter, moving */
	put(c, "port_xmit_packets", "4294967294\n");
	CHECK(gdr_counters_read(a, "qib0", 1) == 0 && a->n == 3, "%d", a->n);
	put(c, "port_rcv_data", "912345679901\n");
	CHECK(gdr_counters_read(b, "qib0", 1) == 0);
	n = gdr_counters_delta(a, b, dl, GDR_CNT_MAX);
	gdr_counters_format(dl, n, line, sizeof(line));
	x = find(dl, n, "port_xmit_data_bytes");
	CHECK(x && x->sat && x->d == 0 && x->max == 17179869180ULL, "32-bit at all ones: %s",
	      line);
	x = find(dl, n, "port_rcv_data_bytes");
	CHECK(x && !x->sat && x->d == 4000, "a value above 2^32-1 is not saturated: %s", line);
	CHECK(!find(dl, n, "port_xmit_packets"), "one below all ones, idle: %s", line);
	free(a);
}

/*
 * A 32-bit hw counter whose row could have counted 2^32 events between the
 * reads: its delta may miss whole wraps; flagged, and said in the text.
 */
static void wraps(void)
{
	struct gdr_cnt_delta d[3] = {
	    {.name = "rx_write_requests", .d = 200, .hw32 = true},
	    {.name = "out_of_sequence", .d = 11, .hw32 = true, .wrapped = true},
	    {.name = "port_xmit_data_bytes", .d = 4000},
	};
	char line[1024];

	CHECK(gdr_counters_wrap_risk(d, 3, 4294967295.0) == 0, "below 2^32: one wrap at most");
	CHECK(!d[0].multi_wrap && !d[1].multi_wrap);
	gdr_counters_format(d, 3, line, sizeof(line));
	CHECK(!strcmp(line, "rx_write_requests +200, out_of_sequence +11 (32-bit wrap), "
			    "port_xmit_data_bytes +4000"),
	      "%s", line);
	/* 10 M/s for 600 s: 6e9 events, more than one wrap possible */
	CHECK(gdr_counters_wrap_risk(d, 3, 10e6 * 600) == 2);
	CHECK(d[0].multi_wrap && d[1].multi_wrap && !d[2].multi_wrap, "64-bit port counter");
	gdr_counters_format(d, 3, line, sizeof(line));
	CHECK(strstr(line, "rx_write_requests +200 (32-bit: may have wrapped more than once, "
			   "undercounted by a multiple of 2^32)"),
	      "%s", line);
	CHECK(strstr(line, "out_of_sequence +11 (32-bit wrap; may have wrapped more than once"),
	      "%s", line);
}

int main(void)
{
	char tmp[] = "/tmp/t_counters.XXXXXX", c[300], hw[300], cmd[800], line[4096];
	struct gdr_cnt_snap *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct gdr_cnt_delta dl[GDR_CNT_MAX];
	const struct gdr_cnt_delta *x;
	int n;

	CHECK(a && mkdtemp(tmp) != NULL);
	snprintf(c, sizeof(c), "%s/class/infiniband/mlx5_0/ports/1/counters", tmp);
	snprintf(hw, sizeof(hw), "%s/class/infiniband/mlx5_0/ports/1/hw_counters", tmp);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s'", c, hw);
	CHECK(system(cmd) == 0);
	setenv("GDR_SYSFS_ROOT", tmp, 1);
	put(c, "symbol_error", "65535\n");		 /* 16-bit, saturated, stays */
	put(c, "link_downed", "255\n");			 /* 8-bit, saturated */
	put(c, "local_link_integrity_errors", "15\n"); /* 4-bit, saturated */
	put(c, "port_rcv_errors", "65534\n");		 /* 16-bit, reaches 65535 */
	put(c, "port_xmit_discards", "12\n");		 /* not near its limit, does not move */
	put(c, "port_xmit_data", "1000\n");		 /* 4-byte words */
	put(c, "port_rcv_data", "250\n");
	put(hw, "out_of_sequence", "4294967290\n"); /* mlx5 Q counter, 32-bit */
	put(hw, "rx_write_requests", "100\n");
	CHECK(gdr_counters_read(a, "mlx5_0", 1) == 0 && a->n == 9, "%d", a->n);

	put(c, "port_rcv_errors", "65535\n");
	put(c, "port_xmit_data", "1500\n");
	put(c, "port_rcv_data", "250\n");
	put(hw, "out_of_sequence", "5\n"); /* wrapped: +11 */
	put(hw, "rx_write_requests", "300\n");
	CHECK(gdr_counters_read(b, "mlx5_0", 1) == 0);
	n = gdr_counters_delta(a, b, dl, GDR_CNT_MAX);
	gdr_counters_format(dl, n, line, sizeof(line));
	/* the saturated ones are shown although they did not move */
	x = find(dl, n, "symbol_error");
	CHECK(x && x->sat && x->d == 0 && x->max == 65535, "symbol_error: %s", line);
	x = find(dl, n, "link_downed");
	CHECK(x && x->sat && x->max == 255, "link_downed: %s", line);
	x = find(dl, n, "local_link_integrity_errors");
	CHECK(x && x->sat && x->max == 15, "4-bit: %s", line);
	x = find(dl, n, "port_rcv_errors");
	CHECK(x && x->sat && x->d == 1, "port_rcv_errors reached its limit: %s", line);
	CHECK(!find(dl, n, "port_xmit_discards"), "an idle counter below its limit: %s", line);
	/* data in bytes: 500 words */
	x = find(dl, n, "port_xmit_data_bytes");
	CHECK(x && x->d == 2000 && !x->sat, "port_xmit_data in bytes: %s", line);
	CHECK(!find(dl, n, "port_xmit_data") && !find(dl, n, "port_rcv_data_bytes"), "%s", line);
	/* a 32-bit wrap is counted across it, not as a reset of -4.29e9 */
	x = find(dl, n, "out_of_sequence");
	CHECK(x && x->d == 11 && x->wrapped, "wrap: %s", line);
	CHECK(strstr(line, "out_of_sequence +11 (32-bit wrap)"), "%s", line);
	CHECK(strstr(line, "symbol_error +0 SATURATED at 65535 (counts no more: reset it, e.g. "
			   "perfquery -R)"),
	      "%s", line);
	CHECK(strstr(line, "rx_write_requests +200"), "%s", line);
	CHECK(n == 7, "%d: %s", n, line);

	/* a counter that went back without being near 2^32 was reset: negative */
	put(c, "port_xmit_discards", "3\n");
	CHECK(gdr_counters_read(b, "mlx5_0", 1) == 0);
	n = gdr_counters_delta(a, b, dl, GDR_CNT_MAX);
	x = find(dl, n, "port_xmit_discards");
	CHECK(x && x->d == -9 && !x->wrapped, "reset");

	/* -W LIST (perftest's form): those counters only, moved or not */
	n = gdr_counters_delta_list(a, b, "counters/port_xmit_data,hw_counters/out_of_sequence,"
				    "counters/port_rcv_data,port_xmit_discards", dl, GDR_CNT_MAX);
	gdr_counters_format(dl, n, line, sizeof(line));
	CHECK(!strcmp(line, "out_of_sequence +11 (32-bit wrap), port_rcv_data_bytes +0, "
			    "port_xmit_data_bytes +2000, port_xmit_discards -9"),
	      "%d: %s", n, line);
	CHECK(find(dl, n, "port_rcv_data_bytes") && find(dl, n, "port_xmit_data_bytes") &&
		  find(dl, n, "out_of_sequence") && find(dl, n, "port_xmit_discards") &&
		  !find(dl, n, "symbol_error"),
	      "list: %s", line);
	/* the folder must match: out_of_sequence is not in counters/ */
	n = gdr_counters_delta_list(a, b, "counters/out_of_sequence", dl, GDR_CNT_MAX);
	CHECK(n == 0, "%d", n);
	CHECK(gdr_counters_missing(b, "counters/symbol_error,hw_counters/nope,counters/rx_write_requests",
				   line, sizeof(line)) == 2 &&
		      !strcmp(line, "hw_counters/nope, counters/rx_write_requests"),
	      "missing: %s", line);
	/* a delta of two reads marks the hw counters that may be 32-bit (both reads fit) */
	n = gdr_counters_delta(a, b, dl, GDR_CNT_MAX);
	x = find(dl, n, "rx_write_requests");
	CHECK(x && x->hw32, "a hw counter within 32 bits");
	x = find(dl, n, "port_xmit_data_bytes");
	CHECK(x && !x->hw32, "counters/ are not hw counters");
	widths(tmp);
	wraps();
	free(a);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	CHECK(system(cmd) == 0);
	return CHECK_DONE();
}
