/* SPDX-License-Identifier: MIT */
/*
 * Acceptance pieces without a network: the port's rate from active_speed x
 * active_width, the -w/-y/--expect-bw verdict in both units, counter deltas
 * read from a sysfs fixture folder (GDR_SYSFS_ROOT), and the Prometheus
 * reporter's file (argv[1]: where to leave it for t_prom.sh's parser).
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "accept.h"
#include "check.h"
#include "put.h"
#include "counters.h"
#include "report.h"
#include "verdict.h"

/*
 * The verdict's line reads the link's facts the transport filled (c->link):
 * its rate, MTU and per-packet overhead, nothing of the port's verbs attributes.
 */
static void from_link(void)
{
	struct gdr_opts o = {.kind = GDR_KIND_BW, .expect_pct = 90};
	struct gdr_conn c = {.o = &o,
			     .link = {.dev = "mlx5_9", .layer = "Ethernet", .rate_gbps = 400,
				      .mtu = 4096, .wire_overhead = 82, .wire = "RoCE: the parts"}};
	struct gdr_run_info ri = {0};
	struct gdr_accept a;

	CHECK(gdr_accept_init(&a, &c, &ri) == 0);
	/* 400 Gb/s x 4096 / 4178 = 392.15; 90% of it 352.93 */
	CHECK(strstr(ri.verdict, "--expect-bw=auto: 90% of 392.15 Gb/s = 352.93 Gb/s (port 400 "
				 "Gb/s; MTU 4096: 4096 B per 4178 B on the wire (RoCE: the parts) = "
				 "98.0%)") != NULL,
	      "%s", ri.verdict);
	gdr_accept_end(&a);
	c.link.rate_gbps = 0; /* a transport that knows no rate */
	ri.verdict[0] = 0;
	CHECK(gdr_accept_init(&a, &c, &ri) == 0);
	CHECK(strstr(ri.verdict, "--expect-bw=auto: the port reports no rate") != NULL, "%s",
	      ri.verdict);
	gdr_accept_end(&a);
}

static void verdicts(void)
{
	struct gdr_opts o = {.kind = GDR_KIND_BW};
	struct gdr_result r = {.bytes = 65536, .bw_avg_Bps = 50 * 1048576.0, .msg_rate_pps = 800};

	CHECK(!gdr_verdict_wanted(&o));
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_NONE);

	o.limit_bw = 49.9; /* MiB/s: passes */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_PASS, "%s", r.why);
	o.limit_bw = 50.1; /* fails, and says by how much and which flag */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL);
	CHECK(strstr(r.why, "50.00 MiB/s is below the limit 50.10 MiB/s (-w)"), "%s", r.why);

	o.report_gbits = true; /* the same number is now Gb/s: 50 MiB/s = 0.419 Gb/s */
	o.limit_bw = 0.41;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_PASS, "%s", r.why);
	o.limit_bw = 0.43;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL && strstr(r.why, "Gb/s"), "%s", r.why);
	o.limit_bw = 0;
	o.report_gbits = false;

	o.limit_msgrate = 0.0009; /* Mpps: 800 pps is below */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL && strstr(r.why, "(-y)"), "%s", r.why);
	o.limit_msgrate = 0.0007;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_PASS, "%s", r.why);
	o.limit_msgrate = 0;

	o.expect_pct = 90; /* of a 10 Gb/s port: 9 Gb/s */
	r.port_Bps = 10e9 / 8;
	r.bw_avg_Bps = 9.1e9 / 8;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_PASS, "%s", r.why);
	CHECK(r.limit_Bps > 1.124e9 && r.limit_Bps < 1.126e9, "%g", r.limit_Bps);
	r.bw_avg_Bps = 8.9e9 / 8;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL && strstr(r.why, "90% of the port's 10 Gb/s"), "%s",
	      r.why);
	o.cluster = true; /* cluster mode: the same floor, said in Gb/s as its rows are */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL &&
		  strstr(r.why, "8.90 Gb/s is below the limit 9.00 Gb/s"),
	      "%s", r.why);
	o.cluster = false;
	r.port_Bps = 0; /* no rate known: a failure that says why, not a silent pass */
	CHECK(gdr_verdict_judge(&o, &r) == -1 && r.verdict == GDR_VERDICT_FAIL);
	o.expect_pct = 0;

	/*
	 * auto takes PCT of what the wire carries as payload (issue 32.3): RoCE at
	 * MTU 1024 moves 1024 B per 1106 B (92.6%), so 90% is 8.33 of 10 Gb/s and
	 * 9.1 Gb/s can never be reached; 8.4 Gb/s passes
	 */
	o.expect_pct = 90;
	r.port_Bps = 10e9 / 8;
	r.payload_frac = 1024.0 / 1106;
	r.bw_avg_Bps = 8.4e9 / 8;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_PASS, "%s", r.why);
	CHECK(r.limit_Bps > 8.33e9 / 8 && r.limit_Bps < 8.34e9 / 8, "%g", r.limit_Bps * 8);
	r.bw_avg_Bps = 8.3e9 / 8;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL &&
		  strstr(r.why, "(90% of 9.26 Gb/s, the port's 10 Gb/s at 92.6% payload, "
				"--expect-bw=auto)"),
	      "%s", r.why);
	r.payload_frac = 0;

	/* --compare judges the path under test only (issue 32.2): a reference row has none */
	r.reference = true;
	r.bw_avg_Bps = 1;
	CHECK(gdr_verdict_judge(&o, &r) == 0 && r.verdict == GDR_VERDICT_NONE && !r.why[0],
	      "%d %s", r.verdict, r.why);
	r.reference = false;
	o.expect_pct = 0;

	o.expect_bw = 8; /* Gb/s */
	r.bw_avg_Bps = 7.9e9 / 8;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL && strstr(r.why, "--expect-bw"), "%s", r.why);
	o.cluster = true; /* cluster mode keeps its own SLOW for a Gb/s floor */
	CHECK(!gdr_verdict_wanted(&o));
	o.cluster = false;
	o.kind = GDR_KIND_LAT; /* limits are for bandwidth tests */
	CHECK(!gdr_verdict_wanted(&o));
}

/* The payload's share at an MTU and the transport's per-packet overhead (t_vx_link: its parts). */
static void wire(void)
{
	struct gdr_wire w = {.mtu = 1024, .overhead = 82, .parts = "RoCE: 82 of them"};
	char d[256];
	double f = gdr_wire_payload(&w, d, sizeof(d));

	/* RoCE v2 over IPv4: 82 B around each packet */
	CHECK(f > 0.9258 && f < 0.9260, "%f", f);
	CHECK(!strcmp(d, "MTU 1024: 1024 B per 1106 B on the wire (RoCE: 82 of them) = 92.6%"),
	      "%s", d);
	w.mtu = 4096; /* the README's auto:93 is 93% of 98.0% there */
	f = gdr_wire_payload(&w, NULL, 0);
	CHECK(f > 0.9803 && f < 0.9804, "%f", f);
	w.overhead = 102; /* RoCE over IPv6 */
	CHECK(gdr_wire_payload(&w, NULL, 0) == 4096.0 / 4198);
	w = (struct gdr_wire){.mtu = 4096, .overhead = 26}; /* InfiniBand, LID-routed */
	f = gdr_wire_payload(&w, d, sizeof(d));
	CHECK(f == 4096.0 / 4122 && strstr(d, "MTU 4096: 4096 B per 4122 B on the wire (headers)"),
	      "%s", d);
	w.overhead = 66; /* with a GRH */
	CHECK(gdr_wire_payload(&w, NULL, 0) == 4096.0 / 4162);
	w.mtu = 0; /* unknown: the port's rate as it is */
	CHECK(gdr_wire_payload(&w, d, sizeof(d)) == 1 && !d[0]);
}

static void counters(const char *tmp) /* tmp: a short mkdtemp path */
{
	char d[256], c[300], hw[300], pci[300], cmd[1000], line[2048];
	struct gdr_cnt_snap *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct gdr_cnt_delta dl[GDR_CNT_MAX];
	int n;

	snprintf(d, sizeof(d), "%s/class/infiniband/rxe9", tmp);
	snprintf(c, sizeof(c), "%s/ports/1/counters", d);
	snprintf(hw, sizeof(hw), "%s/ports/1/hw_counters", d);
	snprintf(pci, sizeof(pci), "%s/device", d);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s' '%s'", c, hw, pci);
	CHECK(system(cmd) == 0);
	setenv("GDR_SYSFS_ROOT", tmp, 1);
	put(c, "port_rcv_errors", "5\n");
	put(c, "port_xmit_data", "1000\n");
	put(hw, "rcvd_pkts", "10\n");
	put(hw, "out_of_seq_request", "0\n");
	put(hw, "port_rcv_errors", "7\n"); /* same name in both folders: keeps hw: */
	put(pci, "aer_dev_correctable", "RxErr 0\nBadTLP 1\nTOTAL_ERR_COR 1\n");
	put(d, "ports/1/rate", "10 Gb/sec (1X FDR10)\n");
	CHECK(gdr_counters_read(a, "rxe9", 1) == 0);
	CHECK(a->n == 8, "%d counters", a->n);
	CHECK(!a->unreadable[0], "%s", a->unreadable);

	put(c, "port_xmit_data", "1500\n");
	put(hw, "rcvd_pkts", "1210\n");
	put(hw, "out_of_seq_request", "3\n");
	put(pci, "aer_dev_correctable", "RxErr 2\nBadTLP 1\nTOTAL_ERR_COR 3\n");
	CHECK(gdr_counters_read(b, "rxe9", 1) == 0);
	n = gdr_counters_delta(a, b, dl, GDR_CNT_MAX);
	gdr_counters_format(dl, n, line, sizeof(line));
	CHECK(n == 5, "%d: %s", n, line);
	CHECK(!strcmp(line, "aer:RxErr +2, aer:TOTAL_ERR_COR +2, out_of_seq_request +3, "
			    "port_xmit_data_bytes +2000, rcvd_pkts +1200"),
	      "%s", line);

	/* the GPU's AER counters join with their own prefix (GPU memory) */
	snprintf(pci, sizeof(pci), "%s/bus/pci/devices/0000:1a:00.0", tmp);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", pci);
	CHECK(system(cmd) == 0);
	put(pci, "aer_dev_correctable", "RxErr 4\nTOTAL_ERR_COR 4\n");
	put(pci, "aer_dev_fatal", "TOTAL_ERR_FATAL 0\n");
	CHECK(gdr_counters_read(a, "rxe9", 1) == 0);
	gdr_counters_read_gpu(a, "0000:1a:00.0");
	put(pci, "aer_dev_correctable", "RxErr 6\nTOTAL_ERR_COR 6\n");
	CHECK(gdr_counters_read(b, "rxe9", 1) == 0);
	gdr_counters_read_gpu(b, "0000:1a:00.0");
	n = gdr_counters_delta(a, b, dl, GDR_CNT_MAX);
	gdr_counters_format(dl, n, line, sizeof(line));
	CHECK(!strcmp(line, "gpu_aer:RxErr +2, gpu_aer:TOTAL_ERR_COR +2"), "%s", line);
	gdr_counters_read_gpu(b, "0000:ff:00.0"); /* no such function: nothing added */
	CHECK(!b->unreadable[0], "%s", b->unreadable);

	/* an unreadable counter is named, the others are still read */
	snprintf(cmd, sizeof(cmd), "%s/rcvd_pkts", hw);
	CHECK(unlink(cmd) == 0 && mkdir(cmd, 0755) == 0);
	CHECK(gdr_counters_read(b, "rxe9", 1) == 0);
	CHECK(strstr(b->unreadable, "hw_counters/rcvd_pkts"), "%s", b->unreadable);
	CHECK(b->n == 7, "%d", b->n);
	/* no such device: nothing readable, and it says so */
	CHECK(gdr_counters_read(b, "mlx5_9", 1) == -1 && b->unreadable[0]);
	CHECK(gdr_port_rate_sysfs("rxe9", 1) == 10);
	CHECK(gdr_port_rate_sysfs("mlx5_9", 1) == 0);
	free(a);
}

/* The Prometheus reporter end to end: a bandwidth row with a verdict and counters. */
static void prom(const char *path)
{
	struct gdr_opts o = {.kind = GDR_KIND_BW};
	struct gdr_report_files files = {.prom = path};
	struct gdr_run_info ri = {.test = "write_bw",
				  .kind = GDR_KIND_BW,
				  .role = "client",
				  .local_host = "node\"1",
				  .rdma_dev = "rxe0",
				  .opts = &o};
	struct gdr_cnt_delta d[2] = {{.name = "rcvd_pkts", .d = 1200}, {.name = "aer:RxErr", .d = 2}};
	struct gdr_result r = {.path = "host",
			       .bytes = 65536,
			       .iters = 100,
			       .duration_s = 1,
			       .bw_avg_Bps = 5e7,
			       .msg_rate_pps = 763,
			       .ceiling_Bps = 1.25e9,
			       .limit_Bps = 1.125e9,
			       .verdict = GDR_VERDICT_FAIL,
			       .cnt = d,
			       .ncnt = 2};
	struct gdr_reports rs;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(gdr_reports_open(&rs, &files) == 0);
	CHECK(gdr_reports_begin(&rs, &ri) == 0);
	CHECK(gdr_reports_row(&rs, &ri, &r) == 0);
	r.bytes = 131072;
	r.verdict = GDR_VERDICT_PASS;
	r.ncnt = 0;
	CHECK(gdr_reports_row(&rs, &ri, &r) == 0);
	CHECK(gdr_reports_end(&rs, &ri) == 0);
	gdr_reports_close(&rs);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	text = calloc(1, 65536);
	len = fread(text, 1, 65535, f);
	fclose(f);
	CHECK(len > 0);
	CHECK(strstr(text, "# TYPE gdr_bandwidth_bytes_per_second gauge\n"));
	CHECK(strstr(text, "gdr_verdict{host=\"node\\\"1\",device=\"rxe0\",gpu=\"none\",test="
			   "\"write_bw\",size=\"65536\",path=\"host\"} 2\n"),
	      "%s", text);
	CHECK(strstr(text, "size=\"131072\",path=\"host\"} 0\n"), "%s", text);
	CHECK(strstr(text, "stat=\"rcvd_pkts\"} 1200\n"), "%s", text);
	CHECK(strstr(text, "gdr_ceiling_bytes_per_second{"), "%s", text);
	/* one HELP per family, however many rows */
	int helps = 0;

	for (const char *p = text; (p = strstr(p, "# HELP gdr_verdict ")); p++)
		helps++;
	CHECK(helps == 1, "%d", helps);
	free(text);
}

/* The bound behind -W's "may have wrapped more than once" (a 32-bit hw counter). */
static void row_events(void)
{
	/* 64 KiB writes at 4096-byte MTU: 16 packets each, and as many answers at most */
	CHECK(gdr_accept_row_events(65536, 1000, 2.0, 4096, 4.0) == 2 * 16 * 500.0 * 4);
	/* a small message is one packet; the mlx5 case: 10 M/s for a 600 s row wraps twice */
	CHECK(gdr_accept_row_events(64, 5000000000ULL, 600, 4096, 601) >= 4294967296.0 * 2);
	CHECK(gdr_accept_row_events(64, 1000000, 1, 4096, 1.5) < 4294967296.0, "a short row");
	CHECK(gdr_accept_row_events(64, 1000, 0, 4096, 1) == 0, "no measured time: no figure");
}

/*
 * --kv-floor (issue 46.3): a KV row whose kv_efficiency is below the floor
 * fails, naming its cell and the floor; one without the contiguous reference
 * fails as unknown; --compare's staged and host rows are judged too (each has
 * its own reference); -w's verdict and the floor's add up on one row.
 */
static void kv_floor(void)
{
	struct gdr_opts o = {.kind = GDR_KIND_BW, .kv_floor = 0.5};
	struct gdr_result r = {.bytes = 16384,
			       .bw_avg_Bps = 40e6,
			       .kv_batch = 32,
			       .kv_contig_Bps = 100e6,
			       .kv_eff = 0.4,
			       .kv_place = "random:1"};

	CHECK(gdr_verdict_wanted(&o) && !gdr_verdict_bw_wanted(&o));
	CHECK(gdr_verdict_judge(&o, &r) == 0);
	CHECK(r.verdict == GDR_VERDICT_FAIL);
	CHECK(!strcmp(r.why, "kv_efficiency 0.400 is below the floor 0.5 (--kv-floor; 16384-byte "
			     "blocks, 32 a batch, random:1)"),
	      "%s", r.why);
	CHECK(r.kv_floor == 0.5 && r.limit_Bps == 0, "no bandwidth floor set");
	r.kv_eff = 0.5; /* at the floor: passes */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_PASS && !r.why[0], "%s", r.why);
	r.reference = true; /* --compare's staged row: judged against its own reference */
	r.kv_eff = 0.3;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL && strstr(r.why, "0.300 is below"), "%s", r.why);
	r.reference = false;
	r.kv_eff = 0; /* no contiguous reference: unknown, not passed */
	r.kv_contig_Bps = 0;
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL &&
		  strstr(r.why, "kv_efficiency unknown (16384-byte blocks, 32 a batch, random:1): "
				"no contiguous reference, not passed (--kv-floor 0.5)"),
	      "%s", r.why);
	r.kv_contig_Bps = 100e6;
	r.kv_eff = 0.9;
	o.limit_bw = 100; /* MiB/s: 40e6 B/s is below; the floor passes, the row fails by -w */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL && strstr(r.why, "(-w)") && !strstr(r.why, "kv_"), "%s",
	      r.why);
	r.kv_eff = 0.1; /* both: one reason after the other */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_FAIL && strstr(r.why, "(-w); kv_efficiency 0.100"), "%s",
	      r.why);
	o.limit_bw = 0;
	r.kv_batch = 0; /* not a KV row: the floor does not apply */
	gdr_verdict_judge(&o, &r);
	CHECK(r.verdict == GDR_VERDICT_NONE && r.kv_floor == 0, "%s", r.why);
	o.kv_floor = 0;
	CHECK(!gdr_verdict_wanted(&o));
}

/*
 * The run's exit: a KV row below --kv-floor counts as a failed row, as -w's
 * do (gdr_accept_end's count makes the run exit 1), on every path of
 * --compare, the header naming the floor.
 */
static void kv_floor_run(void)
{
	struct gdr_opts o = {.kind = GDR_KIND_BW, .kv_floor = 0.8, .compare = true};
	struct gdr_conn c = {.o = &o, .link = {.rate_gbps = 100}, .npaths = 2};
	struct gdr_run_info ri = {0};
	struct gdr_result r = {
	    .bytes = 4096, .kv_batch = 8, .kv_contig_Bps = 1e9, .kv_eff = 0.9, .kv_place = "seq"};
	struct gdr_accept a;

	c.path[0] = (struct gdr_path){.name = "direct", .mem = &c.data};
	c.path[1] = (struct gdr_path){.name = "staged", .staged = true, .mem = &c.bounce};
	CHECK(gdr_accept_init(&a, &c, &ri) == 0);
	CHECK(!strcmp(ri.verdict, "--kv-floor 0.8: each KV row's kv_efficiency, on every path"),
	      "%s", ri.verdict);
	gdr_accept_after(&a, &c, &c.path[0], &r);
	CHECK(r.verdict == GDR_VERDICT_PASS && a.failed == 0);
	r.kv_eff = 0.7; /* the staged row, a reference for -w, below the floor */
	gdr_accept_after(&a, &c, &c.path[1], &r);
	CHECK(r.reference && r.verdict == GDR_VERDICT_FAIL && a.failed == 1);
	CHECK(gdr_accept_end(&a) == 1, "the run fails");
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/t_accept.XXXXXX", cmd[64];

	from_link();
	verdicts();
	kv_floor();
	kv_floor_run();
	wire();
	row_events();
	CHECK(mkdtemp(tmp) != NULL);
	counters(tmp);
	prom(argc > 1 ? argv[1] : "t_accept.prom");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	CHECK(system(cmd) == 0);
	return CHECK_DONE();
}
