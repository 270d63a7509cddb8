/* SPDX-License-Identifier: MIT */
/*
 * Unit test: a model's KV cache in blocks (src/kv/preset.c), each figure
 * computed here by hand: block = tokens x KV heads per rank x head_dim x dtype
 * bytes; a batch = 2 (K and V) x layers blocks.
 */
#include <stdio.h>
#include <string.h>
#include "preset.h"

#include "check.h"

static void shape(const char *s, uint64_t block, uint32_t batch, uint32_t heads)
{
	struct gdr_kv_model m;
	struct gdr_kv_shape sh = {0};
	char why[160] = "";

	CHECK(gdr_kv_model_parse(s, &m, why, sizeof(why)) == 0, "'%s': %s", s, why);
	CHECK(gdr_kv_model_shape(&m, &sh, why, sizeof(why)) == 0, "'%s': %s", s, why);
	CHECK(sh.block == block && sh.batch == batch && sh.heads_per_rank == heads &&
		  sh.blocks_per_layer == 2,
	      "'%s': block %llu batch %u heads %u, want %llu %u %u", s,
	      (unsigned long long)sh.block, sh.batch, sh.heads_per_rank, (unsigned long long)block,
	      batch, heads);
}

static void refused(const char *s, const char *why_has)
{
	struct gdr_kv_model m;
	struct gdr_kv_shape sh;
	char why[160] = "";
	int rc = gdr_kv_model_parse(s, &m, why, sizeof(why));

	if (!rc)
		rc = gdr_kv_model_shape(&m, &sh, why, sizeof(why));
	CHECK(rc == -1, "'%s' accepted", s);
	CHECK(strstr(why, why_has), "'%s': '%s' does not say '%s'", s, why, why_has);
}

int main(void)
{
	/* 16 tokens x 8 heads x 128 x 2 bytes = 32768; 2 x 80 layers = 160 blocks */
	shape("llama3-70b", 32768, 160, 8);
	/* tp 8: 8 / 8 = 1 head a rank: 16 x 1 x 128 x 2 = 4096 */
	shape("llama3-70b,tp:8", 4096, 160, 1);
	/* tp 16 > 8 heads: replicated, 1 head a rank: 4096 */
	shape("llama3-70b,tp:16", 4096, 160, 1);
	/* 2 x 32 layers; fp8 halves: 16 x 8 x 128 x 1 = 16384 */
	shape("llama3-8b,dtype:fp8", 16384, 64, 8);
	/* 2 x 126 layers; tp 2: 4 heads: 16 x 4 x 128 x 2 = 16384 */
	shape("llama3-405b,tp:2", 16384, 252, 4);
	/* by keys alone: 64 x 1 x 576 x 1 = 36864; 2 x 61 = 122 */
	shape("layers:61,kv_heads:1,head_dim:576,block_tokens:64,dtype:fp8", 36864, 122, 1);
	/* defaults 16 tokens, bf16, tp 1: 16 x 4 x 64 x 2 = 8192; 2 x 2 = 4 */
	shape("layers:2,kv_heads:4,head_dim:64", 8192, 4, 4);
	/* a later key wins over the preset's */
	shape("llama3-70b,block_tokens:32,layers:1", 65536, 2, 8);

	refused("", "empty");
	refused("llama3-70b,tp:3", "one must divide the other");
	refused("gpt5", "no preset");
	refused("layers:4,kv_heads:8", "needs layers, kv_heads and head_dim");
	refused("llama3-70b,dtype:fp4", "dtype");
	refused("llama3-70b,tp:0", "tp:");
	refused("llama3-70b,heads:4", "unknown key");
	refused("layers:2,llama3-70b", "no preset");
	refused("llama3-70b,tp:x", "tp:");
	return CHECK_DONE();
}
