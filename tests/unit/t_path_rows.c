/* SPDX-License-Identifier: MIT */
/*
 * What runs follows the path rows (driver/path_setup.c), not --staged/
 * --compare read here and there: the rows planned for the options (paths,
 * staged, compared, the host reference with GPU memory), and a run's own
 * paths' header and columns.
 */
#include "config.h"
#include <string.h>
#include "path_setup.h"
#include "run_state.h"

#include "check.h"

static void plan(bool staged, bool compare, bool want_staged, bool want_ref)
{
	struct gdr_opts o = {.staged = staged, .compare = compare};
	struct gdr_path_plan pp = gdr_paths_plan(&o, false), gpu = gdr_paths_plan(&o, true);

	CHECK(pp.staged == want_staged && pp.ref == want_ref && !pp.host_mem,
	      "staged %d compare %d: staged %d ref %d host %d", staged, compare, pp.staged, pp.ref,
	      pp.host_mem);
	/* GPU memory on either side adds the host reference to --compare only */
	CHECK(gpu.n == pp.n + compare && gpu.host_mem == compare && gpu.staged == pp.staged,
	      "staged %d compare %d with GPU memory: %u paths", staged, compare, gpu.n);
	CHECK(pp.n == (compare ? 2u : 1u), "staged %d compare %d: %u paths", staged, compare, pp.n);
}

/* gpu-proxy: bandwidth and latency of write, read and send, one RC QP, a count (issue 37) */
static void proxy_rows(void)
{
	static const enum gdr_verb verbs[] = {GDR_VERB_WRITE, GDR_VERB_READ, GDR_VERB_SEND};
	struct gdr_opts o = {.compare = true, .num_qps = 1, .conn = GDR_CONN_RC};

	for (int k = GDR_KIND_BW; k <= GDR_KIND_LAT; k++)
		for (size_t v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++) {
			o.kind = (enum gdr_kind)k;
			o.verb = verbs[v];
			CHECK(gdr_paths_plan(&o, true).n == 4,
			      "kind %d verb %d: %u paths, not host direct staged gpu-proxy", k,
			      (int)verbs[v], gdr_paths_plan(&o, true).n);
			CHECK(gdr_paths_plan(&o, false).n == 2, "host memory: no gpu-proxy row");
		}
	o.verb = GDR_VERB_ATOMIC;
	CHECK(gdr_paths_plan(&o, true).n == 3, "atomic: no gpu-proxy row");
	o.verb = GDR_VERB_WRITE;
	o.duration = 1;
	CHECK(gdr_paths_plan(&o, true).n == 3, "-D: no gpu-proxy row (the kernel needs a count)");
}

/*
 * Write and send latency's gpu-proxy row (the two sides' kernels' ping-pong)
 * with both sides on one GPU: left out with a note without MPS (two
 * processes' kernels take turns there), kept and said under MPS (issue 43
 * item 2).
 */
static void gp_pair(void)
{
	const uint64_t g = GDR_GPU_WORD_MEM | GDR_GPU_WORD_PROXY, mps = GDR_GPU_WORD_MPS;
	const uint64_t a = 0x5bd1e9955bd1e995ULL & GDR_GPU_WORD_ID,
		       b = 0x9e3779b97f4a7c15ULL & GDR_GPU_WORD_ID;
	char note[256];

	CHECK(gdr_paths_gp_pair(g | a, g | b, "0000:1a:00.0", note, sizeof(note)) == GDR_GP_APART &&
		  !note[0],
	      "two GPUs: the row runs, no note (%s)", note);
	CHECK(gdr_paths_gp_pair(g | a | mps, g | b | mps, "0000:1a:00.0", note, sizeof(note)) ==
		      GDR_GP_APART &&
		  !note[0],
	      "two GPUs under MPS: the row runs, no note (%s)", note);
	CHECK(gdr_paths_gp_pair(g | a, g | a, "0000:1a:00.0", note, sizeof(note)) == GDR_GP_SLICED,
	      "one GPU: the row is left out");
	CHECK(!strcmp(note, "no gpu-proxy row: both sides on GPU 0000:1a:00.0: without MPS their "
			    "persistent kernels take turns (~ms per hand-off); run the sides on "
			    "different GPUs or under MPS"),
	      "%s", note);
	/* MPS on one side only: the other's kernel is still time-sliced against it */
	CHECK(gdr_paths_gp_pair(g | a | mps, g | a, "0000:1a:00.0", note, sizeof(note)) ==
		      GDR_GP_SLICED &&
		  gdr_paths_gp_pair(g | a, g | a | mps, "0000:1a:00.0", note, sizeof(note)) ==
		      GDR_GP_SLICED,
	      "one GPU, MPS on one side: left out");
	CHECK(gdr_paths_gp_pair(g | a | mps, g | a | mps, "0000:1a:00.0", note, sizeof(note)) ==
		  GDR_GP_MPS,
	      "one GPU under MPS: the row runs");
	CHECK(!strcmp(note, "gpu-proxy row under MPS: both sides on GPU 0000:1a:00.0, their "
			    "kernels run at once"),
	      "%s", note);
	/* no identity (host memory): nothing to compare */
	CHECK(gdr_paths_gp_pair(GDR_GPU_WORD_MEM, GDR_GPU_WORD_MEM, "?", note, sizeof(note)) ==
	      GDR_GP_APART);
}

int main(void)
{
	struct gdr_opts o = {.compare = true};
	struct gdr_run r = {0};

	plan(false, false, false, false); /* direct (or host) alone */
	plan(true, false, true, false);	  /* staged alone: nothing to compare it with */
	plan(false, true, true, true);	  /* direct, staged compared with it */
	plan(true, true, true, true);
	proxy_rows();
	/* ROCm memory: the row is left out by rule (an info line), not by a fault (issue 43) */
	{
		const struct gdr_mem_ops dev = {.kind = "rocm", .device = true};
		struct gdr_mem m = {.ops = &dev, .cfg = {.api = GDR_MEM_API_ROCM}};
		const char *why = gdr_paths_proxy_mem_absent(&m);

		CHECK(why && strstr(why, "--use_rocm"), "rocm: %s", why ? why : "(null)");
		m.cfg.api = GDR_MEM_API_CUDA;
		CHECK(!gdr_paths_proxy_mem_absent(&m), "cuda memory: the row may run");
		m.ops = &gdr_mem_host_ops;
		CHECK(!gdr_paths_proxy_mem_absent(&m), "host memory: another rule's");
	}
	gp_pair();

	/* a run's paths: one direct path has no staged lines and no path columns */
	r.c.npaths = 1;
	r.c.path[0] = (struct gdr_path){.name = "direct", .ref = -1, .row = 1};
	gdr_paths_header(&r);
	CHECK(!r.ri.staged_path && !r.ri.ref_path && !r.ri.staged[0] && !r.ri.stage_copy[0]);
	/* ... and the header says what it stands for (issue 37 item 5) */
	CHECK(!strcmp(r.ri.paths, "direct    CPU-posted GPUDirect RDMA, as perftest --use_cuda"),
	      "%s", r.ri.paths);
	/* host memory on both sides, one path: nothing to name */
	r = (struct gdr_run){0};
	r.c.npaths = 1;
	r.c.path[0] = (struct gdr_path){.name = "host", .ref = -1, .row = 1};
	gdr_paths_header(&r);
	CHECK(!r.ri.paths[0], "%s", r.ri.paths);
	/* --compare with the client's memory on a GPU: four paths, a line each, in order */
	r = (struct gdr_run){0};
	r.c.o = &o;
	r.c.npaths = 4;
	r.c.path[0] = (struct gdr_path){.name = "host", .ref = -1, .row = 0};
	r.c.path[1] = (struct gdr_path){.name = "direct", .ref = -1, .row = 1};
	r.c.path[2] = (struct gdr_path){.name = "staged", .staged = true, .ref = 1, .row = 2};
	r.c.path[3] = (struct gdr_path){.name = "gpu-proxy", .proxy = true, .ref = 1, .row = 3};
	gdr_paths_header(&r);
	CHECK(r.ri.ratio_col, "GPU memory: the ratio column (direct is compared)");
	CHECK(!strcmp(r.ri.paths,
		      "host      the wire's reference: host memory on both sides\n"
		      "direct    CPU-posted GPUDirect RDMA, as perftest --use_cuda\n"
		      "staged    host staging, as UCX, NCCL and MPI without GPUDirect RDMA\n"
		      "gpu-proxy GPU-triggered, CPU-posted, as NCCL GIN's proxy backend and UCCL's "
		      "proxy"),
	      "%s", r.ri.paths);
	/* the ping-pong's kernels on one GPU under MPS: the gpu-proxy line says so */
	r.c.gp_mps = true;
	gdr_paths_header(&r);
	CHECK(strstr(r.ri.paths, "UCCL's proxy; under MPS, both sides' kernels on one GPU") &&
		  strstr(r.ri.paths, "; under MPS") == strrchr(r.ri.paths, ';'),
	      "the gpu-proxy line alone says MPS: %s", r.ri.paths);
	/* --compare -b drops the gpu-proxy row, and says so (issue 37) */
	{
		struct gdr_opts b = {
		    .compare = true, .kind = GDR_KIND_BW, .num_qps = 1, .bidir = true};
		struct gdr_opts q = {.compare = true, .kind = GDR_KIND_BW, .num_qps = 8};
		const char *why = gdr_paths_proxy_absent(&b);

		CHECK(why &&
			  !strcmp(why, "not with -b (the target side would need its own kernel)"),
		      "%s", why ? why : "(none)");
		CHECK(gdr_paths_plan(&b, true).n == 3 && gdr_paths_plan(&q, true).n == 4,
		      "-b: %u paths, -q 8: %u", gdr_paths_plan(&b, true).n,
		      gdr_paths_plan(&q, true).n);
		CHECK(!gdr_paths_proxy_absent(&q));
		q.num_qps = 9;
		CHECK(gdr_paths_plan(&q, true).n == 3 && gdr_paths_proxy_absent(&q));
	}
	/* --compare on host memory: the staged row's reference is "host", no ratio column */
	r = (struct gdr_run){0};
	r.c.o = &o;
	r.c.npaths = 2;
	r.c.path[0] = (struct gdr_path){.name = "host", .ref = -1, .row = 1};
	r.c.path[1] = (struct gdr_path){.name = "staged", .staged = true, .ref = 0, .row = 2};
	gdr_paths_header(&r);
	CHECK(r.ri.ref_path && !r.ri.ratio_col, "host memory: no ratio column");
	/* issue 44.6: the line each memory combination gets, or none (GPU memory on both) */
	{
		const char *n;

		n = gdr_paths_mem_note(false, false, false);
		CHECK(n && strstr(n, "no direct (GPUDirect) row and no ratio"), "%s", n ? n : "-");
		n = gdr_paths_mem_note(false, false, true); /* client on host, server on a GPU */
		CHECK(n && strstr(n, "the server's test memory is on a GPU, this client's is host") &&
			  strstr(n, "no gpu-proxy row"),
		      "%s", n ? n : "-");
		n = gdr_paths_mem_note(true, true, false); /* the same run, the server's words */
		CHECK(n && strstr(n, "this server's test memory is on a GPU, the client's is host"),
		      "%s", n ? n : "-");
		n = gdr_paths_mem_note(true, false, true);
		CHECK(n && strstr(n, "the client's test memory is on a GPU"), "%s", n ? n : "-");
		CHECK(!gdr_paths_mem_note(false, true, true), "GPU memory on both sides: no line");
	}
	return CHECK_DONE();
}
