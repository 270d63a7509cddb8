/* SPDX-License-Identifier: MIT */
/* A model's KV cache in blocks (preset.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "preset.h"

struct preset {
	const char *name;
	struct gdr_kv_model m;
};

/* Published model configurations (config.json: num_hidden_layers, num_key_value_heads,
 * hidden_size / num_attention_heads); 16 tokens a block, bf16, one rank. */
static const struct preset presets[] = {
    {"llama3-8b",
     {.layers = 32, .kv_heads = 8, .head_dim = 128, .block_tokens = 16, .dtype_bytes = 2, .tp = 1}},
    {"llama3-70b",
     {.layers = 80, .kv_heads = 8, .head_dim = 128, .block_tokens = 16, .dtype_bytes = 2, .tp = 1}},
    {"llama3-405b",
     {.layers = 126,
      .kv_heads = 8,
      .head_dim = 128,
      .block_tokens = 16,
      .dtype_bytes = 2,
      .tp = 1}},
};

const char *gdr_kv_preset_names(void)
{
	return "llama3-8b, llama3-70b, llama3-405b";
}

static int dtype_bytes(const char *v, uint32_t *out)
{
	if (!strcmp(v, "bf16") || !strcmp(v, "fp16"))
		*out = 2;
	else if (!strcmp(v, "fp8"))
		*out = 1;
	else
		return -1;
	return 0;
}

static int number(const char *v, uint32_t *out)
{
	char *end;
	unsigned long long n;

	if (*v < '0' || *v > '9')
		return -1;
	n = strtoull(v, &end, 10);
	if (*end || n < 1 || n > 1u << 20)
		return -1;
	*out = (uint32_t)n;
	return 0;
}

/* One KEY:V (or a preset's name, first only) onto *m. */
static int field(const char *f, bool first, struct gdr_kv_model *m, char *why, size_t whylen)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"layers", offsetof(struct gdr_kv_model, layers)},
	    {"kv_heads", offsetof(struct gdr_kv_model, kv_heads)},
	    {"head_dim", offsetof(struct gdr_kv_model, head_dim)},
	    {"block_tokens", offsetof(struct gdr_kv_model, block_tokens)},
	    {"tp", offsetof(struct gdr_kv_model, tp)},
	};
	const char *colon = strchr(f, ':');
	size_t klen = colon ? (size_t)(colon - f) : strlen(f);

	if (!colon) {
		for (size_t i = 0; first && i < sizeof(presets) / sizeof(presets[0]); i++)
			if (!strcmp(f, presets[i].name)) {
				*m = presets[i].m;
				return 0;
			}
		snprintf(why, whylen, "'%s' is no preset (%s) and no KEY:V", f,
			 gdr_kv_preset_names());
		return -1;
	}
	if (klen == 5 && !strncmp(f, "dtype", 5)) {
		if (dtype_bytes(colon + 1, &m->dtype_bytes)) {
			snprintf(why, whylen, "dtype: bf16, fp16 or fp8, not '%s'", colon + 1);
			return -1;
		}
		return 0;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].key) == klen && !strncmp(f, keys[i].key, klen)) {
			if (number(colon + 1, (uint32_t *)((char *)m + keys[i].off))) {
				snprintf(why, whylen,
					 "%s: a whole number from 1 to 1048576, not '%s'",
					 keys[i].key, colon + 1);
				return -1;
			}
			return 0;
		}
	snprintf(why, whylen,
		 "unknown key '%.*s' (layers, kv_heads, head_dim, block_tokens, dtype, tp)",
		 (int)klen, f);
	return -1;
}

int gdr_kv_model_parse(const char *s, struct gdr_kv_model *m, char *why, size_t whylen)
{
	char buf[256], *save = NULL, *f;
	bool first = true;

	*m = (struct gdr_kv_model){.block_tokens = 16, .dtype_bytes = 2, .tp = 1};
	if (strlen(s) >= sizeof(buf)) {
		snprintf(why, whylen, "longer than %zu characters", sizeof(buf) - 1);
		return -1;
	}
	strcpy(buf, s);
	for (f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save), first = false)
		if (field(f, first, m, why, whylen))
			return -1;
	if (first) {
		snprintf(why, whylen, "empty: a preset (%s) or KEY:V,...", gdr_kv_preset_names());
		return -1;
	}
	return 0;
}

int gdr_kv_model_shape(const struct gdr_kv_model *m, struct gdr_kv_shape *sh, char *why,
		       size_t whylen)
{
	if (!m->layers || !m->kv_heads || !m->head_dim) {
		snprintf(why, whylen, "needs layers, kv_heads and head_dim (or a preset)");
		return -1;
	}
	if (m->kv_heads % m->tp && m->tp % m->kv_heads) {
		snprintf(why, whylen,
			 "tp:%u and kv_heads:%u: one must divide the other (heads split or "
			 "replicated over the ranks)",
			 m->tp, m->kv_heads);
		return -1;
	}
	sh->heads_per_rank = m->kv_heads >= m->tp ? m->kv_heads / m->tp : 1;
	sh->block = (uint64_t)m->block_tokens * sh->heads_per_rank * m->head_dim * m->dtype_bytes;
	sh->blocks_per_layer = 2;
	sh->batch = sh->blocks_per_layer * m->layers;
	return 0;
}
