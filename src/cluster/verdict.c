/* SPDX-License-Identifier: MIT */
/* Cluster verdicts: SLOW against a threshold or the median of peers; suspect nodes and rails. */
#include <stdlib.h>
#include <string.h>
#include "cluster_int.h"

const char *gdr_cstatus_name(int s)
{
	static const char *const n[] = {"OK", "SLOW", "FAIL", "TIMEOUT", "SKIP"};

	return s >= 0 && s < GDR_CS_NONE ? n[s] : "?";
}

static double metric(const struct gdr_crow *r)
{
	return r->bw_gbps > 0 ? r->bw_gbps : r->lat_med_us;
}

/* qsort has no context argument: the rows being sorted. */
static const struct gdr_crow *sorting;

static int cmp3(int64_t x1, int64_t y1, int64_t x2, int64_t y2, int64_t x3, int64_t y3)
{
	if (x1 != y1)
		return x1 < y1 ? -1 : 1;
	if (x2 != y2)
		return x2 < y2 ? -1 : 1;
	return (x3 > y3) - (x3 < y3);
}

/* Verdict groups: rail, size, path, bandwidth or latency; inside one, by the metric. */
static int by_group(const void *pa, const void *pb)
{
	const struct gdr_crow *x = &sorting[*(const size_t *)pa],
			      *y = &sorting[*(const size_t *)pb];
	int c = cmp3(x->rail, y->rail, (int64_t)x->bytes, (int64_t)y->bytes, x->bw_gbps > 0,
		     y->bw_gbps > 0);

	if (!c)
		c = strcmp(x->path, y->path);
	return c ? c : (metric(x) > metric(y)) - (metric(x) < metric(y));
}

static bool same_group(const struct gdr_crow *x, const struct gdr_crow *y)
{
	return x->bytes == y->bytes && !strcmp(x->path, y->path) && x->rail == y->rail &&
	       (x->bw_gbps > 0) == (y->bw_gbps > 0);
}

/* A row the relative rule may use: OK, measured, on NICs of its own. */
static bool measured_ok(const struct gdr_crow *r)
{
	return r->status == GDR_CS_OK && metric(r) > 0 && !r->shared;
}

/* Median of the OK rows among idx[0..n), which are sorted by the metric. */
static double median_ok(const struct gdr_crow *rows, const size_t *idx, size_t n)
{
	size_t k = 0, m, seen = 0;
	double lo = 0;

	for (size_t i = 0; i < n; i++)
		k += measured_ok(&rows[idx[i]]);
	if (!k)
		return 0;
	m = k / 2; /* the (m+1)-th OK value; with even k, the mean with the m-th */
	for (size_t i = 0; i < n; i++) {
		double v = metric(&rows[idx[i]]);

		if (!measured_ok(&rows[idx[i]]))
			continue;
		if (seen + 1 == m)
			lo = v;
		if (seen++ == m)
			return k % 2 ? v : (lo + v) / 2;
	}
	return 0;
}

static void judge(struct gdr_crow *r, double med, double expect_gbps, double expect_us,
		  double frac)
{
	if (r->status != GDR_CS_OK)
		return;
	if (frac <= 0 || r->shared)
		med = 0; /* no relative rule */
	if (r->bw_gbps > 0 && expect_gbps > 0 && r->bw_gbps < expect_gbps)
		r->status = GDR_CS_SLOW;
	else if (r->bw_gbps <= 0 && expect_us > 0 && r->lat_med_us > expect_us)
		r->status = GDR_CS_SLOW;
	else if (r->bw_gbps > 0 && med > 0 && r->bw_gbps < frac * med)
		r->status = GDR_CS_SLOW;
	else if (r->bw_gbps <= 0 && med > 0 && r->lat_med_us > med / frac)
		r->status = GDR_CS_SLOW;
}

/* Row indices sorted by cmp (NULL on no memory). */
static size_t *sorted(const struct gdr_crow *rows, size_t n, int (*cmp)(const void *, const void *))
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sorting = rows;
	qsort(idx, n, sizeof(*idx), cmp);
	return idx;
}

int gdr_nic_id(const struct gdr_place *pl, int r)
{
	int k = 0;

	while (k < r && (strcmp(pl[k].host, pl[r].host) || strcmp(pl[k].nic, pl[r].nic)))
		k++;
	return k;
}

static int by_round(const void *pa, const void *pb)
{
	const struct gdr_crow *x = &sorting[*(const size_t *)pa],
			      *y = &sorting[*(const size_t *)pb];

	return (x->round > y->round) - (x->round < y->round);
}

/*
 * Mark the rows whose NIC carried another pair of the same round (every rank
 * is in one pair a round). Per round: each NIC's pairs counted once each.
 */
static size_t mark_shared(struct gdr_crow *rows, size_t n, const struct gdr_place *pl, int nranks)
{
	int *nic = malloc((size_t)nranks * sizeof(*nic));
	int *owner = malloc((size_t)nranks * sizeof(*owner)); /* the NIC's last pair */
	unsigned *npairs = calloc((size_t)nranks, sizeof(*npairs));
	size_t *idx = sorted(rows, n, by_round), g, e, marked = 0;

	if (!nic || !owner || !npairs || !idx)
		goto out;
	for (int r = 0; r < nranks; r++)
		nic[r] = gdr_nic_id(pl, r);
	for (g = 0; g < n; g = e) {
		for (e = g; e < n && rows[idx[e]].round == rows[idx[g]].round; e++)
			;
		for (int pass = 0; pass < 3; pass++)
			for (size_t i = g; i < e; i++) {
				struct gdr_crow *r = &rows[idx[i]];
				int ends[2] = {nic[r->a], r->b >= 0 ? nic[r->b] : -1};

				for (int k = 0; k < 2 && ends[k] >= 0 && r->b >= 0; k++) {
					if (pass == 0) { /* reset */
						owner[ends[k]] = -1;
						npairs[ends[k]] = 0;
					} else if (pass == 1 && owner[ends[k]] != r->a) {
						owner[ends[k]] = r->a; /* a pair: its server */
						npairs[ends[k]]++;
					} else if (pass == 2 && npairs[ends[k]] > 1) {
						r->shared = 1;
					}
				}
				marked += pass == 2 && r->shared;
			}
	}
out:
	free(nic);
	free(owner);
	free(npairs);
	free(idx);
	return marked;
}

size_t gdr_verdict_apply(struct gdr_crow *rows, size_t n, const struct gdr_place *pl, int nranks,
			 double expect_gbps, double expect_us, double slow_pct)
{
	size_t *idx, g, e, left = 0;

	for (size_t i = 0; i < n; i++)
		rows[i].shared = 0;
	if (pl && slow_pct > 0)
		mark_shared(rows, n, pl, nranks);
	idx = sorted(rows, n, by_group);
	if (!idx)
		return 0;
	for (g = 0; g < n; g = e) {
		double med;

		for (e = g + 1; e < n && same_group(&rows[idx[g]], &rows[idx[e]]); e++)
			;
		med = median_ok(rows, idx + g, e - g);
		for (size_t i = g; i < e; i++) {
			left += rows[idx[i]].shared && rows[idx[i]].status == GDR_CS_OK;
			judge(&rows[idx[i]], med, expect_gbps, expect_us, slow_pct / 100);
		}
	}
	free(idx);
	return left;
}

/* Per rank: pairs it was in and pairs flagged. */
struct tally {
	unsigned pairs, flagged;
};

static bool flagged(int s)
{
	return s == GDR_CS_SLOW || s == GDR_CS_FAIL || s == GDR_CS_TIMEOUT;
}

/* Rows of one pair together: by round, server, client. */
static int by_pair(const void *pa, const void *pb)
{
	const struct gdr_crow *x = &sorting[*(const size_t *)pa],
			      *y = &sorting[*(const size_t *)pb];
	int c = cmp3(x->round, y->round, x->a, y->a, x->b, y->b);

	return c ? c
		 : (*(const size_t *)pa > *(const size_t *)pb) -
		       (*(const size_t *)pa < *(const size_t *)pb);
}

static bool same_pair(const struct gdr_crow *x, const struct gdr_crow *y)
{
	return x->round == y->round && x->a == y->a && x->b == y->b;
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

static int count_hosts(const struct gdr_place *pl, int nranks)
{
	int hosts = 0;

	for (int i = 0; i < nranks; i++) {
		int h;

		for (h = 0; strcmp(pl[h].host, pl[i].host); h++)
			;
		hosts += h == i;
	}
	return hosts;
}

/* A host's tally sits at its first rank. */
static void host_tally(struct tally *host, const struct tally *rk, const struct gdr_place *pl,
		       int nranks)
{
	for (int i = 0; i < nranks; i++) {
		int h;

		for (h = 0; strcmp(pl[h].host, pl[i].host); h++)
			;
		host[h].pairs += rk[i].pairs;
		host[h].flagged += rk[i].flagged;
	}
}

/*
 * Walk the pairs (rows sorted by pair); per pair: the index of its first row
 * and whether any row is flagged (st: the first flagged status, cnt: its
 * counters cell). Returns the pairs found.
 */
static size_t pairs_of(const struct gdr_crow *rows, const size_t *idx, size_t n, size_t *first,
		       bool *bad, int *st, int32_t *cnt)
{
	size_t np = 0, e;

	for (size_t g = 0; g < n; g = e) {
		const struct gdr_crow *r = &rows[idx[g]];

		bad[np] = false;
		cnt[np] = 0;
		for (e = g; e < n && same_pair(r, &rows[idx[e]]); e++) {
			const struct gdr_crow *x = &rows[idx[e]];

			if (flagged(x->status) && !bad[np])
				st[np] = x->status;
			bad[np] |= flagged(x->status);
			cnt[np] = cnt[np] ? cnt[np] : x->cnt;
		}
		if (r->b >= 0 && r->status != GDR_CS_SKIP)
			first[np++] = idx[g];
	}
	return np;
}

/* -W: what moved around each flagged pair, the first COUNTER_LINES of them. */
#define COUNTER_LINES 20
static void flagged_counters(FILE *f, const struct gdr_crow *rows, size_t np, const size_t *first,
			     const bool *bad, const int *st, const int32_t *cnt,
			     const struct gdr_place *pl, const struct gdr_ctexts *ct)
{
	size_t shown = 0, more = 0;

	for (size_t p = 0; p < np; p++) {
		const struct gdr_crow *r = &rows[first[p]];
		const char *t = gdr_ctexts_get(ct, cnt[p]);

		if (!bad[p] || !t)
			continue;
		if (shown++ >= COUNTER_LINES) {
			more++;
			continue;
		}
		fprintf(f, "counters: %s rail %d <-> %s rail %d (round %d, %s): %s\n",
			pl[r->a].host, pl[r->a].rail, pl[r->b].host, pl[r->b].rail, r->round,
			gdr_cstatus_name(st[p]), t);
	}
	if (more)
		fprintf(f, "counters: %zu more flagged pair(s): the CSV's counters column\n", more);
}

size_t gdr_verdict_summary(FILE *f, const struct gdr_crow *rows, size_t n,
			   const struct gdr_place *pl, int nranks, const struct gdr_ctexts *ct)
{
	struct tally *rk = calloc((size_t)nranks, sizeof(*rk));
	struct tally *host = calloc((size_t)nranks, sizeof(*host));
	size_t *idx = sorted(rows, n, by_pair), *first = malloc((n ? n : 1) * sizeof(*first));
	bool *bad = malloc(n ? n : 1);
	int *st = malloc((n ? n : 1) * sizeof(*st));
	int32_t *cnt = malloc((n ? n : 1) * sizeof(*cnt));
	size_t np, nbad = 0, skips = 0;

	if (!rk || !host || !idx || !first || !bad || !st || !cnt) {
		fprintf(f, "cluster: out of memory for the summary\n");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		skips += rows[i].status == GDR_CS_SKIP;
	np = pairs_of(rows, idx, n, first, bad, st, cnt);
	for (size_t p = 0; p < np; p++) {
		nbad += bad[p];
		count(rk, rows[first[p]].a, bad[p]);
		count(rk, rows[first[p]].b, bad[p]);
	}
	host_tally(host, rk, pl, nranks);
	fprintf(f, "cluster: %zu pairs tested, %zu flagged, %zu rows skipped\n", np, nbad, skips);
	/* a suspect node stands out from other nodes: with one host there is none to compare */
	for (int i = 0; i < nranks && count_hosts(pl, nranks) > 1; i++)
		if (suspect(&host[i]))
			fprintf(f, "suspect node: %s (%u of %u pair ends flagged)\n", pl[i].host,
				host[i].flagged, host[i].pairs);
	for (int i = 0; i < nranks; i++)
		if (suspect(&rk[i]))
			fprintf(f,
				"suspect rail: %s rail %d NIC %s GPU %s (%u of %u pairs flagged)\n",
				pl[i].host, pl[i].rail, pl[i].nic, pl[i].gpu, rk[i].flagged,
				rk[i].pairs);
	for (size_t p = 0; p < np; p++) {
		const struct gdr_crow *r = &rows[first[p]];

		if (bad[p] && !suspect(&rk[r->a]) && !suspect(&rk[r->b]))
			fprintf(f, "flagged link: %s rail %d <-> %s rail %d (round %d)\n",
				pl[r->a].host, pl[r->a].rail, pl[r->b].host, pl[r->b].rail,
				r->round);
	}
	flagged_counters(f, rows, np, first, bad, st, cnt, pl, ct);
out:
	free(rk);
	free(host);
	free(idx);
	free(first);
	free(bad);
	free(st);
	free(cnt);
	return nbad;
}
