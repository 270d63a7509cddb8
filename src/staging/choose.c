/* SPDX-License-Identifier: MIT */
/*
 * --stage_copy: each size's copier on this side, chosen once before the
 * sizes (auto: by the copy-rate probe), and the per-size exchange that lets
 * each row name both sides' copiers.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "choice.h"
#include "log.h"
#include "session.h"
#include "staging.h"

#define CHOOSE_WARMUP_S 0.002
#define CHOOSE_BUDGET_S 0.010 /* per candidate per size, over the rounds: said in the header */
/*
 * The candidates take turns, round after round, and each keeps its best round: a stall
 * of this process (a busy host, a preempted copy thread) costs a candidate the round it
 * falls in, not the choice.
 */
#define CHOOSE_ROUNDS 3

static size_t at_end(const char *buf, size_t n)
{
	size_t k = strlen(buf);

	return k < n ? k : n;
}

/*
 * Candidate k's rate at size; -1 when it cannot open (why filled), -2 when it
 * opened and then failed (printed): an error of the run, not a reason to fall
 * back. The candidate is the run's copier of its kind (run_copier.c: opened
 * once, kept for the sizes), running only while it is probed: no other
 * copier's kernel is resident while one is timed.
 */
static double probe_one(struct gdr_conn *c, uint64_t size, enum gdr_copier_kind k, char *why,
			size_t n)
{
	struct gdr_staging s;
	double rate;

	gdr_staging_begin_plan(&s, c, size);
	if (gdr_staging_take(&s, c, k, why, n))
		return -1;
	rate = gdr_staging_probe(c, &s, &s.cp, CHOOSE_WARMUP_S);
	if (rate >= 0)
		rate = gdr_staging_probe(c, &s, &s.cp, CHOOSE_BUDGET_S / CHOOSE_ROUNDS);
	gdr_staging_end(&s); /* parked (sm: its kernel stops) */
	return rate < 0 ? -2 : rate;
}

#define SHARED_GPU "the peer's test memory is on this GPU, where two processes' kernels time-slice"

/*
 * batch: its single copies are ce's own calls (copier_batch.c), so a probe of it would time
 * ce again and a tie between the two would pick either by noise; it differs in block lists
 * alone, where auto is ce (choose()). auto neither probes nor names it.
 */
static bool probed(enum gdr_copier_kind k)
{
	return k != GDR_COPIER_BATCH;
}

/*
 * shared: the peer's memory is on this GPU: sm is left out, and when the peer probes too
 * (turns) the sides probe in turn.
 */
static int choose_auto(struct gdr_conn *c, const uint64_t *sizes, size_t nsizes,
		       struct gdr_stage_copy *sc, bool shared, bool turns)
{
	char why[GDR_STAGE_NCAND][160];
	bool out[GDR_STAGE_NCAND] = {false};
	size_t k;

	for (int j = 0; j < GDR_STAGE_NCAND && shared; j++)
		if (gdr_stage_cand[j] == GDR_COPIER_SM) {
			out[j] = true;
			snprintf(why[j], sizeof(why[j]), "%s", SHARED_GPU);
		}
	if (turns && gdr_staging_turn(c, true))
		return -1;
	for (size_t i = 0; i < nsizes; i++) {
		double rate[GDR_STAGE_NCAND];

		for (int j = 0; j < GDR_STAGE_NCAND; j++)
			rate[j] = -1;
		for (int round = 0; round < CHOOSE_ROUNDS; round++)
			for (int j = 0; j < GDR_STAGE_NCAND; j++) {
				double r = out[j] || !probed(gdr_stage_cand[j])
						   ? -1
						   : probe_one(c, sizes[i], gdr_stage_cand[j],
							       why[j], sizeof(why[j]));

				if (r < -1) {
					gdr_staging_close_run();
					return -1;
				}
				out[j] = r < 0;
				rate[j] = r < 0 ? -1 : r > rate[j] ? r : rate[j];
			}
		sc->kind[i] = gdr_stage_pick(rate);
		if (sc->kind[i] == GDR_COPIER_AUTO) {
			gdr_err("--stage_copy=auto: no copier opens on this side (ce: %s)", why[0]);
			gdr_staging_close_run();
			return -1;
		}
	}
	if (turns && gdr_staging_turn(c, false))
		return -1;
	snprintf(sc->desc, sizeof(sc->desc), "auto: ");
	k = at_end(sc->desc, sizeof(sc->desc));
	gdr_stage_crossover(sizes, sc->kind, nsizes, sc->desc + k, sizeof(sc->desc) - k);
	k = at_end(sc->desc, sizeof(sc->desc));
	snprintf(sc->desc + k, sizeof(sc->desc) - k,
		 " (probed, %g ms per copier per size: best of %d turns)", CHOOSE_BUDGET_S * 1e3,
		 CHOOSE_ROUNDS);
	for (int j = 0; j < GDR_STAGE_NCAND; j++) {
		k = at_end(sc->desc, sizeof(sc->desc));
		if (out[j] && probed(gdr_stage_cand[j]))
			snprintf(sc->desc + k, sizeof(sc->desc) - k, "; %s unavailable: %.120s",
				 gdr_stage_copy_name(gdr_stage_cand[j]), why[j]);
	}
	return 0;
}

int gdr_staging_precheck(int stage_copy, struct gdr_mem *data)
{
	enum gdr_copier_kind want = (enum gdr_copier_kind)stage_copy;
	char why[160];

	if (want == GDR_COPIER_AUTO || gdr_copier_default(data) == GDR_COPIER_MEMCPY)
		return 0;
	if (!gdr_copier_ready(want, data, why, sizeof(why)))
		return 0;
	gdr_err("--stage_copy=%s: %s", gdr_stage_copy_name(want), why);
	return -1;
}

int gdr_staging_choose(struct gdr_conn *c, const uint64_t *sizes, size_t nsizes,
		       struct gdr_stage_copy *sc)
{
	enum gdr_copier_kind want = (enum gdr_copier_kind)c->o->stage_copy;
	bool shared = false, peer_probes = false,
	     gpu = gdr_copier_default(&c->data) != GDR_COPIER_MEMCPY;
	bool kv = c->o->kv_nblocks && gpu, probes;
	char why[160];

	memset(sc, 0, sizeof(*sc));
	/* a KV run gathers and scatters block lists: the copiers that take them; auto: ce */
	if (kv && want != GDR_COPIER_AUTO && !gdr_copier_takes_lists(want)) {
		gdr_err("--stage_copy=%s: block lists not built; use ce",
			gdr_stage_copy_name(want));
		return -1;
	}
	for (uint32_t j = 0; kv && want == GDR_COPIER_SM && j < c->o->kv_nbatch; j++)
		if (c->o->kv_batch[j] > GDR_COPIER_SM_LIST_MAX) {
			gdr_err("--stage_copy=sm: a batch of %u blocks, over the %d the kernel's "
				"block table holds",
				c->o->kv_batch[j], GDR_COPIER_SM_LIST_MAX);
			return -1;
		}
	if (kv && want == GDR_COPIER_AUTO)
		want = GDR_COPIER_CE;
	probes = gpu && want == GDR_COPIER_AUTO;
	if (gdr_staging_peer_gpu(c, probes, &shared, &peer_probes))
		return -1;
	if (!probes) {
		struct gdr_staging s;
		bool host = gdr_copier_default(&c->data) == GDR_COPIER_MEMCPY;
		enum gdr_copier_kind k = host ? GDR_COPIER_MEMCPY : want;

		if (!host && nsizes)
			gdr_staging_begin_plan(&s, c, sizes[0]);
		if (!host && nsizes && gdr_staging_take(&s, c, k, why, sizeof(why))) {
			gdr_err("--stage_copy=%s: %s", gdr_stage_copy_name(k), why);
			gdr_staging_close_run();
			return -1;
		}
		if (!host && nsizes)
			gdr_staging_end(&s);
		for (size_t i = 0; i < nsizes; i++)
			sc->kind[i] = k;
		snprintf(sc->desc, sizeof(sc->desc), "%s at every size (%s)%s",
			 gdr_stage_copy_name(k),
			 host			   ? "host test memory"
			 : kv && !c->o->stage_copy ? "a KV run's auto: the copier of block lists"
						   : "--stage_copy",
			 shared && k == GDR_COPIER_SM ? "; " SHARED_GPU : "");
		return 0;
	}
	return choose_auto(c, sizes, nsizes, sc, shared, shared && peer_probes);
}

int gdr_staging_exchange_copier(struct gdr_conn *c, struct gdr_staging *s)
{
	uint64_t mine = (uint64_t)s->kind, peer = 0;

	if (c->is_server ? gdr_sync_send(c, GDR_STEP_STAGE_COPY, mine) ||
			       gdr_sync_expect(c, GDR_STEP_STAGE_COPY, &peer)
			 : gdr_sync_expect(c, GDR_STEP_STAGE_COPY, &peer) ||
			       gdr_sync_send(c, GDR_STEP_STAGE_COPY, mine))
		return -1;
	if (peer >= GDR_COPIER_NKINDS) {
		gdr_err("the peer names an unknown stage copier (%llu)", (unsigned long long)peer);
		return -1;
	}
	s->blocks = gdr_copier_blocks(s->kind) || gdr_copier_blocks((enum gdr_copier_kind)peer);
	if (c->is_server)
		gdr_stage_copy_cell((enum gdr_copier_kind)peer, s->kind, s->copy_cell,
				    sizeof(s->copy_cell));
	else
		gdr_stage_copy_cell(s->kind, (enum gdr_copier_kind)peer, s->copy_cell,
				    sizeof(s->copy_cell));
	return 0;
}
