/* SPDX-License-Identifier: MIT */
/* Path setup: buffer geometry, memory, the paths a run measures (host, direct, staged), QPs. */
#ifndef GDR_PATH_SETUP_H
#define GDR_PATH_SETUP_H

#include "conn.h"
#include "mem.h"
#include "opts.h"
#include "results.h"
#include "run_state.h"
#include "test_req.h"

/* The memory the options ask for, in memory's terms. */
struct gdr_mem_cfg gdr_run_mem_cfg(const struct gdr_opts *o);
/* Buffer geometry (c->region_len, c->recv_len) for every size of the test. */
void gdr_size_buffers(struct gdr_conn *c, const struct gdr_test_req *req);
/* Memory, the paths, the CM or the QPs, each path's MR and receives. 0 or -1 (printed). */
int gdr_connect_paths(struct gdr_conn *c, const struct gdr_test_req *req);
/* Free the memory gdr_connect_paths allocated (after the MRs are gone: gdr_verbs_close). */
void gdr_paths_free(struct gdr_conn *c);
/*
 * The report's header from the run's paths (after gdr_connect_paths): each
 * path's row adds its lines (staged: its choices and copier), and
 * r->ri.staged_path / ref_path say which columns the table has.
 */
void gdr_paths_header(struct gdr_run *r);
/*
 * What the path rows plan for o before any path exists (any_gpu: either
 * side's test memory is GPU memory, which only adds the host reference):
 * how many paths, whether one is staged (bounce buffers, the size's staging
 * state, the copier choice), whether one is compared with another, whether
 * one has its own host memory (the host reference).
 */
struct gdr_path_plan {
	uint32_t n;
	bool staged, ref, host_mem;
};
struct gdr_path_plan gdr_paths_plan(const struct gdr_opts *o, bool any_gpu);
/* The same for c once its transport is open: GPU memory as its device registers it (c->link). */
struct gdr_path_plan gdr_paths_plan_on(const struct gdr_conn *c, bool any_gpu);
/*
 * --compare with the client's memory on a GPU: why o leaves the gpu-proxy
 * row out, in the words of its info line ("not with -b (...)"), or NULL
 * (it runs, or another rule leaves it out; --compare itself refuses UC, UD
 * and --run_infinitely).
 */
const char *gdr_paths_proxy_absent(const struct gdr_opts *o);
/*
 * Why m, GPU memory, cannot have the gpu-proxy row (its kernel is CUDA's: ROCm's is
 * left out), in the words of its info line, or NULL (host memory, or CUDA's).
 */
const char *gdr_paths_proxy_mem_absent(const struct gdr_mem *m);
/*
 * --compare: the one line a run prints about where each side's test memory
 * is, when that changes what the rows mean (host memory on both: no direct
 * row and no ratio; GPU memory on one side only: the direct row is GPUDirect
 * on that side only), or NULL (GPU memory on both sides).
 */
const char *gdr_paths_mem_note(bool server, bool mine_gpu, bool peer_gpu);
/*
 * --compare's GPU word (GDR_STEP_MEM_GPU), one from each side: its test
 * memory is GPU memory, its gpu-proxy kernel runs, the GPU runs its kernels
 * under MPS, and the GPU's identity (gdr_staging_gpu_id, bits 3-63).
 */
#define GDR_GPU_WORD_MEM   1ULL
#define GDR_GPU_WORD_PROXY 2ULL
#define GDR_GPU_WORD_MPS   4ULL
#define GDR_GPU_WORD_ID	   (~7ULL)
/*
 * Write and send latency's gpu-proxy row is a ping-pong of both sides'
 * kernels. From this side's and the peer's GPU words: APART (other GPUs, or
 * not known: the row runs, note empty), SLICED (one GPU, not MPS on both
 * sides: without MPS two processes' kernels take turns, ~2 ms per hand-off on
 * an H200, so the row is left out and note says why), MPS (one GPU under
 * MPS: the row runs, note says so). gpu names the GPU in note.
 */
enum gdr_gp_pair { GDR_GP_APART, GDR_GP_SLICED, GDR_GP_MPS };
enum gdr_gp_pair gdr_paths_gp_pair(uint64_t mine, uint64_t peer, const char *gpu, char *note,
				   size_t n);

#endif
