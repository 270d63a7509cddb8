/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw options: its rows in the one option engine (it is not an RDMA test). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "copier_names.h"
#include "log.h"
#include "opt_tool.h"
#include "opts.h"
#include "stage.h"

#define F(field)   GDR_OPT_FIELD(struct stage_opts, field)
#define SIZE_LIMIT (1ULL << 30)

static const char *const dir_words[] = {"h2d", "d2h", "bidir", "all", NULL};
static const unsigned int dir_bits[] = {STAGE_H2D, STAGE_D2H, STAGE_BIDIR, STAGE_ALL};
const char *const stage_copier_words[] = {GDR_GPU_COPIERS(GDR_COPIER_WORD) NULL};
static const struct gdr_optdef stage_optdef;

static int sweep_value(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		       bool user)
{
	struct stage_opts *o = settings;

	(void)user;
	if (gdr_opt_sweep(lab, s, (uint64_t)e->max, &o->sweep_min, &o->sweep_max, &o->sweep_factor))
		return -1;
	o->sweep_set = true;
	return 0;
}

/* --block=SIZE[,SIZE...] and --batch=N[,N...]: the test's lists (opts_kv.c's parser). */
static int blocks_value(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
			bool user)
{
	struct stage_opts *o = settings;
	int n = gdr_kv_list(s, lab, true, (uint64_t)e->min, (uint64_t)e->max, o->kv_blocks);

	(void)user;
	if (n < 0)
		return -1;
	o->kv_nblocks = (uint32_t)n;
	return 0;
}

static int batch_value(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		       bool user)
{
	struct stage_opts *o = settings;
	int n = gdr_kv_list(s, lab, false, (uint64_t)e->min, (uint64_t)e->max, o->kv_batch);

	(void)user;
	if (n < 0)
		return -1;
	o->kv_nbatch = (uint32_t)n;
	return 0;
}

static int place_value(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		       bool user)
{
	struct stage_opts *o = settings;

	(void)e;
	(void)user;
	return gdr_kv_place_value(s, lab, &o->kv_place);
}

/* --use_cuda=IDX, all, or A,B,... (each GPU once). */
static int gpus_value(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user)
{
	struct stage_opts *o = settings;
	const char *p = s;

	(void)e;
	(void)user;
	o->gpus_all = false;
	o->ngpus = 0;
	if (!strcmp(s, "all")) {
		o->gpus_all = true;
		return 0;
	}
	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v < 0 || v > 1023 || (*end && *end != ',')) {
			gdr_err("%s=%s: not a GPU index, 'all' or a list such as 0,2,5", lab, s);
			return -1;
		}
		if (!strchr(s, ',')) {
			o->use_cuda = (int)v;
			return 0;
		}
		for (size_t i = 0; i < o->ngpus; i++) {
			if (o->gpus[i] == (int)v) {
				gdr_err("%s=%s: GPU %ld is listed twice", lab, s, v);
				return -1;
			}
		}
		if (o->ngpus == STAGE_MAX_GPUS) {
			gdr_err("%s=%s: more than %d GPUs", lab, s, STAGE_MAX_GPUS);
			return -1;
		}
		o->gpus[o->ngpus++] = (int)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* --use_rocm=IDX, all, or A,B,...: the same GPUs, HIP's (AMD). */
static int rocm_value(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user)
{
	struct stage_opts *o = settings;

	o->rocm = true;
	return gpus_value(e, settings, s, lab, user);
}

static const struct gdr_opt rows[] = {
    {.name = "size",
     .letter = 's',
     .arg = "SIZE",
     .type = GDR_OT_SIZE,
     F(size),
     .min = 1,
     .max = SIZE_LIMIT,
     .help = "one copy size (suffix K, M, G = KiB, MiB, GiB)"},
    {.name = "all",
     .letter = 'a',
     .type = GDR_OT_FLAG,
     F(all),
     .def_text = "on without -s or --sizes",
     .help = "sweep 4K..256M in powers of two"},
    {.name = "sizes",
     .arg = "MIN:MAX[:F]",
     .type = GDR_OT_CUSTOM,
     .off = offsetof(struct stage_opts, sweep_set),
     .span = offsetof(struct stage_opts, sweep_factor) + sizeof(uint32_t) -
	     offsetof(struct stage_opts, sweep_set),
     .parse = sweep_value,
     .min = 1,
     .max = SIZE_LIMIT,
     .help = "sweep MIN..MAX multiplying by F (default 2)"},
    {.name = "iters",
     .letter = 'n',
     .arg = "N",
     .type = GDR_OT_U64,
     F(iters),
     .def_text = "~2 GiB worth, 20..10000",
     .min = 1,
     .max = 100000000,
     .help = "copies per measurement"},
    {.name = "time",
     .letter = 'D',
     .arg = "S",
     .type = GDR_OT_DOUBLE,
     F(time),
     .min = 0,
     .max = 3600,
     .min_excl = true,
     .help = "each measurement about S seconds: the copies follow from the rate the "
	     "warm-up measured, not from --iters"},
    {.name = "reps",
     .arg = "R",
     .type = GDR_OT_U32,
     F(reps),
     .def = "3",
     .min = 1,
     .max = 1000,
     .help = "measurements per row, the best is reported"},
    {.name = "dir",
     .arg = "DIR",
     .type = GDR_OT_CHOICE,
     F(dir),
     .def = "all",
     .choices = dir_words,
     .help = "h2d, d2h, bidir or all"},
    {.name = "pageable",
     .type = GDR_OT_FLAG,
     F(pageable),
     .help = "host side in pageable (malloc) memory, not pinned"},
    {.name = "streams",
     .arg = "N",
     .type = GDR_OT_INT,
     F(streams),
     .def = "1",
     .min = 1,
     .max = 8,
     .help = "copies queued round robin on N streams, 1..8"},
    {.name = "copier",
     .arg = "KIND",
     .type = GDR_OT_CHOICE,
     F(copier),
     .def = "ce",
     .choices = stage_copier_words,
     .help = "ce (copy engine), gdrcopy (CPU via BAR1), sm (GPU kernel) or batch (ce, lists batched)"},
    {.name = "use_cuda",
     .arg = "IDX|all|LIST",
     .type = GDR_OT_CUSTOM,
     .off = offsetof(struct stage_opts, use_cuda),
     .span = offsetof(struct stage_opts, ngpus) + sizeof(size_t) -
	     offsetof(struct stage_opts, use_cuda),
     .parse = gpus_value,
     .def_text = "0",
     .help = "GPU index; all or a list (0,2,5): every GPU at once, one thread each"},
    {.name = "use_rocm",
     .arg = "IDX|all|LIST",
     .type = GDR_OT_CUSTOM,
     .off = offsetof(struct stage_opts, rocm),
     .span =
	 offsetof(struct stage_opts, ngpus) + sizeof(size_t) - offsetof(struct stage_opts, rocm),
     .parse = rocm_value,
     .help = "AMD GPU (HIP's index) instead, likewise: all or a list at once"},
    {.name = "block",
     .arg = "SIZE[,SIZE...]",
     .type = GDR_OT_CUSTOM,
     .off = offsetof(struct stage_opts, kv_nblocks),
     .span = offsetof(struct stage_opts, kv_blocks) + sizeof(uint64_t) * STAGE_KV_LIST -
	     offsetof(struct stage_opts, kv_nblocks),
     .parse = blocks_value,
     .def_text = "no block lists",
     .min = 1,
     .max = SIZE_LIMIT,
     .help = "KV blocks: gather (d2h) and scatter (h2d) a block list a batch, beside "
	     "one contiguous copy of the same bytes"},
    {.name = "batch",
     .arg = "N[,N...]",
     .type = GDR_OT_CUSTOM,
     .off = offsetof(struct stage_opts, kv_nbatch),
     .span = offsetof(struct stage_opts, kv_batch) + sizeof(uint64_t) * STAGE_KV_LIST -
	     offsetof(struct stage_opts, kv_nbatch),
     .parse = batch_value,
     .def_text = "1",
     .min = 1,
     .max = GDR_KV_MAX_BATCH,
     .help = "blocks per batch with --block (one list copy); -n counts batches"},
    {.name = "pool",
     .arg = "SIZE",
     .type = GDR_OT_SIZE,
     F(kv_pool),
     .def_text = "2 x the largest block x batch",
     .min = 1,
     .max = GDR_KV_MAX_POOL,
     .help = "the GPU pool the blocks are placed in, bytes (with --block)"},
    {.name = "place",
     .arg = "seq|stride:N|random[:SEED]",
     .type = GDR_OT_CUSTOM,
     F(kv_place),
     .parse = place_value,
     .def_text = "seq",
     .help = "where a batch's blocks lie in the pool (with --block)"},
    GDR_TOOL_ROW_BUS_ID(struct stage_opts, cuda_bus_id),
    {.name = "csv",
     .arg = "FILE",
     .type = GDR_OT_STR,
     F(csv_file),
     .help = "also write the rows as CSV to FILE"},
    {.name = "json",
     .arg = "FILE",
     .type = GDR_OT_STR,
     F(json_file),
     .help = "also write the rows as JSON to FILE (with all or a list)"},
    GDR_TOOL_ROW_QUIET(struct stage_opts, quiet),
    GDR_TOOL_ROWS_HELP_VERSION,
};

static const struct gdr_opt_rule rules[] = {
    {GDR_R_EXCLUDES, "iters", "time", "copies by count or by time, not both"},
    {GDR_R_EXCLUDES, "size", "all", "pick one way to give sizes"},
    {GDR_R_EXCLUDES, "size", "sizes", "pick one way to give sizes"},
    {GDR_R_EXCLUDES, "all", "sizes", "pick one way to give sizes"},
    {GDR_R_EXCLUDES, "use_rocm", "use_cuda", "the GPUs are AMD's or NVIDIA's"},
    {GDR_R_EXCLUDES, "block", "size", "--block gives the copies' sizes"},
    {GDR_R_EXCLUDES, "block", "all", "--block gives the copies' sizes"},
    {GDR_R_EXCLUDES, "block", "sizes", "--block gives the copies' sizes"},
    {GDR_R_EXCLUDES, "block", "time", "--block counts batches with -n"},
    {GDR_R_EXCLUDES, "block", "pageable", "block lists copy pinned host memory"},
    {GDR_R_NEEDS, "batch", "block", "a batch is of --block's blocks"},
    {GDR_R_NEEDS, "pool", "block", "the pool holds --block's blocks"},
    {GDR_R_NEEDS, "place", "block", "the placement is of --block's blocks"},
    {GDR_R_EXCLUDES, "use_rocm", "use_cuda_bus_id", "the GPUs are AMD's or NVIDIA's"},
};

static void head(FILE *f, const void *ctx)
{
	(void)ctx;
	fprintf(f, "Usage: gdr_stage_bw [options]\n"
		   "Measures host<->GPU copies (the copy leg of a staged transfer), no NIC.\n");
}

/* MIN, MIN*F, ... up to MAX. */
static int sweep(struct stage_opts *o, uint64_t lo, uint64_t hi, uint64_t f)
{
	o->nsizes = 0;
	for (uint64_t v = lo; v <= hi; v *= f) {
		if (o->nsizes == STAGE_MAX_SIZES) {
			gdr_err("too many sizes (at most %d): use a larger factor",
				STAGE_MAX_SIZES);
			return -1;
		}
		o->sizes[o->nsizes++] = v;
		if (v > hi / f)
			break;
	}
	return 0;
}

/* The block-list run's rules: a copier that takes lists, one GPU, a pool that holds a batch. */
static int kv_check(struct stage_opts *o)
{
	uint64_t most = 0;

	if (!gdr_opt_is_set(&stage_optdef, o, &o->kv_place))
		o->kv_place = (struct gdr_kv_place){
		    .kind = GDR_KV_SEQ, .stride = 1, .seed = GDR_KV_SEED_DEFAULT};
	if (!o->kv_nbatch) {
		o->kv_nbatch = 1;
		o->kv_batch[0] = 1;
	}
	for (uint32_t j = 0; j < o->kv_nbatch && !strcmp(stage_copier_words[o->copier], "sm"); j++)
		if (o->kv_batch[j] > GDR_COPIER_SM_LIST_MAX) {
			gdr_err("--copier=sm with --batch=%llu: over the %d blocks the kernel's "
				"block table holds",
				(unsigned long long)o->kv_batch[j], GDR_COPIER_SM_LIST_MAX);
			return -1;
		}
	if (stage_is_multi(o)) {
		gdr_err("--block measures one GPU: give --use_cuda=IDX, not all or a list");
		return -1;
	}
	if (o->dirs == STAGE_BIDIR) {
		gdr_err("--dir=bidir with --block: a batch is gathered (d2h) or scattered (h2d)");
		return -1;
	}
	for (uint32_t i = 0; i < o->kv_nblocks; i++)
		for (uint32_t j = 0; j < o->kv_nbatch; j++) {
			uint64_t b = o->kv_blocks[i] * o->kv_batch[j];

			if (b > SIZE_LIMIT) {
				gdr_err("--block=%llu x --batch=%llu: %llu bytes a batch, over the "
					"1G a contiguous copy may be",
					(unsigned long long)o->kv_blocks[i],
					(unsigned long long)o->kv_batch[j], (unsigned long long)b);
				return -1;
			}
			if (o->kv_pool && o->kv_pool / o->kv_blocks[i] < o->kv_batch[j]) {
				gdr_err("--pool=%llu holds %llu blocks of %llu bytes, fewer than "
					"--batch=%llu",
					(unsigned long long)o->kv_pool,
					(unsigned long long)(o->kv_pool / o->kv_blocks[i]),
					(unsigned long long)o->kv_blocks[i],
					(unsigned long long)o->kv_batch[j]);
				return -1;
			}
			most = b > most ? b : most;
		}
	if (!o->kv_pool)
		o->kv_pool = 2 * most;
	return 0;
}

/* The run's sizes and directions from the options. */
static int check(void *settings, const void *ctx)
{
	struct stage_opts *o = settings;

	(void)ctx;
	o->dirs = dir_bits[o->dir];
	o->copier_given = gdr_opt_is_set(&stage_optdef, o, &o->copier);
	if (o->pageable && !strcmp(stage_copier_words[o->copier], "sm")) {
		gdr_err("--copier=sm needs pinned host memory: the kernel cannot address "
			"--pageable (malloc) memory");
		return -1;
	}
	if (stage_is_multi(o) && o->cuda_bus_id) {
		gdr_err("--use_cuda=all or a list and --use_cuda_bus_id exclude each other");
		return -1;
	}
	if (o->json_file && !stage_is_multi(o)) {
		gdr_err("--json needs %s=all or a list of GPUs (one GPU: use --csv)",
			o->rocm ? "--use_rocm" : "--use_cuda");
		return -1;
	}
	if (o->streams > 4 && o->dirs == STAGE_BIDIR) {
		gdr_err("--dir=bidir with --streams=%d: bidir uses 2 x N streams, so N <= 4",
			o->streams);
		return -1;
	}
	if (o->kv_nblocks)
		return kv_check(o);
	if (o->sweep_set)
		return sweep(o, o->sweep_min, o->sweep_max, o->sweep_factor);
	if (o->size) {
		o->sizes[0] = o->size;
		o->nsizes = 1;
		return 0;
	}
	return sweep(o, 4096, 256ULL << 20, 2);
}

static const struct gdr_optdef stage_optdef = {
    GDR_TOOL_TABLE(rows, rules),
    .help_col = 33,
    .set_off = offsetof(struct stage_opts, set_bits),
    .head = head,
    .tail = "GB/s is 10^9 bytes per second; bidir counts both directions.\n",
    .positional = gdr_tool_no_host,
    .check = check,
};

int stage_parse(struct stage_opts *o, int argc, char **argv)
{
	return gdr_tool_parse(&stage_optdef, o, sizeof(*o), "gdr_stage_bw", argc, argv);
}

void stage_opts_free(struct stage_opts *o)
{
	gdr_optfree(&stage_optdef, o);
}
