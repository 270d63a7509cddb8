/* SPDX-License-Identifier: MIT */
/*
 * -W on a sysfs fixture of an mlx5 port on a long-lived node (issue 32.6):
 * 16/8/4-bit IB error counters that sit at their maximum are flagged (a bad
 * cable at 65535 is not "none moved"), a 32-bit hw counter that wraps during a
 * size counts across the wrap, the data counters are bytes (4-byte units in
 * sysfs), and perftest's -W LIST picks the counters shown.
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
	free(a);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	CHECK(system(cmd) == 0);
	return CHECK_DONE();
}
