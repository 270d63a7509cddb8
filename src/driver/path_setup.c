/* SPDX-License-Identifier: MIT */
/* Path setup: buffer geometry, memory, which paths a run measures, and their QPs. */
#include "config.h"
#include <string.h>
#include "cm.h"
#include "conn.h"
#include "gproxy.h"
#include "lat.h"
#include "log.h"
#include "path_setup.h"
#include "path_xport.h"
#include "report.h"
#include "run_state.h"
#include "run_header.h"
#include "session.h"
#include "staging.h"
#include "verb.h"
#include "verbs_api.h"
#include "xport_fit.h"

/* The memory the options ask for, in memory's terms. */
struct gdr_mem_cfg gdr_run_mem_cfg(const struct gdr_opts *o)
{
	static const enum gdr_mem_reg reg[] = {
	    [GDR_REG_AUTO] = GDR_MEM_REG_AUTO,
	    [GDR_REG_DMABUF] = GDR_MEM_REG_DMABUF,
	    [GDR_REG_PEERMEM] = GDR_MEM_REG_PEERMEM,
	};

	/* --use_rocm names an AMD GPU as --use_cuda an NVIDIA one (the rules keep them apart) */
	bool rocm = o->rocm;
	int gpu = rocm ? o->use_rocm : o->use_cuda;

	return (struct gdr_mem_cfg){
	    .api = rocm ? GDR_MEM_API_ROCM : GDR_MEM_API_CUDA,
	    .gpu = gpu == GDR_CUDA_NONE	  ? GDR_MEM_GPU_NONE
		   : gpu == GDR_CUDA_AUTO ? GDR_MEM_GPU_AUTO
					  : gpu,
	    .gpu_bus_id = rocm ? (o->rocm_bus_id[0] ? o->rocm_bus_id : NULL) : o->cuda_bus_id,
	    .reg =
		rocm ? (o->rocm_dmabuf ? GDR_MEM_REG_DMABUF : GDR_MEM_REG_AUTO) : reg[o->cuda_reg],
	    .pcie_mapping = o->cuda_pcie_mapping,
	    .data_direct = o->data_direct,
	    .hugepages = o->use_hugepages,
	    .pairing = o->pairing,
	    .port = o->ib_port,
	};
}

/* Buffer geometry: [tx region][rx region], each large enough for every size. */
void gdr_size_buffers(struct gdr_conn *c, const struct gdr_test_req *req)
{
	const struct gdr_verb_ops *vo = gdr_verb_ops_of(c->o->verb);
	size_t region = 4096, maxsz = 1;

	for (size_t i = 0; i < req->nsizes; i++) {
		size_t need = req->sizes[i] * gdr_direct_slots(req->sizes[i], c->o->tx_depth,
							       c->o->kind == GDR_KIND_LAT);

		/* a KV cell's staged plan is of its batch's bytes (staging.h, gdr_stage_kv) */
		uint64_t staged =
		    req->sizes[i] * (c->o->kv_nblocks ? gdr_opts_kv_batch(c->o, i) : 1);

		if (gdr_paths_plan(c->o, false).staged && gdr_staging_region_need(c, staged) > need)
			need = gdr_staging_region_need(c, staged);

		if (need > region)
			region = need;
		if (req->sizes[i] > maxsz)
			maxsz = req->sizes[i];
	}
	if (vo->region_min && vo->region_min(c->o) > region) /* e.g. atomic's counters */
		region = vo->region_min(c->o);
	if (c->o->kv_nblocks && c->o->kv_pool > region) /* a KV run: each half holds the pool */
		region = c->o->kv_pool;
	if (c->o->conn == GDR_CONN_UD) /* a UD receive starts with the GRH */
		region += GDR_UD_GRH;
	c->region_len = (region + 4095) & ~(size_t)4095;
	c->recv_len = maxsz + gdr_rx_off(c->o);
}

/* Which sides keep receives posted on path p: the role's, and write latency's immediates. */
static bool needs_recvs(const struct gdr_conn *c, const struct gdr_path *p)
{
	return c->role.posts_recvs || (c->role.lat && gdr_lat_needs_imm(c, p));
}

static bool proxy_runs(const struct gdr_opts *o, bool any_gpu, bool gpu_reg);

/*
 * Write and send latency's gpu-proxy row is the two kernels' ping-pong: the
 * server runs its kernel too (read's server is passive).
 */
static bool proxy_pingpong(const struct gdr_opts *o)
{
	return o->kind == GDR_KIND_LAT && o->verb != GDR_VERB_READ;
}

/*
 * This side's gpu-proxy kernel (the client's; the server's too for the
 * ping-pong), opened (and proved to run) before the paths are planned: true
 * when it runs, else the path is left out with a warning.
 */
static bool proxy_open(struct gdr_conn *c)
{
	char why[256];

	if ((c->is_server && !proxy_pingpong(c->o)) || !gdr_mem_on_device(&c->data))
		return false;
	if (!proxy_runs(c->o, true, gdr_xport_gpu_reg(c->o, &c->link))) {
		const char *absent = c->o->compare ? gdr_paths_proxy_absent(c->o) : NULL;

		if (absent)
			gdr_info("gpu-proxy: %s", absent);
		return false;
	}
	if (gdr_paths_proxy_mem_absent(&c->data)) { /* a rule of the run, not a fault */
		gdr_info("gpu-proxy: %s", gdr_paths_proxy_mem_absent(&c->data));
		return false;
	}
	if (!c->gp &&
	    gdr_gproxy_open(&c->gp, &c->data, (uint64_t)(c->o->timeout * 1e9), why, sizeof(why))) {
		gdr_warn("gpu-proxy path left out: %s", why);
		gdr_gproxy_close(c->gp);
		c->gp = NULL;
		return false;
	}
	return true;
}

#define MEM_GPU_MEM   GDR_GPU_WORD_MEM
#define MEM_GPU_PROXY GDR_GPU_WORD_PROXY
#define MEM_GPU_MPS   GDR_GPU_WORD_MPS
#define MEM_GPU_ID    GDR_GPU_WORD_ID

enum gdr_gp_pair gdr_paths_gp_pair(uint64_t mine, uint64_t peer, const char *gpu, char *note,
				   size_t n)
{
	note[0] = 0;
	if (!(mine & MEM_GPU_ID) || (mine & MEM_GPU_ID) != (peer & MEM_GPU_ID))
		return GDR_GP_APART;
	if (mine & peer & MEM_GPU_MPS) {
		snprintf(note, n,
			 "gpu-proxy row under MPS: both sides on GPU %s, their kernels run at once",
			 gpu);
		return GDR_GP_MPS;
	}
	snprintf(
	    note, n,
	    "no gpu-proxy row: both sides on GPU %s: without MPS their persistent kernels take "
	    "turns (~ms per hand-off); run the sides on different GPUs or under MPS",
	    gpu);
	return GDR_GP_SLICED;
}

/*
 * The peer's MEM_GPU word, checked: the GPU's identity and MPS only with GPU
 * memory, the gpu-proxy bit only from a client with GPU memory whose options
 * let the row run (the server plans the same rows). 0, or -1 (refused: one
 * line, the peer told).
 */
static int peer_gpu_word(struct gdr_conn *c, uint64_t peer)
{
	if ((peer & (MEM_GPU_ID | MEM_GPU_MPS)) && !(peer & MEM_GPU_MEM)) {
		gdr_session_reject(
		    c,
		    "--compare: the %s's GPU word 0x%llx names a GPU (bits 2-63: MPS, "
		    "its identity) without GPU memory (bit 0)",
		    c->is_server ? "client" : "server", (unsigned long long)peer);
		return -1;
	}
	if (!(peer & MEM_GPU_PROXY))
		return 0;
	if (!c->is_server && !proxy_pingpong(c->o))
		gdr_session_reject(c,
				   "--compare: the server claims a gpu-proxy kernel (bit 1 of its "
				   "GPU word): only the client runs one (and, for write and send "
				   "latency, the server)");
	else if (!(peer & MEM_GPU_MEM))
		gdr_session_reject(c,
				   "--compare: the %s claims a gpu-proxy kernel (bit 1 of its "
				   "GPU word) without GPU memory (bit 0)",
				   c->is_server ? "client" : "server");
	else if (!proxy_runs(c->o, true, gdr_xport_gpu_reg(c->o, &c->link)))
		gdr_session_reject(c,
				   "--compare: the %s claims a gpu-proxy kernel (bit 1 of its "
				   "GPU word) under options where the gpu-proxy row does not run",
				   c->is_server ? "client" : "server");
	else
		return 0;
	return -1;
}

/*
 * --compare: does either side test GPU memory (bit 0 of the word each side
 * sends), does its gpu-proxy kernel run (bit 1), under MPS (bit 2), and on
 * which GPU (bits 3-63: gdr_staging_gpu_id, as the staged path's exchange)?
 * Each side knows only its own memory (a -R server sets it up only now), so
 * the two sides tell each other. The row runs where the client's kernel runs,
 * and for the ping-pong (write and send latency) the server's as well, on
 * another GPU or under MPS (gdr_paths_gp_pair): both sides plan the same rows.
 */
static int exchange_gpu(struct gdr_conn *c, bool *any_gpu, bool *proxy)
{
	uint64_t mine = gdr_mem_on_device(&c->data) | (uint64_t)proxy_open(c) << 1 |
			(gdr_mem_mps(&c->data) ? MEM_GPU_MPS : 0) |
			(gdr_staging_gpu_id(c) & MEM_GPU_ID),
		 peer = 0;
	char note[256] = "";
	const char *mem_note;

	if (!c->o->compare)
		return 0;
	if (c->is_server ? gdr_sync_send(c, GDR_STEP_MEM_GPU, mine) ||
			       gdr_sync_expect(c, GDR_STEP_MEM_GPU, &peer)
			 : gdr_sync_expect(c, GDR_STEP_MEM_GPU, &peer) ||
			       gdr_sync_send(c, GDR_STEP_MEM_GPU, mine))
		return -1;
	if (peer_gpu_word(c, peer))
		return -1;
	*any_gpu = (mine | peer) & MEM_GPU_MEM;
	*proxy = ((c->is_server ? peer : mine) & MEM_GPU_PROXY) != 0;
	mem_note = gdr_paths_mem_note(c->is_server, mine & MEM_GPU_MEM, peer & MEM_GPU_MEM);
	if (mem_note)
		gdr_info("%s", mem_note);
	if (proxy_pingpong(c->o)) {
		*proxy = (mine & peer & MEM_GPU_PROXY) != 0;
		if (!c->is_server && (mine & MEM_GPU_PROXY) && !*proxy)
			gdr_info("note: no gpu-proxy row: write and send latency are a ping-pong "
				 "of two kernels, and the server's memory is not on a GPU or its "
				 "kernel did not run");
		switch (*proxy ? gdr_paths_gp_pair(mine, peer, c->data.gpu_pci, note, sizeof(note))
			       : GDR_GP_APART) {
		case GDR_GP_SLICED:
			*proxy = false;
			break;
		case GDR_GP_MPS:
			c->gp_mps = true;
			break;
		case GDR_GP_APART:
			break;
		}
		if (!c->is_server && note[0])
			gdr_info("note: %s", note);
	}
	return 0;
}

const char *gdr_paths_mem_note(bool server, bool mine_gpu, bool peer_gpu)
{
	if (!mine_gpu && !peer_gpu)
		return "note: --compare on host memory (both sides): no direct (GPUDirect) row "
		       "and no ratio; the staged row is the host row's memcpy-staged twin";
	if (mine_gpu == peer_gpu)
		return NULL;
	if (peer_gpu)
		return server ? "note: the client's test memory is on a GPU, this server's is host "
				"memory: the direct row is GPUDirect on the client's side only"
			      : "note: the server's test memory is on a GPU, this client's is host "
				"memory: the direct row is GPUDirect on the server's side only; no "
				"gpu-proxy row (it needs the client's memory on a GPU)";
	return server ? "note: this server's test memory is on a GPU, the client's is host memory: "
			"the direct row is GPUDirect on the server's side only"
		      : "note: this client's test memory is on a GPU, the server's is host memory: "
			"the direct row is GPUDirect on the client's side only";
}

/* --compare with GPU memory on either side: host memory first on both, the wire's reference */
static bool host_ref_runs(const struct gdr_opts *o, bool any_gpu, bool gpu_reg)
{
	(void)gpu_reg;
	return o->compare && any_gpu;
}

/* GPU memory on either side: the transport registers it (gpu_reg: xport_fit.h), or no direct row */
static bool data_runs(const struct gdr_opts *o, bool any_gpu, bool gpu_reg)
{
	return (!o->staged || o->compare) && (!any_gpu || gpu_reg);
}

static bool staged_runs(const struct gdr_opts *o, bool any_gpu, bool gpu_reg)
{
	(void)any_gpu;
	(void)gpu_reg;
	return o->staged || o->compare;
}

/* The staged path's header lines: its choices, and its copier per size and why. */
static void staged_header(struct gdr_run *r)
{
	gdr_staging_describe(&r->c, r->ri.staged, sizeof(r->ri.staged));
	snprintf(r->ri.stage_copy, sizeof(r->ri.stage_copy), "%s", r->stage_copy.desc);
}

/*
 * --compare with the client's test memory on a GPU: the gpu-proxy path, for
 * the bandwidth of write, read and send over up to GDR_GP_MAX_Q RC QPs (a
 * kernel producer and a proxy thread each), for -n iterations or -D seconds
 * (the host stops the kernel at the deadline), and for their latency over
 * one RC QP for -n iterations (its kernels make a count of messages); write
 * and send latency (the kernels' ping-pong) need the server's memory on a
 * GPU and its kernel too (exchange_gpu).
 */
static bool proxy_runs(const struct gdr_opts *o, bool any_gpu, bool gpu_reg)
{
	return any_gpu && o->compare &&
	       (o->kind == GDR_KIND_BW ||
		(o->kind == GDR_KIND_LAT && o->num_qps == 1 && o->duration <= 0)) &&
	       !o->bidir && !o->run_infinitely && !o->kv_nblocks && o->num_qps >= 1 &&
	       o->num_qps <= GDR_GP_MAX_Q && o->conn == GDR_CONN_RC && o->rate_limit <= 0 &&
	       (o->verb == GDR_VERB_WRITE || o->verb == GDR_VERB_READ ||
		o->verb == GDR_VERB_SEND) &&
	       gpu_reg;
}

_Static_assert(GDR_GP_MAX_Q == 8, "gdr_paths_proxy_absent says 8 QPs");

const char *gdr_paths_proxy_absent(const struct gdr_opts *o)
{
	if (o->kind == GDR_KIND_LAT && o->duration > 0)
		return "latency: not with -D (its kernels make a count of messages: use -n)";
	if (o->kind == GDR_KIND_LAT && o->num_qps > 1)
		return "latency: one QP (the ping-pong and the reads run on QP 0)";
	if (o->kind != GDR_KIND_BW)
		return NULL;
	if (o->kv_nblocks)
		return "not with --block (its kernel posts one message a slot, not a batch of "
		       "scattered blocks)";
	if (o->bidir)
		return "not with -b (the target side would need its own kernel)";
	if (o->num_qps > GDR_GP_MAX_Q)
		return "not with more than 8 QPs (a kernel producer and a proxy thread each)";
	if (o->rate_limit > 0)
		return "not with --rate_limit (the kernel paces nothing)";
	return NULL;
}

const char *gdr_paths_proxy_mem_absent(const struct gdr_mem *m)
{
	if (!gdr_mem_on_device(m) || m->cfg.api == GDR_MEM_API_CUDA)
		return NULL;
	return m->cfg.api == GDR_MEM_API_ROCM
		   ? "not with --use_rocm (its kernel is CUDA's: it needs CUDA GPU memory)"
		   : "not with this GPU memory (its kernel is CUDA's: it needs CUDA GPU memory)";
}

/*
 * The paths a run can measure, in the order they run: what memory each
 * registers, which loop moves it, which row it is compared with (the
 * direct/staged ratio), what its rows' path column says, when it runs and
 * what the report's header says of it. gpu-proxy (the kernel of src/gproxy
 * makes each message, a CPU proxy posts the direct path's work request for
 * it) runs only where the client's test memory is on a GPU and its kernel ran
 * there, for write and send latency the server's too (exchange_gpu).
 */
enum path_mem { PM_HOST, PM_DATA, PM_BOUNCE };
static const struct path_row {
	const char
	    *name; /* path column; NULL: "direct" when either side has GPU memory, else "host" */
	enum path_mem mem;
	bool staged; /* the staged loop (staging_bw.c, lat.c's staged mode), else the verbs loop */
	bool proxy;  /* the gpu-proxy loops (engine/bw_proxy.c, lat_proxy.c) */
	int ref;     /* the row whose result it is compared with, or -1 */
	bool (*runs)(const struct gdr_opts *o, bool any_gpu, bool gpu_reg);
	void (*header)(struct gdr_run *r); /* its header lines (NULL: none of its own) */
	const char *stands; /* the production design it stands for (header; docs/compare.md) */
} path_rows[] = {
    {"host", PM_HOST, false, false, -1, host_ref_runs, NULL,
     "the wire's reference: host memory on both sides"},
    {NULL, PM_DATA, false, false, -1, data_runs, NULL,
     "CPU-posted GPUDirect RDMA, as perftest --use_cuda"},
    {"staged", PM_BOUNCE, true, false, 1, staged_runs, staged_header,
     "host staging, as UCX, NCCL and MPI without GPUDirect RDMA"},
    {"gpu-proxy", PM_DATA, false, true, 1, proxy_runs, NULL,
     "GPU-triggered, CPU-posted, as NCCL GIN's proxy backend and UCCL's proxy"},
};
#define NROWS (sizeof(path_rows) / sizeof(path_rows[0]))

/*
 * Which rows run for o, in order: at[i] is row i's index among them, or -1;
 * returns how many run. proxy: the gpu-proxy row may run (its kernel ran, or,
 * for a plan made before the exchange, it might). gpu_reg: the transport
 * registers GPU memory (gdr_xport_gpu_reg).
 */
static uint32_t rows_running(const struct gdr_opts *o, bool any_gpu, bool gpu_reg, bool proxy,
			     int at[NROWS])
{
	uint32_t n = 0;

	for (size_t i = 0; i < NROWS; i++) {
		at[i] = -1;
		if (path_rows[i].runs(o, any_gpu, gpu_reg) && (proxy || !path_rows[i].proxy) &&
		    n < GDR_MAX_PATHS)
			at[i] = (int)n++;
	}
	return n;
}

/* The rows that run here, as --staged/--compare ask (the GPU path is "direct" on both sides). */
static void plan_paths(struct gdr_conn *c, bool any_gpu, bool proxy)
{
	struct gdr_mem *mem[] = {
	    [PM_HOST] = &c->hostmem, [PM_DATA] = &c->data, [PM_BOUNCE] = &c->bounce};
	bool gpu = gdr_mem_on_device(&c->data) || any_gpu;
	int at[NROWS];
	bool gpu_reg = gdr_xport_gpu_reg(c->o, &c->link);

	c->npaths = rows_running(c->o, any_gpu, gpu_reg, proxy, at);
	if (!c->is_server && c->o->compare && any_gpu && !gpu_reg)
		gdr_info(
		    "note: no direct or gpu-proxy row: the %s transport%s%s: " GDR_XPORT_NO_GPU_REG,
		    c->xp->name, c->link.provider[0] ? " with provider " : "", c->link.provider);
	for (size_t i = 0; i < NROWS; i++) {
		const struct path_row *w = &path_rows[i];

		if (at[i] < 0)
			continue;
		c->path[at[i]] = (struct gdr_path){
		    .name = w->name ? w->name
			    : gpu   ? "direct"
				    : "host",
		    .staged = w->staged,
		    .proxy = w->proxy,
		    .mem = mem[w->mem],
		    .ref = w->ref >= 0 ? at[w->ref] : -1,
		    .row = (unsigned int)i,
		};
	}
}

void gdr_paths_header(struct gdr_run *r)
{
	size_t at = 0;

	r->ri.paths[0] = 0;
	for (uint32_t k = 0; k < r->c.npaths; k++) {
		const struct gdr_path *p = &r->c.path[k];
		/* the GPU row is "host" with host memory on both sides: the host row's words */
		const char *stands =
		    strcmp(p->name, "host") ? path_rows[p->row].stands : path_rows[0].stands;

		r->ri.staged_path |= p->staged;
		r->ri.ref_path |= p->ref >= 0;
		/* a ratio only against GPUDirect: host memory on both sides has no direct row */
		r->ri.ratio_col |= p->ref >= 0 && !strcmp(r->c.path[p->ref].name, "direct");
		if (path_rows[p->row].header)
			path_rows[p->row].header(r);
		/* what each path stands for, unless the run is one host path */
		if ((r->c.npaths > 1 || strcmp(p->name, "host")) && at < sizeof(r->ri.paths))
			at += (size_t)snprintf(r->ri.paths + at, sizeof(r->ri.paths) - at,
					       "%s%-9s %s%s", at ? "\n" : "", p->name, stands,
					       p->proxy && r->c.gp_mps
						   ? "; under MPS, both sides' kernels on one GPU"
						   : "");
	}
}

static struct gdr_path_plan plan_of(const struct gdr_opts *o, bool any_gpu, bool gpu_reg)
{
	struct gdr_path_plan pp = {0};
	int at[NROWS];

	pp.n = rows_running(o, any_gpu, gpu_reg, true, at);
	for (size_t i = 0; i < NROWS; i++)
		if (at[i] >= 0) {
			pp.staged |= path_rows[i].staged;
			pp.ref |= path_rows[i].ref >= 0 && at[path_rows[i].ref] >= 0;
			pp.host_mem |= path_rows[i].mem == PM_HOST;
		}
	return pp;
}

struct gdr_path_plan gdr_paths_plan(const struct gdr_opts *o, bool any_gpu)
{
	return plan_of(o, any_gpu, gdr_xport_gpu_reg(o, NULL));
}

struct gdr_path_plan gdr_paths_plan_on(const struct gdr_conn *c, bool any_gpu)
{
	return plan_of(c->o, any_gpu, gdr_xport_gpu_reg(c->o, &c->link));
}

/* -c UD: one packet per message, so every size must fit the path MTU. */
static int ud_sizes_fit(const struct gdr_conn *c, const struct gdr_test_req *req)
{
	uint32_t mtu = c->link.mtu; /* the path MTU, the transport's word */

	for (size_t i = 0; i < req->nsizes; i++)
		if (req->sizes[i] > mtu) {
			gdr_err("-c UD: %llu-byte messages do not fit the path MTU of %u bytes "
				"(UD sends one packet per message: use sizes up to %u)",
				(unsigned long long)req->sizes[i], mtu, mtu);
			return -1;
		}
	return 0;
}

/* Verbs' own path: its MR, QPs (or the CM's), the exchange, RTS, then the seam's wrappers. */
static int verbs_path(struct gdr_conn *c, const struct gdr_test_req *req, struct gdr_path *p)
{
	if (gdr_mr_register(c, p))
		return -1;
	if (!c->o->rdma_cm && gdr_qps_create(c, p))
		return -1;
	if (gdr_session_qpinfo(c, p))
		return -1;
	if (!c->o->rdma_cm && gdr_qps_connect(c, p))
		return -1;
	if (c->o->conn == GDR_CONN_UD && ud_sizes_fit(c, req))
		return -1;
	if (gdr_vx_wrap_path(c, p)) /* the engine and staging post through c->xp from here */
		return -1;
	if (c->o->qp_addr && !c->o->quiet) {
		struct gdr_report_files rf = gdr_run_report_files(c->o);

		/* with the text, off JSON's stdout */
		gdr_qp_addr_print(c, p, gdr_text_stream(&rf));
	}
	return 0;
}

static int connect_path(struct gdr_conn *c, const struct gdr_test_req *req, struct gdr_path *p)
{
	if (gdr_xpath_on(c) ? gdr_xpath_connect(c, p) : verbs_path(c, req, p))
		return -1;
	if (p->staged)
		return gdr_staged_prepost(c, p);
	if (needs_recvs(c, p))
		for (uint32_t q = 0; q < c->nqp; q++)
			if (gdr_post_rx(c, p, q, c->o->rx_depth, c->recv_len))
				return -1;
	return 0;
}

int gdr_connect_paths(struct gdr_conn *c, const struct gdr_test_req *req)
{
	struct gdr_opts *o = c->o;
	struct gdr_mem_cfg mc = gdr_run_mem_cfg(o);
	bool any_gpu = false; /* --compare: either side's test memory is GPU memory */
	bool proxy = false;   /* --compare: the client's gpu-proxy kernel runs */

	/* -R server: the device closed for the CM; near the one placed for until it connects. */
	if (!c->data.ops && gdr_mem_init(&c->data, &mc, c->placed_dev[0] ? c->placed_dev : NULL))
		return -1;
	/* a server's queues are its client's: the transport's device opened again for them */
	if (gdr_xpath_on(c) && c->is_server && gdr_xpath_open(c))
		return -1;
	if (exchange_gpu(c, &any_gpu, &proxy))
		return -1;
	plan_paths(c, any_gpu, proxy);
	if (o->rdma_cm && (c->is_server ? gdr_cm_server(c) : gdr_cm_client(c)))
		return -1;
	if (c->data.ops->alloc(&c->data, 2 * c->region_len))
		return -1;
	if (c->path[0].mem == &c->hostmem) {
		c->hostmem.ops = &gdr_mem_host_ops;
		snprintf(c->hostmem.desc, sizeof(c->hostmem.desc), "host memory");
		if (c->hostmem.ops->alloc(&c->hostmem, 2 * c->region_len))
			return -1;
	}
	if (gdr_paths_plan_on(c, any_gpu).staged &&
	    gdr_mem_bounce_init(&c->bounce, &c->data, gdr_staging_bounce_len(c->region_len)))
		return -1;
	if (!o->rdma_cm && !gdr_xpath_on(c) && gdr_cqs_create(c))
		return -1;
	for (uint32_t k = 0; k < c->npaths; k++)
		if (connect_path(c, req, &c->path[k]))
			return -1;
	return 0;
}

void gdr_paths_free(struct gdr_conn *c)
{
	gdr_gproxy_close(c->gp); /* its kernel ends before the test memory goes */
	c->gp = NULL;
	gdr_mem_fini(&c->bounce);
	gdr_mem_fini(&c->hostmem);
	gdr_mem_fini(&c->data);
}
