/* SPDX-License-Identifier: MIT */
/*
 * The "add a copier" recipe of docs/ARCHITECTURE.md, walked: every name of the
 * one list (options/copier_names.h) is a registered copier of that name and
 * kind, names itself back, is bounded on the wire, and, for the GPU copiers,
 * is a candidate of auto in the list's order, a --stage_copy word that parses
 * to its kind and a word of --help; a name outside the list is none of these.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "capture.h"
#include "check.h"
#include "choice.h"
#include "copier.h"
#include "opts.h"

static const struct gdr_test T_WBW = {"write_bw", GDR_VERB_WRITE, GDR_KIND_BW};

static char err[4096], out[16384];

static int parse(const char *arg, struct gdr_opts *o)
{
	char a0[] = "gdr_write_bw", a1[64];
	char *argv[] = {a0, a1, NULL};
	struct capture ce, co;
	int rc;

	snprintf(a1, sizeof(a1), "%s", arg);
	capture_on(&ce, 2);
	capture_on(&co, 1);
	rc = gdr_opts_parse(o, &T_WBW, 2, argv);
	capture_off(&co, out, sizeof(out));
	capture_off(&ce, err, sizeof(err));
	return rc;
}

static void one(const char *name, enum gdr_copier_kind k, int gpu, int *ngpu)
{
	const struct gdr_copier_ops *ops = gdr_copier_find(name);
	char arg[64];
	struct gdr_opts o;
	int rc;

	CHECK(ops && ops->kind == k, "%s: registered with kind %d", name, (int)k);
	CHECK(gdr_copier_of(k) == ops, "%s: gdr_copier_of(%d)", name, (int)k);
	CHECK(ops && !strcmp(ops->name, name), "%s: ops->name", name);
	CHECK(!strcmp(gdr_stage_copy_name(k), name), "%s: gdr_stage_copy_name", name);
	CHECK(k > GDR_COPIER_AUTO && k < GDR_COPIER_NKINDS, "%s: inside the wire's bound", name);
	CHECK(ops && ops->submit && ops->reap, "%s: submit and reap", name);

	snprintf(arg, sizeof(arg), "--stage_copy=%s", name);
	rc = parse(arg, &o);
	if (gpu) {
		CHECK(*ngpu < GDR_STAGE_NCAND && gdr_stage_cand[*ngpu] == k,
		      "%s: candidate %d of auto", name, *ngpu);
		(*ngpu)++;
		CHECK(rc == 0 && o.stage_copy == (int)k, "%s: rc %d, stderr '%s'", arg, rc, err);
	} else {
		CHECK(rc != 0 && strstr(err, "--stage_copy"), "%s: refused, stderr '%s'", arg, err);
	}
	if (rc == 0)
		gdr_opts_free(&o);
}

int main(void)
{
	int ngpu = 0, n = 0;
	struct gdr_opts o;

#define GPU(name, NAME) one(#name, GDR_COPIER_##NAME, 1, &ngpu), n++;
	GDR_GPU_COPIERS(GPU)
#undef GPU
	one("memcpy", GDR_COPIER_MEMCPY, 0, &ngpu), n++;
	CHECK(ngpu == GDR_STAGE_NCAND && ngpu == GDR_NGPU_COPIERS, "%d GPU copiers", ngpu);
	CHECK(n + 1 == GDR_COPIER_NKINDS, "%d copiers and auto make the enum", n);
#define ALL(name, NAME) +1
	CHECK(0 GDR_COPIERS(ALL) == n, "GDR_COPIERS lists %d", 0 GDR_COPIERS(ALL));
#undef ALL

	/* --help names every GPU copier on --stage_copy's line */
	CHECK(parse("--help", &o) > 0, "--help");
	{
		const char *l = strstr(out, "--stage_copy=");
		const char *e = l ? strstr(l, "(default") : NULL;
#define HELP(name, NAME)                                                                           \
	CHECK(l && e && memmem(l, (size_t)(e - l), #name, strlen(#name)), "--help: " #name);
		GDR_GPU_COPIERS(HELP)
#undef HELP
	}

	/* a name outside the list: no copier, no word, "?" */
	CHECK(!gdr_copier_find("nocopier"));
	CHECK(!gdr_copier_of(GDR_COPIER_NKINDS));
	CHECK(!strcmp(gdr_stage_copy_name(GDR_COPIER_NKINDS), "?"));
	CHECK(parse("--stage_copy=nocopier", &o) != 0 && strstr(err, "--stage_copy"), "%s", err);
	return CHECK_DONE("%d copiers", n);
}
