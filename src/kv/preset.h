/* SPDX-License-Identifier: MIT */
/*
 * A model's KV cache in blocks (--kv-model): from the model's shape, the
 * bytes of one block and the blocks a batch moves.
 *
 * One block is one layer's K (or V) for block_tokens tokens on one
 * tensor-parallel rank: block_tokens x heads per rank x head_dim x dtype
 * bytes, heads per rank = kv_heads / tp (1 when tp >= kv_heads: the heads
 * are replicated). A token block of the whole model is 2 (K and V) x layers
 * blocks: that is one batch.
 */
#ifndef GDR_KV_PRESET_H
#define GDR_KV_PRESET_H

#include <stddef.h>
#include <stdint.h>

struct gdr_kv_model {
	uint32_t layers, kv_heads, head_dim, block_tokens, dtype_bytes, tp;
};

/* What a model's shape gives. */
struct gdr_kv_shape {
	uint64_t block;		   /* bytes of one block */
	uint32_t heads_per_rank;   /* KV heads on one rank */
	uint32_t blocks_per_layer; /* 2: K and V */
	uint32_t batch;		   /* blocks of one token block over every layer */
};

/*
 * "NAME[,KEY:V...]" or "KEY:V,...": a named preset (gdr_kv_preset_names)
 * and/or layers:, kv_heads:, head_dim:, block_tokens:, dtype:bf16|fp16|fp8,
 * tp: (later keys win). 0, or -1 and why (one line).
 */
int gdr_kv_model_parse(const char *s, struct gdr_kv_model *m, char *why, size_t whylen);
/* The model's block and batch: 0, or -1 and why (a field missing or 0, tp and heads apart). */
int gdr_kv_model_shape(const struct gdr_kv_model *m, struct gdr_kv_shape *sh, char *why,
		       size_t whylen);
/* "llama3-8b, llama3-70b, ..." for help and errors. */
const char *gdr_kv_preset_names(void);

#endif
