/* SPDX-License-Identifier: MIT */
/*
 * Unit test: command line parsing (types, defaults per test, ranges, rules,
 * order independence, unknown options, positional arguments, is_set, help).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log.h"
#include "opts.h"
#include "opts_table.h"

#include "capture.h"
#include "check.h"

static const struct gdr_test T_WBW = {"write_bw", GDR_VERB_WRITE, GDR_KIND_BW};
static const struct gdr_test T_RBW = {"read_bw", GDR_VERB_READ, GDR_KIND_BW};
static const struct gdr_test T_SBW = {"send_bw", GDR_VERB_SEND, GDR_KIND_BW};
static const struct gdr_test T_WLAT = {"write_lat", GDR_VERB_WRITE, GDR_KIND_LAT};
static const struct gdr_test T_RLAT = {"read_lat", GDR_VERB_READ, GDR_KIND_LAT};
static const struct gdr_test T_SLAT = {"send_lat", GDR_VERB_SEND, GDR_KIND_LAT};
static const struct gdr_test T_ABW = {"atomic_bw", GDR_VERB_ATOMIC, GDR_KIND_BW};
static const struct gdr_test T_ALAT = {"atomic_lat", GDR_VERB_ATOMIC, GDR_KIND_LAT};

static char err[4096], out[16384];

/*
 * Parse "gdr_x " + line (split at spaces) for test t. Captures stderr in err
 * and stdout in out.
 */
static int run(const struct gdr_test *t, const char *line, struct gdr_opts *o)
{
	char buf[1024], *argv[64], *tok, *save = NULL;
	struct capture ce, co;
	int argc = 0, rc;

	snprintf(buf, sizeof(buf), "gdr_%s %s", t->name, line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	capture_on(&ce, 2);
	capture_on(&co, 1);
	rc = gdr_opts_parse(o, t, argc, argv);
	capture_off(&co, out, sizeof(out));
	capture_off(&ce, err, sizeof(err));
	return rc;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The line must parse; nothing on stderr. o is left for the caller (free it). */
static void ok(const struct gdr_test *t, const char *line, struct gdr_opts *o)
{
	int rc = run(t, line, o);

	CHECK(rc == 0 && !*err, "%s '%s': rc %d, stderr '%s'", t->name, line, rc, err);
}

static void ok1(const struct gdr_test *t, const char *line)
{
	struct gdr_opts o;

	ok(t, line, &o);
	gdr_opts_free(&o);
}

/* The line must fail with exactly one error line containing `want`, nothing on stdout. */
static void fail(const struct gdr_test *t, const char *line, const char *want)
{
	struct gdr_opts o;
	char prefix[64];
	int rc = run(t, line, &o);

	snprintf(prefix, sizeof(prefix), "gdr_%s: error: ", t->name);
	CHECK(rc == -1, "%s '%s': rc %d, want -1", t->name, line, rc);
	CHECK(lines(err) == 1 && !strncmp(err, prefix, strlen(prefix)),
	      "%s '%s': stderr not one error line: '%s'", t->name, line, err);
	CHECK(strstr(err, want), "%s '%s': stderr '%s' lacks '%s'", t->name, line, err, want);
	CHECK(!*out, "%s '%s': stdout '%s'", t->name, line, out);
}

static void defaults(void)
{
	static const struct {
		const struct gdr_test *t;
		uint64_t size, iters, warmup;
		uint32_t tx;
	} want[] = {
	    {&T_WBW, 65536, 5000, 0, 128}, {&T_RBW, 65536, 1000, 0, 128},
	    {&T_SBW, 65536, 1000, 0, 128}, {&T_WLAT, 2, 1000, 100, 1},
	    {&T_RLAT, 2, 1000, 100, 1},	   {&T_SLAT, 2, 1000, 100, 1},
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct gdr_test *t = want[i].t;
		struct gdr_opts o;

		ok(t, "", &o);
		CHECK(o.verb == t->verb && o.kind == t->kind, "%s: verb/kind", t->name);
		CHECK(o.size == want[i].size, "%s: size %llu", t->name, (unsigned long long)o.size);
		CHECK(o.iters == want[i].iters, "%s: iters %llu", t->name,
		      (unsigned long long)o.iters);
		CHECK(o.warmup == want[i].warmup, "%s: warmup %llu", t->name,
		      (unsigned long long)o.warmup);
		CHECK(o.tx_depth == want[i].tx, "%s: tx_depth %u", t->name, o.tx_depth);
		CHECK(o.rx_depth == 512 && o.cq_mod == 100 && o.num_qps == 1, "%s: rx/cq/qp",
		      t->name);
		CHECK(o.port == GDR_DEFAULT_PORT && o.ib_port == 1 && o.gid_index == -1,
		      "%s: port %u ib_port %d gid %d", t->name, o.port, o.ib_port, o.gid_index);
		CHECK(o.use_cuda == GDR_CUDA_NONE && o.cuda_reg == GDR_REG_AUTO && !o.cuda_bus_id,
		      "%s: cuda %d", t->name, o.use_cuda);
		CHECK(o.npct == 2 && o.pct[0] == 99.0 && o.pct[1] == 99.9, "%s: percentiles",
		      t->name);
		CHECK(o.timeout == 30 && o.listen_timeout == 600 && o.connect_timeout == 3,
		      "%s: timeouts", t->name);
		CHECK(o.duration == 0 && o.interval == 0 && o.mtu == 0 && o.inline_size == 0,
		      "%s: zeros", t->name);
		CHECK(!o.server && !o.dev_name && !o.csv_file && !o.all_sizes && !o.sizes_set &&
			  !o.bidir && !o.quiet,
		      "%s: off", t->name);
		CHECK(o.set_bits[0] == 0 && o.set_bits[1] == 0, "%s: set_bits after defaults",
		      t->name);
		CHECK(!gdr_opts_is_set(&o, &o.size) && !gdr_opts_is_set(&o, &o.iters),
		      "%s: is_set without options", t->name);
		gdr_opts_free(&o);
	}
}

static void types(void)
{
	struct gdr_opts o;

	ok(&T_WBW,
	   "-s 64K -n 10 -t 7 -r 9 -Q 3 -q 64 -p 65535 -i 2 -x 3 -I 128 -d mlx5_1 -R -b "
	   "--validate --warmup=11 --use_imm --report_gbits --quiet --use_hugepages --csv=a.csv "
	   "--json=- --cpu=0-3,8 --timeout=1.5 --listen_timeout 20 --connect_timeout=0.25 srv",
	   &o);
	CHECK(o.size == 65536 && o.iters == 10 && o.tx_depth == 7 && o.rx_depth == 9 &&
		  o.cq_mod == 3 && o.num_qps == 64,
	      "numbers: %llu %llu %u %u %u %u", (unsigned long long)o.size,
	      (unsigned long long)o.iters, o.tx_depth, o.rx_depth, o.cq_mod, o.num_qps);
	CHECK(o.port == 65535 && o.ib_port == 2 && o.gid_index == 3 && o.inline_size == 128 &&
		  o.warmup == 11,
	      "numbers 2");
	CHECK(o.dev_name && !strcmp(o.dev_name, "mlx5_1"), "-d");
	CHECK(o.rdma_cm && o.bidir && o.validate && o.use_imm && o.report_gbits && o.quiet &&
		  o.use_hugepages,
	      "flags");
	CHECK(o.csv_file && !strcmp(o.csv_file, "a.csv") && o.json_file &&
		  !strcmp(o.json_file, "-") && o.cpu_list && !strcmp(o.cpu_list, "0-3,8"),
	      "strings");
	CHECK(o.timeout == 1.5 && o.listen_timeout == 20 && o.connect_timeout == 0.25,
	      "doubles %g %g %g", o.timeout, o.listen_timeout, o.connect_timeout);
	CHECK(o.server && !strcmp(o.server, "srv"), "server");
	CHECK(gdr_opts_is_set(&o, &o.size) && gdr_opts_is_set(&o, &o.port) &&
		  gdr_opts_is_set(&o, &o.quiet) && !gdr_opts_is_set(&o, &o.duration) &&
		  !gdr_opts_is_set(&o, &o.use_cuda),
	      "is_set");
	gdr_opts_free(&o);
	CHECK(!o.server && !o.csv_file, "free clears pointers");

	ok(&T_WBW, "-D 2.5 --interval=0.5 -a", &o);
	CHECK(o.duration == 2.5 && o.interval == 0.5 && o.all_sizes, "-D/--interval/-a");
	CHECK(gdr_opts_is_set(&o, &o.duration) && !gdr_opts_is_set(&o, &o.iters), "is_set -D");
	gdr_opts_free(&o);

	ok(&T_WLAT, "--use_cuda=auto --percentiles=99,99.9,50 --samples=s.txt", &o);
	CHECK(o.use_cuda == GDR_CUDA_AUTO, "auto: %d", o.use_cuda);
	CHECK(o.npct == 3 && o.pct[0] == 99 && o.pct[1] == 99.9 && o.pct[2] == 50, "percentiles %d",
	      o.npct);
	CHECK(gdr_opts_is_set(&o, &o.pct[2]) && gdr_opts_is_set(&o, &o.npct), "is_set pct");
	CHECK(o.samples_file && !strcmp(o.samples_file, "s.txt"), "--samples");
	gdr_opts_free(&o);

	ok(&T_RBW, "--use_cuda 3 --use_cuda_dmabuf", &o);
	CHECK(o.use_cuda == 3 && o.cuda_reg == GDR_REG_DMABUF, "cuda 3 dmabuf");
	CHECK(gdr_opts_is_set(&o, &o.cuda_reg), "is_set cuda_reg");
	gdr_opts_free(&o);

	ok(&T_SBW, "--use_cuda_bus_id=0000:3b:00.0 --use_cuda_peermem --no-pin", &o);
	CHECK(o.cuda_bus_id && !strcmp(o.cuda_bus_id, "0000:3b:00.0") &&
		  o.cuda_reg == GDR_REG_PEERMEM && o.no_pin && o.use_cuda == GDR_CUDA_NONE,
	      "bus id / peermem");
	gdr_opts_free(&o);
	ok1(&T_SBW, "--use_cuda_bus_id=3B:00.7");

	/* --use_rocm (issue 38): perftest's index, a bus id or auto; none by default */
	ok(&T_WBW, "-s 4K", &o);
	CHECK(!o.rocm && !o.rocm_bus_id[0] && !o.rocm_dmabuf, "no --use_rocm: host memory");
	gdr_opts_free(&o);
	ok(&T_RBW, "--use_rocm=3 --use_rocm_dmabuf", &o);
	CHECK(o.rocm && o.use_rocm == 3 && o.rocm_dmabuf && !o.rocm_bus_id[0] &&
		  o.use_cuda == GDR_CUDA_NONE,
	      "rocm 3 dmabuf: %d", o.use_rocm);
	gdr_opts_free(&o);
	ok(&T_SLAT, "--use_rocm auto", &o);
	CHECK(o.rocm && o.use_rocm == GDR_CUDA_AUTO, "rocm auto: %d", o.use_rocm);
	gdr_opts_free(&o);
	ok(&T_WLAT, "--use_rocm=9F:00.0", &o);
	CHECK(o.rocm && !strcmp(o.rocm_bus_id, "9F:00.0"), "rocm bus id: '%s'", o.rocm_bus_id);
	gdr_opts_free(&o);
	ok1(&T_SBW, "--use_rocm=0000:0c:00.0");

	ok(&T_WBW, "--sizes=1K:1M:4", &o);
	CHECK(o.sizes_set && o.size_min == 1024 && o.size_max == 1 << 20 && o.size_factor == 4,
	      "--sizes");
	CHECK(gdr_opts_is_set(&o, &o.size_max) && gdr_opts_is_set(&o, &o.sizes_set) &&
		  !gdr_opts_is_set(&o, &o.size),
	      "is_set --sizes");
	gdr_opts_free(&o);
	ok(&T_WBW, "--sizes=2:64", &o);
	CHECK(o.size_factor == 2 && o.size_min == 2 && o.size_max == 64, "--sizes factor 2");
	gdr_opts_free(&o);

	ok(&T_WBW, "-s 1G -n 1000000000 -I 1024 -q 1 -x 0 -m 256 --warmup=0", &o);
	CHECK(o.size == 1ULL << 30 && o.iters == 1000000000 && o.inline_size == 1024,
	      "upper bounds");
	gdr_opts_free(&o);
	ok(&T_WBW, "--bind=10.0.0.1", &o); /* a server */
	CHECK(o.bind_addr && !strcmp(o.bind_addr, "10.0.0.1") && !o.server, "--bind");
	gdr_opts_free(&o);
	ok(&T_WBW, "-s 1K -s 2K", &o); /* last one wins */
	CHECK(o.size == 2048, "repeated -s: %llu", (unsigned long long)o.size);
	gdr_opts_free(&o);
	ok(&T_WBW, "-- host", &o);
	CHECK(o.server && !strcmp(o.server, "host"), "after --");
	gdr_opts_free(&o);
}

static void order(void)
{
	static const char *const lines3[] = {
	    "-s 4K host -n 10 --use_cuda=1 --quiet",
	    "host -n 10 --quiet -s 4K --use_cuda 1",
	    "--quiet --use_cuda=1 -n 10 -s 4K host",
	    "-n10 -s4K --quiet --use_cuda 1 host",
	};
	struct gdr_opts ref, o;

	ok(&T_WBW, lines3[0], &ref);
	for (size_t i = 1; i < sizeof(lines3) / sizeof(lines3[0]); i++) {
		ok(&T_WBW, lines3[i], &o);
		CHECK(o.size == ref.size && o.iters == ref.iters && o.quiet == ref.quiet &&
			  o.use_cuda == ref.use_cuda && o.server && ref.server &&
			  !strcmp(o.server, ref.server) && o.set_bits[0] == ref.set_bits[0] &&
			  o.set_bits[1] == ref.set_bits[1],
		      "order: '%s' differs from '%s'", lines3[i], lines3[0]);
		gdr_opts_free(&o);
	}
	CHECK(ref.size == 4096 && ref.iters == 10 && ref.use_cuda == 1, "order: values");
	gdr_opts_free(&ref);
	/* errors do not depend on order either */
	fail(&T_WBW, "-n 5 -D 2", "exclude each other");
	/* rdma_cm takes the path MTU and SL from the route; the same byte has two names */
	fail(&T_WBW, "-R -m 1024", "-R and -m exclude each other");
	fail(&T_WBW, "-S 2 -R", "-R and -S exclude each other");
	fail(&T_WBW, "--tos 8 --tclass 8", "-T and --tclass exclude each other");
	{
		struct gdr_opts q;

		ok(&T_WBW, "-m 1024 --tos=96 srv", &q);
		CHECK(q.mtu == 1024 && q.tclass == 96, "-m, --tos");
		gdr_opts_free(&q);
		ok(&T_WBW, "--tclass 32 srv", &q);
		CHECK(q.tclass == 32, "--tclass");
		gdr_opts_free(&q);
	}
	fail(&T_WBW, "-D 2 -n 5", "exclude each other");
}

static void ranges(void)
{
	fail(&T_WBW, "-s 12Q", "-s: '12Q' is not a size (use e.g. 4096, 64K, 1M)");
	fail(&T_WBW, "-s 0", "at least 1 byte");
	fail(&T_WBW, "-s -5", "is not a size");
	fail(&T_WBW, "-s 1.5K", "is not a size");
	fail(&T_WBW, "-s 2G", "larger than the 1G limit");
	fail(&T_WBW, "-s 99999999999999999999999", "is not a size");
	fail(&T_WBW, "-q 0", "-q: 0 is out of range (use 1..64)");
	fail(&T_WBW, "-q 65", "out of range");
	fail(&T_WBW, "-q -1", "not a whole number");
	fail(&T_WBW, "-q 1x", "not a whole number");
	fail(&T_WBW, "-p 0", "out of range");
	fail(&T_WBW, "-p 65536", "out of range");
	fail(&T_WBW, "-p 99999999999999999999", "not a whole number");
	fail(&T_WBW, "-i 0", "out of range");
	fail(&T_WBW, "-i 256", "out of range");
	fail(&T_WBW, "-x 256", "out of range");
	fail(&T_WBW, "-x -1", "not a whole number");
	fail(&T_WBW, "-t 0", "out of range");
	fail(&T_WBW, "-t 16385", "out of range");
	fail(&T_SBW, "-r 0", "out of range");
	fail(&T_WBW, "-Q 0", "out of range");
	fail(&T_WBW, "-I 1025", "out of range");
	fail(&T_WBW, "-n 0", "out of range");
	fail(&T_WBW, "-n 1000000001", "out of range");
	fail(&T_WBW, "--warmup=1000000001", "out of range");
	fail(&T_WBW, "-D 0", "-D: 0 is out of range (use > 0 and <= 86400)");
	fail(&T_WBW, "-D -1", "out of range");
	fail(&T_WBW, "-D 86401", "out of range");
	fail(&T_WBW, "-D nan", "not a number");
	fail(&T_WBW, "-D inf", "not a number");
	fail(&T_WBW, "-D 1s", "not a number");
	ok1(&T_WBW, "-D 0.001");
	fail(&T_WBW, "-m 1000", "not an MTU");
	fail(&T_WBW, "-m 8192", "not an MTU");
	fail(&T_WBW, "--use_cuda=256", "not a GPU");
	fail(&T_WBW, "--use_cuda=-1", "not a GPU");
	fail(&T_WBW, "--use_cuda=none", "not a GPU");
	fail(&T_WBW, "--use_cuda=gpu0", "not a GPU");
	fail(&T_WBW, "--use_cuda=", "not a GPU");
	fail(&T_WBW, "--use_cuda_bus_id=zz:00.0", "not a PCI address");
	fail(&T_WBW, "--use_cuda_bus_id=3b:00.8", "not a PCI address");
	fail(&T_WLAT, "--percentiles=0", "out of range");
	fail(&T_WLAT, "--percentiles=100.5", "out of range");
	fail(&T_WLAT, "--percentiles=99,,50", "empty entry");
	fail(&T_WLAT, "--percentiles=99,", "empty entry");
	fail(&T_WLAT, "--percentiles=p99", "not a percentile");
	fail(&T_WLAT, "--percentiles=1,2,3,4,5,6,7,8,9", "more than 8");
	ok1(&T_WLAT, "--percentiles=100,50,1,2,3,4,5,6");
	fail(&T_WBW, "--timeout=0", "out of range");
	fail(&T_WBW, "--connect_timeout=-1", "out of range");
	fail(&T_WBW, "--listen_timeout=x", "not a number");
	fail(&T_WBW, "--cpu=3-1", "not a CPU list");
	fail(&T_WBW, "--cpu=a", "not a CPU list");
	fail(&T_WBW, "--cpu=1,", "not a CPU list");
	fail(&T_WBW, "--cpu=1-", "not a CPU list");
	fail(&T_WBW, "--csv=", "empty value");
	fail(&T_WBW, "--sizes=1M:1K", "MIN 1M is larger than MAX 1K");
	fail(&T_WBW, "--sizes=1K", "is not MIN:MAX[:FACTOR]");
	fail(&T_WBW, "--sizes=1K:1M:2:3", "is not MIN:MAX[:FACTOR]");
	fail(&T_WBW, "--sizes=1K:1M:1", "factor '1'");
	fail(&T_WBW, "--sizes=1K:1M:1025", "factor '1025'");
	fail(&T_WBW, "--sizes=1K:2G", "larger than the 1G limit");
	fail(&T_WBW, "--sizes=0:1K", "at least 1 byte");
	fail(&T_WBW, "--sizes=x:1K", "is not a size");
}

static void rules(void)
{
	const char *inl = "inline data is copied by the CPU; it cannot come from GPU memory";

	fail(&T_WBW, "-s 4K -a", "exclude each other");
	fail(&T_WBW, "-s 4K --sizes=1K:4K", "exclude each other");
	fail(&T_WBW, "--sizes=1K:4K -a", "exclude each other");
	fail(&T_WBW, "-n 5 -D 1", "-n and -D exclude each other");
	fail(&T_WBW, "--interval=1", "--interval needs -D");
	ok1(&T_WBW, "--interval=1 -D 10 -a");
	fail(&T_WBW, "--staged --compare", "--staged and --compare exclude each other");
	ok1(&T_WBW, "--staged");
	fail(&T_WBW, "-I 64 --use_cuda=0", inl);
	fail(&T_SBW, "--use_cuda=auto -I 64", inl);
	fail(&T_WBW, "-I 64 --use_cuda_bus_id=3b:00.0", inl);
	fail(&T_WBW, "--use_cuda_dmabuf",
	     "--use_cuda_dmabuf needs --use_cuda or --use_cuda_bus_id");
	fail(&T_WBW, "--use_cuda_peermem", "needs --use_cuda");
	fail(&T_WBW, "--use_cuda=0 --use_cuda_dmabuf --use_cuda_peermem", "exclude each other");
	fail(&T_WBW, "--use_cuda=0 --use_cuda_bus_id=3b:00.0", "exclude each other");
	fail(&T_WBW, "--use_cuda=0 --use_hugepages", "exclude each other");
	fail(&T_WBW, "--cpu=1 --no-pin", "exclude each other");
	fail(&T_WBW, "--use_rocm=0 --use_cuda=0", "--use_rocm and --use_cuda exclude each other");
	fail(&T_WBW, "--use_cuda_bus_id=3b:00.0 --use_rocm=auto", "exclude each other");
	fail(&T_WBW, "--use_rocm_dmabuf", "--use_rocm_dmabuf needs --use_rocm");
	fail(&T_WBW, "--use_rocm=0 --use_cuda_dmabuf", "--use_cuda_dmabuf needs --use_cuda");
	fail(&T_WBW, "-I 64 --use_rocm=1", inl);
	fail(&T_WBW, "--use_rocm=0 --use_hugepages", "exclude each other");
	fail(&T_WBW, "--use_rocm=256", "is not an AMD GPU");
	fail(&T_WBW, "--use_rocm=all", "is not an AMD GPU (use an index 0..255, a PCI address");
	fail(&T_WBW, "--use_rocm=0c:00", "is not an AMD GPU");
	fail(&T_WBW, "--use_rocm=none", "is not an AMD GPU");
	/* --matrix runs the CUDA GPUs: an AMD GPU would run in every cell under their names */
	fail(&T_WBW, "--matrix=all --use_rocm=0", "--matrix and --use_rocm exclude each other");
	/* --pairing is read by --use_cuda=auto only: with a GPU index it would be ignored */
	fail(&T_WBW, "--use_cuda=0 --pairing=p.txt host",
	     "--pairing: read by --use_cuda=auto only");
	ok1(&T_WBW, "--use_cuda=auto --pairing=p.txt host");
	fail(&T_WBW, "--samples=x host", "--samples does not apply to write_bw");
	fail(&T_RBW, "--percentiles=50", "does not apply to read_bw");
	ok1(&T_SLAT, "--samples=x host");
	fail(&T_WBW, "--bind=1.2.3.4 host", "--bind is a server option");
	fail(&T_WLAT, "-b", "-b does not apply to write_lat");
	fail(&T_RBW, "--use_imm", "does not apply to read_bw");
	ok1(&T_WLAT, "--use_imm");
	fail(&T_RLAT, "-I 16", "does not apply to read_lat");
}

static void syntax(void)
{
	struct gdr_opts o;

	fail(&T_WBW, "--foo", "gdr_write_bw: error: unknown option '--foo' (see --help)");
	fail(&T_WBW, "--foo=3 host", "unknown option '--foo' (see --help)");
	fail(&T_RLAT, "-Z", "gdr_read_lat: error: unknown option '-Z' (see --help)");
	fail(&T_WBW, "--quiet=1", "--quiet takes no argument");
	fail(&T_WBW, "-a=1", "unknown option '-='"); /* -a then -= */
	fail(&T_WBW, "host -s", "-s: missing argument SIZE");
	fail(&T_WBW, "--sizes", "--sizes: missing argument");
	fail(&T_WBW, "a b", "unexpected argument 'b'");
	fail(&T_WBW, "a -n 3 b c", "unexpected argument 'b'");

	CHECK(run(&T_WBW, "--help", &o) == 1 && !*err, "--help: rc/stderr '%s'", err);
	CHECK(strstr(out, "Usage: gdr_write_bw [options]") &&
		  strstr(out, "gdr_write_bw [options] <server>"),
	      "--help usage lines");
	CHECK(strstr(out, "-s, --size=SIZE") && strstr(out, "(default: 65536)") &&
		  strstr(out, "(default: 5000)") && strstr(out, "--use_cuda=IDX|auto"),
	      "--help rows:\n%s", out);
	CHECK(strstr(out, "\nTest") && strstr(out, "\nConnection") && strstr(out, "\nMemory") &&
		  strstr(out, "\nOutput") && strstr(out, "\nMisc"),
	      "--help groups");
	for (const char *p = out; (p = strchr(p, '\n')); p++) {
		const char *q = strchr(p + 1, '\n');

		CHECK(!q || q - p - 1 <= 100, "--help line over 100 columns: %.*s",
		      (int)(q ? q - p - 1 : 0), p + 1);
	}
	CHECK(run(&T_RLAT, "-s 12Q --help", &o) == -1, "error before --help wins");
	CHECK(run(&T_RLAT, "-n 7 -h", &o) == 1 && strstr(out, "(default: 1000)") &&
		  strstr(out, "(default: 2)") && strstr(out, "Usage: gdr_read_lat"),
	      "-h for read_lat: %s", out);
	CHECK(run(&T_SBW, "-V", &o) == 1 &&
		  !strcmp(out, "gdr_send_bw (gdrperf) " PACKAGE_VERSION "\n") && !*err,
	      "-V: '%s'", out);
	CHECK(run(&T_SBW, "--version", &o) == 1 && strstr(out, "(gdrperf)"), "--version");

	CHECK(!strcmp(gdr_verb_name(GDR_VERB_WRITE), "write") &&
		  !strcmp(gdr_verb_name(GDR_VERB_READ), "read") &&
		  !strcmp(gdr_verb_name(GDR_VERB_SEND), "send") &&
		  !strcmp(gdr_kind_name(GDR_KIND_BW), "bw") &&
		  !strcmp(gdr_kind_name(GDR_KIND_LAT), "lat"),
	      "verb/kind names");
}

/* perftest's flags: values, the side they are for, what each test and -c take. */
static void perftest_flags(void)
{
	struct gdr_opts o;

	ok(&T_WBW, "-T 106 -S 3 -u 20 -o 4 --source_ip 10.0.0.1 h", &o);
	CHECK(o.tclass == 106 && o.sl == 3 && o.qp_timeout == 20 && o.outs == 4 &&
	      !strcmp(o.source_ip, "10.0.0.1"));
	gdr_opts_free(&o);
	ok(&T_WBW, "", &o);
	CHECK(o.qp_timeout == 14 && o.outs == 0 && o.conn == GDR_CONN_RC && o.rate_limit == 0,
	      "perftest's defaults");
	gdr_opts_free(&o);
	fail(&T_WBW, "-S 16", "-S: 16 is out of range");
	fail(&T_WBW, "--source_ip 10.0.0.1", "client option");
	ok(&T_SBW, "--rate_limit=2.5 --rate_units=M --out_json", &o);
	CHECK(o.rate_limit == 2.5 && o.rate_units == 1 && o.json_file &&
	      !strcmp(o.json_file, GDR_PERFTEST_JSON));
	gdr_opts_free(&o);
	ok(&T_WBW, "--out_json_file=r.json --run_infinitely", &o);
	CHECK(!strcmp(o.json_file, "r.json") && o.interval == GDR_INFINITE_INTERVAL);
	gdr_opts_free(&o);
	fail(&T_WBW, "--rate_units=p", "--rate_units needs --rate_limit");
	fail(&T_WLAT, "-e", "-e does not apply to write_lat");
	ok1(&T_SLAT, "-e");
	fail(&T_WBW, "--run_infinitely -a", "exclude each other");
	ok(&T_SBW, "-c UD -s 1K", &o);
	CHECK(o.conn == GDR_CONN_UD && gdr_rx_off(&o) == GDR_UD_GRH);
	gdr_opts_free(&o);
	ok1(&T_WLAT, "-c UC");
	fail(&T_RBW, "-c UC", "-c UC: UC carries RDMA writes and sends");
	fail(&T_WBW, "-c UD", "-c UD: UD carries sends only");
	fail(&T_SBW, "-c UD -R", "-R connects RC queue pairs only");
	fail(&T_SBW, "-c DC", "-c: 'DC' is not RC, UC or UD");
	/* atomics: 8 bytes, -A, RC only */
	ok(&T_ABW, "-A CMP_AND_SWAP", &o);
	CHECK(o.size == GDR_ATOMIC_BYTES && o.atomic_op == GDR_ATOMIC_CAS);
	gdr_opts_free(&o);
	ok1(&T_ALAT, "-s 8 --validate");
	fail(&T_ABW, "-s 64", "atomic operations are 8 bytes (-s 8)");
	fail(&T_ABW, "-a", "no -a/--sizes");
	fail(&T_ABW, "-b", "no -b");
	fail(&T_ABW, "-D 2 --validate", "iteration run");
	fail(&T_ALAT, "-c UC", "atomic operations need RC");
	fail(&T_WBW, "-A FETCH_AND_ADD", "-A does not apply to write_bw");
	/* --write_with_imm: the write tests run their write-with-immediate row */
	ok(&T_WBW, "--write_with_imm", &o);
	CHECK(o.verb == GDR_VERB_WRITE_IMM && !strcmp(gdr_verb_name(o.verb), "write_imm"));
	gdr_opts_free(&o);
	ok(&T_WLAT, "--write_with_imm -c UC", &o);
	CHECK(o.verb == GDR_VERB_WRITE_IMM && o.kind == GDR_KIND_LAT);
	gdr_opts_free(&o);
	fail(&T_SBW, "--write_with_imm", "--write_with_imm does not apply to send_bw");
	fail(&T_WBW, "--write_with_imm -c UD", "-c UD: UD carries sends only");
}

/* The help's "[... tests]" notes come from the verbs' rows, for any mask. */
static void notes(void)
{
	const struct {
		unsigned tests;
		const char *want;
	} c[] = {
	    {0, ""},
	    {GDR_T_BW, " [bw tests]"},
	    {GDR_T_LAT, " [lat tests]"},
	    {GDR_T_WRITE, " [write tests]"}, /* write_imm is a variant: not named */
	    {GDR_T_WRITE | GDR_T_SEND, " [write, send tests]"},
	    {GDR_T_BW | GDR_T_SEND_LAT, " [bw tests, send_lat]"},
	    {GDR_T_ATOMIC, " [atomic tests]"},
	    {GDR_T_ATOMIC_BW, " [atomic_bw]"},
	    /* masks no row has today: no "[some tests]" */
	    {GDR_T_READ_BW | GDR_T_READ_LAT | GDR_T_ATOMIC_LAT, " [read tests, atomic_lat]"},
	    {GDR_T_LAT | GDR_T_WRITE_BW, " [lat tests, write_bw]"},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct gdr_opt e = {.name = "x", .tests = c[i].tests};

		CHECK(!strcmp(gdr_test_note(&e), c[i].want), "%#x: '%s', want '%s'", c[i].tests,
		      gdr_test_note(&e), c[i].want);
	}
}

/* '_' and '-' are one character in a long option's name (issue 34.8). */
static void spelling(void)
{
	struct gdr_opts o;

	ok(&T_WBW, "--report-gbits --report_counters --tx_depth 64 --rx_depth=8 --expect_bw=25",
	   &o);
	CHECK(o.report_gbits && o.report_counters && o.tx_depth == 64 && o.rx_depth == 8 &&
		  o.expect_bw == 25,
	      "respelled options set their fields");
	gdr_opts_free(&o);
	ok(&T_WBW, "--report_both --no_pin --ib_port 1 --gid_index=1 --use-imm host", &o);
	CHECK(o.server && !strcmp(o.server, "host"), "server after respelled options");
	gdr_opts_free(&o);
	/* the value of an option is not respelled, nor a word after "--" */
	ok(&T_WBW, "--csv=a_b-c.csv", &o);
	CHECK(o.csv_file && !strcmp(o.csv_file, "a_b-c.csv"), "value kept: %s",
	      o.csv_file ? o.csv_file : "");
	gdr_opts_free(&o);
	ok(&T_WBW, "-- --report-gbits", &o);
	CHECK(!o.report_gbits && o.server && !strcmp(o.server, "--report-gbits"),
	      "a word after -- stays as typed");
	gdr_opts_free(&o);
	fail(&T_WBW, "--report-gbit", "did you mean --report_gbits?");
	fail(&T_WBW, "--quiet_=1", "unknown option '--quiet_'");
	fail(&T_WBW, "--report_both=1", "--report-both takes no argument");
	fail(&T_WBW, "--tx_depth", "-t: missing argument N");
}

/* perftest's flags scripts use (issue 34.9): taken, accepted with a note, or refused with why. */
static void perftest_scripts(void)
{
	struct gdr_opts o;

	ok(&T_WBW, "--output=bandwidth -N --cpu_util --ipv6 host", &o);
	CHECK(o.output == GDR_OUTPUT_BANDWIDTH && o.no_peak && o.cpu_util && o.ipv6,
	      "--output=bandwidth -N --cpu_util --ipv6");
	gdr_opts_free(&o);
	ok(&T_SBW, "--output=message_rate --noPeak host", &o);
	CHECK(o.output == GDR_OUTPUT_MESSAGE_RATE && o.no_peak, "message_rate");
	gdr_opts_free(&o);
	ok(&T_RLAT, "--output=latency host", &o);
	CHECK(o.output == GDR_OUTPUT_LATENCY, "latency");
	gdr_opts_free(&o);
	ok(&T_WBW, "host", &o);
	CHECK(o.output == GDR_OUTPUT_TABLE && !o.no_peak && !o.cpu_util && !o.ipv6, "defaults");
	gdr_opts_free(&o);
	CHECK(run(&T_WBW, "--dont_xchg_versions host", &o) == 0 &&
		  strstr(err, "--dont_xchg_versions: no effect"),
	      "--dont_xchg_versions is accepted with its note: '%s'", err);
	gdr_opts_free(&o);
	fail(&T_WLAT, "--output=bandwidth", "a latency test prints latency");
	fail(&T_WBW, "--output=latency", "a bandwidth test prints bandwidth or message_rate");
	fail(&T_WBW, "--output=bw", "'bw' is not bandwidth, message_rate or latency");
	fail(&T_WBW, "--output=bandwidth --json=-", "both write stdout");
	fail(&T_WBW, "--output=bandwidth --compare", "exclude each other");
	fail(&T_WLAT, "-N", "-N does not apply to write_lat");
	fail(&T_WBW, "--ipv6 -x 3", "exclude each other");
	fail(&T_WLAT, "-C", "-C (perftest's) is not supported here: gdrperf times with");
	fail(&T_WLAT, "-H", "--samples=FILE writes every latency sample");
	fail(&T_WLAT, "-U", "--samples=FILE");
	fail(&T_WBW, "-z", "-R connects the QPs with rdma_cm");
	fail(&T_WBW, "--mr_per_qp", "--mr_per_qp (perftest's) is not supported here");
	fail(&T_WBW, "--mr-per-qp", "a region per QP");
	fail(&T_WBW, "--odp", "on-demand paging");
	fail(&T_WBW, "-k 7000", "raw Ethernet");
	fail(&T_WBW, "--flows=4", "raw Ethernet");
	fail(&T_WBW, "--nosuch", "unknown option '--nosuch'");
}

/* perftest's -W LIST / --report-counters=LIST (issue 32.6): the list is not the server. */
static void counter_list(void)
{
	struct gdr_opts o;

	ok(&T_WBW, "-W host", &o);
	CHECK(o.report_counters && !o.counters_list && o.server && !strcmp(o.server, "host"),
	      "-W alone");
	gdr_opts_free(&o);
	ok(&T_WBW, "-W counters/port_xmit_data,hw_counters/out_of_sequence host", &o);
	CHECK(o.report_counters && o.counters_list &&
		  !strcmp(o.counters_list, "counters/port_xmit_data,hw_counters/out_of_sequence") &&
		  o.server && !strcmp(o.server, "host"),
	      "-W LIST host: list '%s', server '%s'", o.counters_list ? o.counters_list : "",
	      o.server ? o.server : "");
	gdr_opts_free(&o);
	ok(&T_WBW, "host -W hw_counters/rcvd_pkts", &o);
	CHECK(o.counters_list && !strcmp(o.counters_list, "hw_counters/rcvd_pkts") && o.server &&
		  !strcmp(o.server, "host"),
	      "host -W LIST");
	gdr_opts_free(&o);
	ok(&T_WLAT, "-W counters/port_rcv_data", &o);
	CHECK(o.counters_list && !o.server, "a server's -W LIST stays a server");
	gdr_opts_free(&o);
	ok(&T_WBW, "--report-counters=counters/symbol_error,port_xmit_data host", &o);
	CHECK(o.counters_list && !strcmp(o.counters_list, "counters/symbol_error,port_xmit_data"),
	      "--report-counters=LIST");
	gdr_opts_free(&o);
	ok(&T_WBW, "--report_counters host", &o);
	CHECK(o.report_counters && !o.counters_list, "--report_counters");
	gdr_opts_free(&o);
	fail(&T_WBW, "counters/port_xmit_data host", "is a counter list: give it after -W");
	fail(&T_WBW, "--report-counters=foo/bar host", "'foo/bar' is not a counter list");
	fail(&T_WBW, "--report-counters=a,,b host", "is not a counter list");
	fail(&T_WBW, "-W counters/ host", "is not a counter list");
	fail(&T_WBW, "-W counters/a counters/b host", "-W has its counter list already");
	fail(&T_WBW, "-W counters/a host other", "unexpected argument 'other'");
}

int main(void)
{
	spelling();
	perftest_scripts();
	counter_list();
	perftest_flags();
	defaults();
	types();
	order();
	ranges();
	rules();
	syntax();
	notes();
	return CHECK_DONE();
}
