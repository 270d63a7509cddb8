/* SPDX-License-Identifier: MIT */
/* --stage_copy's decision and its words (choice.h): pure functions. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include "choice.h"

#define CAND(name, NAME) GDR_COPIER_##NAME,
const enum gdr_copier_kind gdr_stage_cand[GDR_STAGE_NCAND] = {GDR_GPU_COPIERS(CAND)};
#undef CAND

/* by enum gdr_copier_kind: auto, then GDR_COPIERS */
static const char *const copier_names[GDR_COPIER_NKINDS] = {"auto", GDR_COPIERS(GDR_COPIER_WORD)};

enum gdr_copier_kind gdr_stage_pick(const double rate[GDR_STAGE_NCAND])
{
	enum gdr_copier_kind best = GDR_COPIER_AUTO;
	double top = -1;

	for (int i = 0; i < GDR_STAGE_NCAND; i++)
		if (rate[i] >= 0 && rate[i] > top) {
			top = rate[i];
			best = gdr_stage_cand[i];
		}
	return best;
}

const char *gdr_stage_copy_name(enum gdr_copier_kind k)
{
	return (unsigned int)k < GDR_COPIER_NKINDS ? copier_names[k] : "?";
}

/* 8 -> "8 B", 16384 -> "16 KiB", 3 MiB -> "3 MiB"; a size not a whole unit: bytes. */
static void size_words(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB"};
	int u = 0;

	while (u < 3 && b >= 1024 && b % 1024 == 0) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)b, unit[u]);
}

static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (k > 0)
		*at += (size_t)k;
}

void gdr_stage_crossover(const uint64_t *sizes, const enum gdr_copier_kind *kind, size_t n,
			 char *buf, size_t len)
{
	size_t at = 0, i = 0;

	if (len)
		buf[0] = 0;
	while (i < n) {
		size_t j = i;
		char lo[24], hi[24];
		const char *name = gdr_stage_copy_name(kind[i]), *sep = at ? ", " : "";

		while (j + 1 < n && kind[j + 1] == kind[i])
			j++;
		size_words(sizes[i], lo, sizeof(lo));
		size_words(sizes[j], hi, sizeof(hi));
		if (i == 0 && j + 1 == n)
			append(buf, len, &at, "%s%s at every size", sep, name);
		else if (i == 0)
			append(buf, len, &at, "%s%s up to %s", sep, name, hi);
		else if (j + 1 == n)
			append(buf, len, &at, "%s%s from %s", sep, name, lo);
		else if (i == j)
			append(buf, len, &at, "%s%s at %s", sep, name, lo);
		else {
			append(buf, len, &at, "%s%s from %s to %s", sep, name, lo, hi);
		}
		i = j + 1;
	}
}

void gdr_stage_copy_cell(enum gdr_copier_kind client, enum gdr_copier_kind server, char *buf,
			 size_t len)
{
	if (client == server)
		snprintf(buf, len, "%s", gdr_stage_copy_name(client));
	else
		snprintf(buf, len, "%s/%s", gdr_stage_copy_name(client),
			 gdr_stage_copy_name(server));
}
