/* SPDX-License-Identifier: MIT */
/* Cluster verdicts: SLOW against a threshold or the median of peers; suspect nodes and rails. */
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"

const char *gdr_cstatus_name(int s)
{
	static const char *const n[] = { "OK", "SLOW", "FAIL", "TIMEOUT", "SKIP" };

	return s >= 0 && s < GDR_CS_NONE ? n[s] : "?";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double metric(const struct gdr_crow *r)
{
	return r->bw_gbps > 0 ? r->bw_gbps : r->lat_med_us;
}

static bool same_group(const struct gdr_crow *x, const struct gdr_crow *y)
{
	return x->bytes == y->bytes && !strcmp(x->path, y->path) &&
	       x->rail == y->rail && (x->bw_gbps > 0) == (y->bw_gbps > 0);
}

/* Median of the OK rows in r's group (0 when none). */
static double group_median(const struct gdr_crow *rows, size_t n, const struct gdr_crow *r,
			   double *tmp)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].status == GDR_CS_OK && metric(&rows[i]) > 0 &&
		    same_group(&rows[i], r))
			tmp[k++] = metric(&rows[i]);
	if (!k)
		return 0;
	qsort(tmp, k, sizeof(*tmp), cmp_double);
	return k % 2 ? tmp[k / 2] : (tmp[k / 2 - 1] + tmp[k / 2]) / 2;
}

void gdr_verdict_apply(struct gdr_crow *rows, size_t n, double expect_gbps)
{
	double *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *med = malloc((n ? n : 1) * sizeof(*med));

	if (!tmp || !med)
		goto out;
	/* medians first, from the measured statuses, then the verdicts */
	for (size_t i = 0; i < n; i++)
		med[i] = rows[i].status == GDR_CS_OK ? group_median(rows, n, &rows[i], tmp) : 0;
	for (size_t i = 0; i < n; i++) {
		struct gdr_crow *r = &rows[i];

		if (r->status != GDR_CS_OK)
			continue;
		if (r->bw_gbps > 0 && expect_gbps > 0 && r->bw_gbps < expect_gbps)
			r->status = GDR_CS_SLOW;
		else if (r->bw_gbps > 0 && med[i] > 0 && r->bw_gbps < 0.9 * med[i])
			r->status = GDR_CS_SLOW;
		else if (r->bw_gbps <= 0 && med[i] > 0 && r->lat_med_us > med[i] / 0.9)
			r->status = GDR_CS_SLOW;
	}
out:
	free(tmp);
	free(med);
}

/* Per rank: pairs it was in and pairs flagged. */
struct tally {
	unsigned pairs, flagged;
};

static bool flagged(int s)
{
	return s == GDR_CS_SLOW || s == GDR_CS_FAIL || s == GDR_CS_TIMEOUT;
}

/* Whether rows[i] is the first row of its pair, and whether any row of that pair is flagged. */
static bool first_of_pair(const struct gdr_crow *rows, size_t n, size_t i, bool *bad)
{
	const struct gdr_crow *r = &rows[i];

	*bad = false;
	for (size_t j = 0; j < n; j++) {
		if (rows[j].round != r->round || rows[j].a != r->a || rows[j].b != r->b)
			continue;
		if (j < i)
			return false;
		*bad |= flagged(rows[j].status);
	}
	return true;
}

static void count(struct tally *t, int rank, bool bad)
{
	t[rank].pairs++;
	t[rank].flagged += bad;
}

static bool suspect(const struct tally *t)
{
	return t->flagged && 2 * t->flagged >= t->pairs;
}

size_t gdr_verdict_summary(FILE *f, const struct gdr_crow *rows, size_t n,
			   const struct gdr_place *pl, int nranks)
{
	struct tally *rk = calloc((size_t)nranks, sizeof(*rk)), *host = calloc((size_t)nranks, sizeof(*host));
	size_t pairs = 0, bad_pairs = 0, skips = 0;
	bool bad;

	if (!rk || !host)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct gdr_crow *r = &rows[i];

		if (r->status == GDR_CS_SKIP) {
			skips++;
			continue;
		}
		if (r->b < 0 || !first_of_pair(rows, n, i, &bad))
			continue;
		pairs++;
		bad_pairs += bad;
		count(rk, r->a, bad);
		count(rk, r->b, bad);
	}
	/* a host's tally sits at its first rank */
	for (int i = 0; i < nranks; i++) {
		int h;

		for (h = 0; strcmp(pl[h].host, pl[i].host); h++)
			;
		host[h].pairs += rk[i].pairs;
		host[h].flagged += rk[i].flagged;
	}
	fprintf(f, "cluster: %zu pairs tested, %zu flagged, %zu rows skipped\n", pairs, bad_pairs,
		skips);
	for (int i = 0; i < nranks; i++)
		if (suspect(&host[i]))
			fprintf(f, "suspect node: %s (%u of %u pair results flagged)\n", pl[i].host,
				host[i].flagged, host[i].pairs);
	for (int i = 0; i < nranks; i++)
		if (suspect(&rk[i]))
			fprintf(f, "suspect rail: %s rail %d NIC %s GPU %s (%u of %u pairs flagged)\n",
				pl[i].host, pl[i].rail, pl[i].nic, pl[i].gpu, rk[i].flagged,
				rk[i].pairs);
	for (size_t i = 0; i < n; i++)
		if (rows[i].b >= 0 && first_of_pair(rows, n, i, &bad) && bad &&
		    !suspect(&rk[rows[i].a]) && !suspect(&rk[rows[i].b]))
			fprintf(f, "flagged link: %s rail %d <-> %s rail %d (round %d)\n",
				pl[rows[i].a].host, pl[rows[i].a].rail, pl[rows[i].b].host,
				pl[rows[i].b].rail, rows[i].round);
out:
	free(rk);
	free(host);
	return bad_pairs;
}
