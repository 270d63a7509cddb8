/* SPDX-License-Identifier: MIT */
/*
 * The KV-cache-shaped run's options (docs/kv.md): --block, --batch, --pool,
 * --place, --kv-model; their values, the rules between them, and the cells
 * (block x batch) a run measures.
 */
#include <string.h>
#include "copier_names.h"
#include "log.h"
#include "opts_table.h"

#define STR_(x)	      #x
#define STR(x)	      STR_(x)
#define SM_LIST_MAX_S STR(GDR_COPIER_SM_LIST_MAX)

int gdr_kv_list(const char *s, const char *lab, bool sizes, uint64_t min, uint64_t max,
		uint64_t *vals)
{
	char buf[256], *save = NULL, *f;
	int n = 0;

	if (!*s || strlen(s) >= sizeof(buf)) {
		gdr_err("%s: '%s' is not a list of %s", lab, s, sizes ? "sizes" : "counts");
		return -1;
	}
	strcpy(buf, s);
	for (f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		double d;

		if (n == GDR_KV_MAX_LIST) {
			gdr_err("%s: at most %d values", lab, GDR_KV_MAX_LIST);
			return -1;
		}
		if (sizes ? gdr_parse_size(f, &v) : gdr_opt_double(f, &d) || d != (uint64_t)d) {
			gdr_err("%s: '%s' is not a %s", lab, f,
				sizes ? "size (bytes; suffix K, M, G)" : "whole number");
			return -1;
		}
		if (!sizes)
			v = (uint64_t)d;
		if (v < min || v > max) {
			gdr_err("%s: %s is out of range %llu..%llu", lab, f,
				(unsigned long long)min, (unsigned long long)max);
			return -1;
		}
		vals[n++] = v;
	}
	if (!n) {
		gdr_err("%s: '%s' is not a list of %s", lab, s, sizes ? "sizes" : "counts");
		return -1;
	}
	return n;
}

int gdr_test_kv_blocks(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		       bool user)
{
	struct gdr_opts *o = settings;
	int n = gdr_kv_list(s, lab, true, (uint64_t)e->min, (uint64_t)e->max, o->kv_blocks);

	(void)user;
	if (n < 0)
		return -1;
	o->kv_nblocks = (uint32_t)n;
	return 0;
}

int gdr_test_kv_batch(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user)
{
	struct gdr_opts *o = settings;
	uint64_t v[GDR_KV_MAX_LIST];
	int n = gdr_kv_list(s, lab, false, (uint64_t)e->min, (uint64_t)e->max, v);

	(void)user;
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		o->kv_batch[i] = (uint32_t)v[i];
	o->kv_nbatch = (uint32_t)n;
	return 0;
}

int gdr_kv_place_value(const char *s, const char *lab, struct gdr_kv_place *out)
{
	char why[128];

	if (gdr_kv_place_parse(s, out, why, sizeof(why))) {
		gdr_err("%s: '%s': %s", lab, s, why);
		return -1;
	}
	return 0;
}

int gdr_test_kv_place(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user)
{
	struct gdr_opts *o = settings;

	(void)e;
	(void)user;
	return gdr_kv_place_value(s, lab, &o->kv_place);
}

int gdr_test_kv_model(const struct gdr_opt *e, void *settings, const char *s, const char *lab,
		      bool user)
{
	struct gdr_opts *o = settings;
	struct gdr_kv_shape sh;
	char why[200];

	(void)e;
	(void)user;
	if (gdr_kv_model_parse(s, &o->kv_model, why, sizeof(why)) ||
	    gdr_kv_model_shape(&o->kv_model, &sh, why, sizeof(why))) {
		gdr_err("%s: %s", lab, why);
		return -1;
	}
	o->kv_model_set = true;
	return 0;
}

uint32_t gdr_opts_kv_batch(const struct gdr_opts *o, size_t i)
{
	return o->kv_nbatch ? o->kv_batch[i % o->kv_nbatch] : 0;
}

uint64_t gdr_opts_kv_pool_default(const struct gdr_opts *o)
{
	uint64_t most = 0;

	for (uint32_t i = 0; i < o->kv_nblocks; i++)
		for (uint32_t j = 0; j < o->kv_nbatch; j++)
			if (o->kv_blocks[i] * o->kv_batch[j] > most)
				most = o->kv_blocks[i] * o->kv_batch[j];
	return 2 * most;
}

/* --stage_copy's words after auto (opts_table.c): the GPU copiers, in their list's order */
static const char *const gpu_copier[] = {GDR_GPU_COPIERS(GDR_COPIER_WORD) NULL};

/* What a KV run does not combine with (beyond the table's rules): NULL, or the option and why. */
static const char *refusal(const struct gdr_opts *o, const char **opt)
{
	*opt = NULL;
	if (o->verb != GDR_VERB_WRITE && o->verb != GDR_VERB_READ)
		return *opt = "--write_with_imm", "KV batches are plain writes or reads";
	if (o->conn != GDR_CONN_RC)
		return *opt = "-c", "KV batches run on RC";
	if (gdr_opts_is_set(o, &o->cq_mod))
		return *opt = "-Q", "a batch is signalled once, at its last block";
	if (gdr_opts_is_set(o, &o->post_list))
		return *opt = "-l", "a batch is posted in one call";
	if (o->rate_limit > 0)
		return *opt = "--rate_limit", "batches are posted as fast as the queue allows";
	/* the staged path's block lists (staging/copier.h submit_list): the sm kernel's table
	 * holds so many blocks; the server's own --stage_copy is checked where it chooses
	 * (staging/choose.c) */
	if ((o->staged || o->compare) && o->stage_copy > 0 &&
	    !strcmp(gpu_copier[o->stage_copy - 1], "sm"))
		for (uint32_t j = 0; j < o->kv_nbatch; j++)
			if (o->kv_batch[j] > GDR_COPIER_SM_LIST_MAX)
				return *opt = "--stage_copy=sm",
				       "a batch of over " SM_LIST_MAX_S " blocks (the kernel's "
				       "block table holds " SM_LIST_MAX_S ")";
	return NULL;
}

/*
 * --regions=M: the pool in M equal regions, each a whole number of every block's slots
 * (a block never straddles two regions), on a transport that names a region's bytes by
 * address: 0 or -1 (printed).
 */
static int regions_check(const struct gdr_opts *o)
{
	uint32_t m = o->kv_regions ? o->kv_regions : 1;

	if (m == 1)
		return 0;
	if (o->transport && !strcmp(o->transport, "ofi")) {
		gdr_err("--regions=%u over --transport=ofi: not built (a provider without "
			"FI_MR_VIRT_ADDR addresses each region from its own start)",
			m);
		return -1;
	}
	for (uint32_t i = 0; i < o->kv_nblocks; i++) {
		uint64_t slots = o->kv_pool / o->kv_blocks[i];

		if (slots % m) {
			gdr_err("--regions=%u: does not divide the pool's %llu slots of %llu bytes "
				"(--pool=%llu); give M dividing every block's slot count",
				m, (unsigned long long)slots, (unsigned long long)o->kv_blocks[i],
				(unsigned long long)o->kv_pool);
			return -1;
		}
	}
	return 0;
}

/*
 * --sge=N: a batch is whole work requests of N blocks, and a run of N consecutive slots (at
 * a multiple of N) never straddles a region: N divides every --batch and every block's
 * slots per region; over a transport with SGE lists: 0 or -1 (printed).
 */
static int sge_check(const struct gdr_opts *o)
{
	uint32_t n = o->kv_sge ? o->kv_sge : 1, m = o->kv_regions ? o->kv_regions : 1;

	if (n == 1)
		return 0;
	if (o->transport && !strcmp(o->transport, "ofi")) {
		gdr_err("--sge=%u over --transport=ofi: not built (its posts take one local range)",
			n);
		return -1;
	}
	for (uint32_t j = 0; j < o->kv_nbatch; j++)
		if (o->kv_batch[j] % n) {
			gdr_err(
			    "--sge=%u: does not divide --batch=%u; a batch is whole work requests "
			    "of %u blocks",
			    n, o->kv_batch[j], n);
			return -1;
		}
	for (uint32_t i = 0; i < o->kv_nblocks; i++) {
		uint64_t slots = o->kv_pool / o->kv_blocks[i] / m;

		if (slots % n) {
			gdr_err(
			    "--sge=%u: does not divide the %llu slots of %llu bytes a region holds "
			    "(--pool=%llu, --regions=%u); a run of %u slots would straddle two",
			    n, (unsigned long long)slots, (unsigned long long)o->kv_blocks[i],
			    (unsigned long long)o->kv_pool, m, n);
			return -1;
		}
	}
	return 0;
}

int gdr_opts_kv_check(struct gdr_opts *o)
{
	uint32_t most = 0;
	const char *opt, *why;

	if (o->kv_model_set) {
		struct gdr_kv_shape sh;
		char err[200];

		if (gdr_kv_model_shape(&o->kv_model, &sh, err, sizeof(err)))
			return gdr_err("--kv-model: %s", err), -1;
		if (sh.block > GDR_MAX_MSG_SIZE)
			return gdr_err("--kv-model: a block of %llu bytes, over 1 GiB",
				       (unsigned long long)sh.block),
			       -1;
		o->kv_nblocks = 1;
		o->kv_blocks[0] = sh.block;
		if (!o->kv_nbatch) {
			o->kv_nbatch = 1;
			o->kv_batch[0] = sh.batch > GDR_KV_MAX_BATCH ? GDR_KV_MAX_BATCH : sh.batch;
		}
	}
	if (!o->kv_nblocks)
		return 0;
	if (!gdr_opts_is_set(o, &o->kv_place)) /* --place's default: seq */
		o->kv_place = (struct gdr_kv_place){
		    .kind = GDR_KV_SEQ, .stride = 1, .seed = GDR_KV_SEED_DEFAULT};
	if (!o->kv_nbatch) {
		o->kv_nbatch = 1;
		o->kv_batch[0] = 1;
	}
	if ((why = refusal(o, &opt))) {
		gdr_err("%s with --block: %s", opt, why);
		return -1;
	}
	if (o->kv_nblocks * o->kv_nbatch > GDR_MAX_SIZES) {
		gdr_err("--block x --batch: %u cells, more than the %d rows a run has",
			o->kv_nblocks * o->kv_nbatch, GDR_MAX_SIZES);
		return -1;
	}
	for (uint32_t i = 0; i < o->kv_nblocks; i++)
		for (uint32_t j = 0; j < o->kv_nbatch; j++)
			if (o->kv_blocks[i] * o->kv_batch[j] > GDR_MAX_MSG_SIZE) {
				gdr_err("--block=%llu x --batch=%u: %llu bytes a batch; the "
					"contiguous reference moves a batch in one operation, at "
					"most 1 GiB",
					(unsigned long long)o->kv_blocks[i], o->kv_batch[j],
					(unsigned long long)(o->kv_blocks[i] * o->kv_batch[j]));
				return -1;
			}
	if (!o->kv_pool) {
		o->kv_pool = gdr_opts_kv_pool_default(o);
	} else if (o->kv_pool < gdr_opts_kv_pool_default(o) / 2) {
		gdr_err("--pool=%llu: smaller than the largest batch (%llu bytes); its blocks "
			"would overlap",
			(unsigned long long)o->kv_pool,
			(unsigned long long)(gdr_opts_kv_pool_default(o) / 2));
		return -1;
	}
	if (regions_check(o) || sge_check(o))
		return -1;
	for (uint32_t j = 0; j < o->kv_nbatch; j++)
		if (o->kv_batch[j] > most)
			most = o->kv_batch[j];
	/* a batch is in flight whole: the queue holds the largest */
	if (!gdr_opts_is_set(o, &o->tx_depth)) {
		if (o->tx_depth < most)
			o->tx_depth = most;
	} else if (o->tx_depth < most) {
		gdr_err("-t %u: below --batch=%u; a batch is posted whole (give -t %u or more)",
			o->tx_depth, most, most);
		return -1;
	}
	return 0;
}
