/* SPDX-License-Identifier: MIT */
/* --stage_copy=auto's decision as a pure function: the pick per size and the crossover words. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "choice.h"

static void pick_cases(void)
{
	/* ce, gdrcopy, sm, batch (batch as ce for single copies: a tie goes to ce) */
	double fast_sm[] = {1e9, -1, 2e9, 1e9}, fast_ce[] = {5e9, 1e9, 2e9, -1};
	double none[] = {-1, -1, -1, -1}, unmeasured[] = {-1, 0, 0, 0};
	double tie[] = {3e9, 3e9, 3e9, 3e9}, gdr[] = {1e8, 4e8, 2e8, 1e8},
	       batch[] = {1e9, -1, -1, 2e9};

	CHECK(gdr_stage_pick(fast_sm) == GDR_COPIER_SM);
	CHECK(gdr_stage_pick(fast_ce) == GDR_COPIER_CE);
	CHECK(gdr_stage_pick(gdr) == GDR_COPIER_GDRCOPY);
	CHECK(gdr_stage_pick(none) == GDR_COPIER_AUTO);		 /* nothing opened */
	CHECK(gdr_stage_pick(unmeasured) == GDR_COPIER_GDRCOPY); /* first that opened */
	CHECK(gdr_stage_pick(tie) == GDR_COPIER_CE);		 /* the order breaks a tie */
	CHECK(gdr_stage_pick(batch) == GDR_COPIER_BATCH);
}

/* Given probe rates per size (ce, gdrcopy, sm), the choice in words. */
static void expect(const uint64_t *sizes, const double (*rate)[GDR_STAGE_NCAND], size_t n,
		   const char *want)
{
	enum gdr_copier_kind kind[16];
	char buf[200];

	for (size_t i = 0; i < n; i++)
		kind[i] = gdr_stage_pick(rate[i]);
	gdr_stage_crossover(sizes, kind, n, buf, sizeof(buf));
	if (strcmp(buf, want))
		fprintf(stderr, "got \"%s\", want \"%s\"\n", buf, want);
	CHECK(!strcmp(buf, want));
}

static void crossover_cases(void)
{
	const uint64_t sz[] = {8, 1024, 16384, 32768, 1 << 20, 3 << 20};
	/* sm faster up to 16 KiB, the copy engine from 32 KiB; gdrcopy cannot open */
	const double two[][GDR_STAGE_NCAND] = {
	    {1e6, -1, 4e6}, {1e8, -1, 3e8},  {1e9, -1, 2e9},
	    {4e9, -1, 3e9}, {2e10, -1, 5e9}, {2.2e10, -1, 5e9},
	};
	const double three[][GDR_STAGE_NCAND] = {
	    {1e6, 5e6, 4e6}, {1e8, 3e8, 2e8},  {1e9, 1.1e9, 2e9},
	    {4e9, 1e9, 3e9}, {2e10, 1e9, 5e9}, {2.2e10, 1e9, 5e9},
	};
	const double one[][GDR_STAGE_NCAND] = {
	    {1e9, -1, -1}, {2e9, -1, -1}, {3e9, -1, -1},
	    {4e9, -1, -1}, {5e9, -1, -1}, {6e9, -1, -1},
	};
	const double mid[][GDR_STAGE_NCAND] = {
	    {1, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0},
	};

	expect(sz, two, 6, "sm up to 16 KiB, ce from 32 KiB");
	expect(sz, three, 6, "gdrcopy up to 1 KiB, sm at 16 KiB, ce from 32 KiB");
	expect(sz, one, 6, "ce at every size");
	const double span[][GDR_STAGE_NCAND] = {
	    {1, 2, 3}, {1, 3, 2}, {1, 3, 2}, {1, 3, 2}, {3, 2, 1}, {3, 2, 1},
	};

	expect(sz, mid, 6, "ce up to 1 KiB, sm at 16 KiB, ce from 32 KiB");
	expect(sz, span, 6, "sm up to 8 B, gdrcopy from 1 KiB to 32 KiB, ce from 1 MiB");
	expect(sz + 1, three + 1, 4, "gdrcopy up to 1 KiB, sm at 16 KiB, ce from 32 KiB");
}

static void cell_cases(void)
{
	char b[24];

	gdr_stage_copy_cell(GDR_COPIER_SM, GDR_COPIER_CE, b, sizeof(b));
	CHECK(!strcmp(b, "sm/ce"));
	gdr_stage_copy_cell(GDR_COPIER_GDRCOPY, GDR_COPIER_GDRCOPY, b, sizeof(b));
	CHECK(!strcmp(b, "gdrcopy"));
	gdr_stage_copy_cell(GDR_COPIER_MEMCPY, GDR_COPIER_SM, b, sizeof(b));
	CHECK(!strcmp(b, "memcpy/sm"));
}

int main(void)
{
	pick_cases();
	crossover_cases();
	cell_cases();
	return CHECK_DONE();
}
