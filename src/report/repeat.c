/* SPDX-License-Identifier: MIT */
/* --repeat: a path's row as the medians of its repeats (repeat.h). */
#include "config.h"
#include <stddef.h>
#include <string.h>
#include "repeat.h"

/* The median of one figure, at byte offset off in each repeat, and its spread. */
static struct gdr_spread of(const struct gdr_result *rep, uint32_t n, size_t off)
{
	double v[GDR_SPREAD_MAX];
	struct gdr_spread s = {0};

	for (uint32_t i = 0; i < n; i++) /* off: a double field's offset (MED below) */
		memcpy(&v[i], (const char *)&rep[i] + off, sizeof(v[i]));
	gdr_spread_of(v, n, &s);
	return s;
}

#define MED(field) (out->field = of(rep, n, offsetof(struct gdr_result, field)).median)

void gdr_result_repeats(const struct gdr_result *rep, uint32_t n, struct gdr_result *out)
{
	struct gdr_spread key, ratio;
	double v[GDR_SPREAD_MAX];
	bool all_ratio = true;

	*out = rep[0];
	if (n <= 1 || n > GDR_SPREAD_MAX)
		return;
	out->repeats = n;
	for (uint32_t i = 0; i < n; i++)
		v[i] = (double)rep[i].iters;
	gdr_spread_of(v, n, &key);
	out->iters = (uint64_t)(key.median + 0.5);
	MED(duration_s);
	MED(bw_peak_Bps);
	MED(bw_avg_Bps);
	MED(msg_rate_pps);
	MED(cpu_pct);
	MED(delivered_Bps);
	if (out->kv_batch) { /* KV rows: the efficiency as the ratio below, each repeat's own */
		bool all_eff = true;

		MED(kv_blocks_ps);
		MED(kv_batch_med_us);
		MED(kv_batch_p99_us);
		MED(kv_contig_Bps);
		for (uint32_t i = 0; i < n; i++)
			all_eff = all_eff && rep[i].kv_eff > 0;
		out->kv_eff = all_eff ? of(rep, n, offsetof(struct gdr_result, kv_eff)).median : 0;
	}
	if (out->has_lat) {
		MED(lat.min);
		MED(lat.max);
		MED(lat.avg);
		MED(lat.stdev);
		for (int k = 0; k < out->lat.npct && k < GDR_STATS_MAX_Q; k++)
			out->lat.pct_v[k] =
			    of(rep, n,
			       offsetof(struct gdr_result, lat.pct_v) + (size_t)k * sizeof(double))
				.median;
		key = of(rep, n, offsetof(struct gdr_result, lat.median));
		out->lat.median = key.median;
	} else {
		key = of(rep, n, offsetof(struct gdr_result, bw_avg_Bps));
	}
	out->fig_min = key.min;
	out->fig_max = key.max;
	out->fig_cv = key.cv;
	for (uint32_t i = 0; i < n; i++)
		all_ratio = all_ratio && rep[i].speedup > 0;
	if (!all_ratio) {
		out->speedup = 0;
		return;
	}
	ratio = of(rep, n, offsetof(struct gdr_result, speedup));
	out->speedup = ratio.median;
	out->speedup_min = ratio.min;
	out->speedup_max = ratio.max;
}
