/* SPDX-License-Identifier: MIT */
/*
 * The sm copier (src/staging/copier_sm.c) on whatever libcuda.so.1
 * GDR_LIBCUDA names: the real driver on a GPU host (the kernel itself), the
 * CUDA driver double in `make check` (the protocol; t_copier_sm_double.sh).
 * Skips (77) where no driver or GPU is present.
 *
 *   t_copier_sm          data byte for byte at 1 B..4 MiB and odd offsets on
 *                        both sides, doorbells in a row on every lane of both
 *                        directions at once, stop, a copy after stop
 *   t_copier_sm stuck    (GDR_DOUBLE_FAIL=stuck:N) a kernel that stops
 *                        answering: reap gives -1 within the timeout, close
 *                        returns within it
 *   t_copier_sm nolaunch (GDR_DOUBLE_FAIL=launch) open fails with a reason
 *   t_copier_sm runs     three runs one after another, as a --persistent
 *                        server serves its clients: each takes the GPU,
 *                        opens the copier, copies, closes it and gives the
 *                        GPU back; with GDR_DOUBLE_LOADS=FILE (the double's
 *                        count of cuModuleLoadData), the module was loaded
 *                        once
 */
#include "config.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "clock.h"
#include "copier_sm.h"
#include "cuda_api.h"
#include "cuda_skip.h"
#include "gpu_alone.h"
#include "log.h"
#include "mem.h"
#include "sm_proto.h"

#include "../unit/check.h"
#include "pattern.h"

#define KiB	(1UL << 10)
#define MiB	(1UL << 20)
#define DATA	(16 * MiB)
#define BOUNCE	(12 * MiB)
#define WAIT_NS 3000000000ULL

static struct gdr_mem dev, bounce;

static int open_sm(struct gdr_copier *cp, unsigned int lanes, uint64_t timeout_ns)
{
	char why[256] = "";

	*cp = (struct gdr_copier){.data = &dev,
				  .host = bounce.addr,
				  .host_len = BOUNCE,
				  .lanes = lanes,
				  .timeout_ns = timeout_ns};
	if (gdr_copier_sm_ops.open(cp, why, sizeof(why))) {
		printf("  open: %s\n", why);
		return -1;
	}
	cp->ops = &gdr_copier_sm_ops;
	return 0;
}

/* Reap direction d until at most keep copies are pending; -1 when the copier fails. */
static int reap_to(struct gdr_copier *cp, enum gdr_copy_dir d, uint64_t keep)
{
	while (cp->submitted[d] - cp->done[d] > keep) {
		int n = cp->ops->reap(cp, d);

		if (n < 0)
			return -1;
		cp->done[d] += (uint64_t)n;
	}
	return 0;
}

static int submit(struct gdr_copier *cp, enum gdr_copy_dir d, size_t off, uint8_t *h, size_t len)
{
	if (reap_to(cp, d, cp->lanes - 1) || cp->ops->submit(cp, d, off, h, len))
		return -1;
	cp->submitted[d]++;
	return 0;
}

/*
 * Up at dev offset doff from bounce offset hoff, back down to bounce offset
 * hoff2: byte for byte, and the bytes just outside untouched on both sides.
 */
static void round_trip(struct gdr_copier *cp, size_t len, size_t doff, size_t hoff, size_t hoff2,
		       uint32_t seed)
{
	uint8_t *h = bounce.addr, *out = h + hoff2, edge[2];
	size_t bad;

	CHECK(gdr_mem_fill_byte(&dev, doff - 1, len + 2, 0x5a) == 0);
	pattern_fill(h + hoff, len, 0, seed);
	memset(out - 1, 0xc3, len + 2);
	CHECK(submit(cp, GDR_FROM_HOST, doff, h + hoff, len) == 0 &&
	      reap_to(cp, GDR_FROM_HOST, 0) == 0);
	CHECK(submit(cp, GDR_TO_HOST, doff, out, len) == 0 && reap_to(cp, GDR_TO_HOST, 0) == 0);
	bad = pattern_first_bad(out, len, 0, seed);
	CHECK(bad == len, "%zu B, dev +%zu, host +%zu -> +%zu: first wrong byte at %zu", len, doff,
	      hoff, hoff2, bad);
	CHECK(out[-1] == 0xc3 && out[len] == 0xc3, "%zu B: host bytes around the copy touched",
	      len);
	CHECK(dev.ops->to_host(&dev, &edge[0], doff - 1, 1) == 0 &&
	      dev.ops->to_host(&dev, &edge[1], doff + len, 1) == 0);
	CHECK(edge[0] == 0x5a && edge[1] == 0x5a, "%zu B at dev +%zu: GPU bytes around it touched",
	      len, doff);
}

static void sizes_and_offsets(void)
{
	static const size_t lens[] = {1,     2,		3,	 7,   8,	   15,	   16,
				      17,    31,	63,	 255, 4095,	   4096,   4097,
				      65535, 65536 + 3, MiB - 1, MiB, 3 * MiB + 5, 4 * MiB};
	/* dev/host skews of 0, 1, 4, 8 (mod 16): the 16-, 1-, 4- and 8-byte paths */
	static const size_t doffs[] = {16, 17, 20, 24, 4096 + 3};
	static const size_t hoffs[] = {16, 16, 16, 16, 7};
	struct gdr_copier cp;
	unsigned int i, j, n = 0;

	if (open_sm(&cp, 2, WAIT_NS)) {
		CHECK(0, "the sm copier did not open");
		return;
	}
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (j = 0; j < sizeof(doffs) / sizeof(doffs[0]); j++, n++)
			round_trip(&cp, lens[i], doffs[j], hoffs[j], 5 * MiB + 1 + j, 11 + n);
	printf("  %u round trips, 1 B..4 MiB, dev/host skew 0, 1, 4, 8 mod 16: %s\n", n,
	       failures ? "FAILED" : "byte for byte");
	gdr_copier_sm_ops.close(&cp);
}

/*
 * Doorbells in a row: chunks go up on every lane while earlier chunks come
 * back down on every lane at once, each checked as it is reaped.
 */
static void many_doorbells(unsigned int lanes, unsigned int count)
{
	const size_t slot = 64 * KiB;
	uint8_t *up = bounce.addr, *down = up + lanes * slot;
	size_t *off = calloc(count, sizeof(*off)), *len = calloc(count, sizeof(*len)), at = 0;
	unsigned int i, back = 0, checked = 0;
	struct gdr_copier cp;
	uint64_t t0;

	if (!off || !len || open_sm(&cp, lanes, WAIT_NS)) {
		CHECK(0, "the sm copier did not open");
		free(off);
		free(len);
		return;
	}
	t0 = gdr_now_ns();
	for (i = 0; i < count && !failures; i++) {
		unsigned int k = i % lanes;

		len[i] = 1 + (i * 7919u) % (slot - 1);
		off[i] = at;
		at = (at + len[i] + (i & 15)) % (DATA - 2 * slot); /* lag << wrap: no overlap */
		/* the lane's previous upward copy must be done before its bytes are rewritten */
		CHECK(reap_to(&cp, GDR_FROM_HOST, lanes - 1) == 0);
		pattern_fill(up + k * slot, len[i], 0, 1000 + i);
		CHECK(submit(&cp, GDR_FROM_HOST, off[i], up + k * slot, len[i]) == 0);
		/* bring back a chunk that is surely up, on the next downward lane */
		while (back < cp.done[GDR_FROM_HOST] && !failures) {
			unsigned int kb = back % lanes;

			CHECK(reap_to(&cp, GDR_TO_HOST, lanes - 1) == 0);
			while (checked < cp.done[GDR_TO_HOST]) {
				CHECK(pattern_first_bad(down + (checked % lanes) * slot,
							len[checked], 0,
							1000 + checked) == len[checked],
				      "chunk %u (%zu B) wrong after coming back", checked,
				      len[checked]);
				checked++;
			}
			CHECK(submit(&cp, GDR_TO_HOST, off[back], down + kb * slot, len[back]) ==
			      0);
			back++;
		}
	}
	CHECK(reap_to(&cp, GDR_FROM_HOST, 0) == 0);
	while (back < count && !failures) {
		CHECK(reap_to(&cp, GDR_TO_HOST, lanes - 1) == 0);
		while (checked < cp.done[GDR_TO_HOST]) {
			CHECK(pattern_first_bad(down + (checked % lanes) * slot, len[checked], 0,
						1000 + checked) == len[checked],
			      "chunk %u wrong after coming back", checked);
			checked++;
		}
		CHECK(submit(&cp, GDR_TO_HOST, off[back], down + (back % lanes) * slot,
			     len[back]) == 0);
		back++;
	}
	CHECK(reap_to(&cp, GDR_TO_HOST, 0) == 0);
	while (checked < cp.done[GDR_TO_HOST] && !failures) {
		CHECK(pattern_first_bad(down + (checked % lanes) * slot, len[checked], 0,
					1000 + checked) == len[checked],
		      "chunk %u wrong after coming back", checked);
		checked++;
	}
	CHECK(checked == count, "%u of %u chunks checked", checked, count);
	printf("  %u lanes: %u doorbells up and %u down, interleaved, in %.3f s: %s\n", lanes,
	       count, count, (double)(gdr_now_ns() - t0) * 1e-9,
	       failures ? "FAILED" : "every chunk byte for byte");
	/* stop: the kernel ends; a copy after it is reported at once, never waited on */
	CHECK(gdr_copier_sm_stop(&cp) == 0);
	CHECK(cp.ops->submit(&cp, GDR_TO_HOST, 0, down, 64) == 0);
	cp.submitted[GDR_TO_HOST]++;
	t0 = gdr_now_ns();
	CHECK(reap_to(&cp, GDR_TO_HOST, 0) == -1, "a copy after stop was acknowledged");
	printf("  after stop: a copy is refused in %.3f s (timeout %.1f s)\n",
	       (double)(gdr_now_ns() - t0) * 1e-9, WAIT_NS * 1e-9);
	CHECK(gdr_now_ns() - t0 < WAIT_NS / 2, "the ended kernel was waited on");
	gdr_copier_sm_ops.close(&cp);
	free(off);
	free(len);
}

/*
 * Park and resume (copier.h), as a run does around its other paths: parked,
 * the kernel has ended (a copy is refused at once, not waited on); resumed,
 * it copies byte for byte again from a clean doorbell page, cycle after cycle.
 */
static void park_resume(void)
{
	uint8_t *up = bounce.addr, *down = up + 4 * MiB;
	struct gdr_copier cp;
	char why[256] = "";
	unsigned int cycle, bad = 0;
	uint64_t t0;

	if (open_sm(&cp, 2, WAIT_NS)) {
		CHECK(0, "the sm copier did not open");
		return;
	}
	for (cycle = 0; cycle < 20 && !failures; cycle++) {
		size_t len = 4096 + 64 * cycle;

		pattern_fill(up, len, 0, 7000 + cycle);
		memset(down, 0, len);
		CHECK(submit(&cp, GDR_FROM_HOST, 0, up, len) == 0 &&
		      reap_to(&cp, GDR_FROM_HOST, 0) == 0 &&
		      submit(&cp, GDR_TO_HOST, 0, down, len) == 0 &&
		      reap_to(&cp, GDR_TO_HOST, 0) == 0);
		bad += pattern_first_bad(down, len, 0, 7000 + cycle) != len;
		CHECK(gdr_copier_park(&cp) == 0, "park %u", cycle);
		CHECK(gdr_copier_resume(&cp, why, sizeof(why)) == 0, "resume %u: %s", cycle, why);
	}
	CHECK(!bad, "%u of %u cycles brought wrong data back", bad, cycle);
	CHECK(gdr_copier_park(&cp) == 0 && gdr_copier_park(&cp) == 0, "a second park fails");
	CHECK(cp.ops->submit(&cp, GDR_TO_HOST, 0, down, 64) == 0);
	cp.submitted[GDR_TO_HOST]++;
	t0 = gdr_now_ns();
	CHECK(reap_to(&cp, GDR_TO_HOST, 0) == -1, "a copy on a parked copier was acknowledged");
	CHECK(gdr_now_ns() - t0 < WAIT_NS / 2, "the parked kernel was waited on");
	printf("  park/resume: %u cycles, data byte for byte each time; parked, a copy is refused "
	       "in %.3f s\n",
	       cycle, (double)(gdr_now_ns() - t0) * 1e-9);
	gdr_copier_sm_ops.close(&cp);
}

/*
 * After an idle spell the kernel's poll has backed off (sm_proto.h): the
 * next copy still comes within the longest pause, not after a wait that
 * grew with the idle time.
 */
static void idle_wake(void)
{
	const char *lib = getenv("GDR_LIBCUDA");
	bool real = !lib || !*lib; /* the driver's own kernel, not a double's thread */
	uint8_t *up = bounce.addr;
	struct gdr_copier cp;
	uint64_t t0, worst = 0;
	int i;

	if (open_sm(&cp, 1, WAIT_NS)) {
		CHECK(0, "the sm copier did not open");
		return;
	}
	for (i = 0; i < 5; i++) {
		struct timespec idle = {0, 50000000};

		nanosleep(&idle, NULL);
		t0 = gdr_now_ns();
		CHECK(submit(&cp, GDR_FROM_HOST, 0, up, 64) == 0 &&
		      reap_to(&cp, GDR_FROM_HOST, 0) == 0);
		t0 = gdr_now_ns() - t0;
		worst = t0 > worst ? t0 : worst;
	}
	printf("  after 50 ms idle: a 64 B copy within %.1f us (the poll's longest pause: %.1f "
	       "us)%s\n",
	       (double)worst * 1e-3, GDR_SM_PAUSE_MAX_NS * 1e-3,
	       real ? ""
		    : "; not judged: a double's kernel is a host thread, timed by the host's "
		      "scheduler");
	CHECK(!real || worst < 1000000, "a copy after 50 ms idle took %.3f ms",
	      (double)worst * 1e-6);
	gdr_copier_sm_ops.close(&cp);
}

/*
 * Three runs, as a --persistent server serves three clients: each retains
 * the GPU (gdr_mem_cuda_init), opens the copier, copies both ways, closes it
 * and releases the GPU (the double then destroys the context's modules, as
 * the driver does). Each run copies byte for byte; with GDR_DOUBLE_LOADS the
 * double counted one cuModuleLoadData for all three.
 */
static void runs(void)
{
	const char *loads = getenv("GDR_DOUBLE_LOADS");
	struct gdr_mem_cfg mc = {.gpu = 0};
	struct gdr_copier cp;
	char line[160];
	int r, n = 0;
	FILE *f;

	for (r = 0; r < 3; r++) {
		CHECK(gdr_mem_cuda_init(&dev, &mc, NULL) == 0 && dev.ops->alloc(&dev, DATA) == 0 &&
		      gdr_mem_bounce_init(&bounce, &dev, BOUNCE) == 0);
		if (failures)
			return;
		if (open_sm(&cp, 1, WAIT_NS)) {
			CHECK(0, "run %d: the sm copier did not open", r);
		} else {
			round_trip(&cp, 4097, 16, 16, 5 * MiB + 1, 900 + r);
			gdr_copier_sm_ops.close(&cp);
		}
		bounce.ops->free(&bounce);
		gdr_mem_fini(&dev);
	}
	if (!loads || !*loads) {
		printf("  3 runs: byte for byte each (module loads not counted: no "
		       "GDR_DOUBLE_LOADS)\n");
		return;
	}
	f = fopen(loads, "r");
	while (f && fgets(line, sizeof(line), f))
		n++;
	if (f)
		fclose(f);
	printf("  3 runs: byte for byte each; the kernel's module loaded %d time(s)\n", n);
	CHECK(n == 1, "the module was loaded %d times in 3 runs, not once", n);
}

/* GDR_DOUBLE_FAIL=stuck:N: the kernel answers N copies, then none, and ignores stop. */
static void stuck(void)
{
	const uint64_t tmo = 400000000ULL;
	struct gdr_copier cp;
	uint64_t t0, dt;
	int rc = 0, i;

	if (open_sm(&cp, 2, tmo)) {
		CHECK(0, "the sm copier did not open");
		return;
	}
	for (i = 0; i < 4 && !rc; i++) {
		rc = submit(&cp, GDR_FROM_HOST, 0, bounce.addr, 4096);
		t0 = gdr_now_ns();
		rc = rc ? rc : reap_to(&cp, GDR_FROM_HOST, 0);
		dt = gdr_now_ns() - t0;
	}
	printf("  copy %d not acknowledged: reap gave %d after %.3f s (timeout %.3f s)\n", i, rc,
	       (double)dt * 1e-9, (double)tmo * 1e-9);
	CHECK(rc == -1 && dt >= tmo && dt < tmo + 1000000000ULL);
	t0 = gdr_now_ns();
	gdr_copier_sm_ops.close(&cp);
	dt = gdr_now_ns() - t0;
	printf("  close of a kernel that ignores stop: returned after %.3f s\n", (double)dt * 1e-9);
	CHECK(dt >= tmo && dt < tmo + 1000000000ULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct gdr_copier cp;
	struct gdr_mem_cfg mc = {.gpu = 0};

	gdr_set_prog("t_copier_sm");
	(void)cuda_or_skip();
	gpu_alone(); /* gpu_alone.h: no other real-driver kernel test beside it */
	if (!strcmp(mode, "runs")) {
		printf("t_copier_sm runs (GDR_SM_BLOCKS=%s)\n",
		       getenv("GDR_SM_BLOCKS") ? getenv("GDR_SM_BLOCKS") : "default");
		runs();
		printf("t_copier_sm: %s\n", failures ? "FAILED" : "all checks passed");
		return failures ? 1 : 0;
	}
	CHECK(gdr_mem_cuda_init(&dev, &mc, NULL) == 0 && dev.ops->alloc(&dev, DATA) == 0);
	CHECK(gdr_mem_bounce_init(&bounce, &dev, BOUNCE) == 0);
	if (failures)
		return 1;
	printf("t_copier_sm on %s (GDR_SM_BLOCKS=%s)\n", dev.desc,
	       getenv("GDR_SM_BLOCKS") ? getenv("GDR_SM_BLOCKS") : "default");
	if (!strcmp(mode, "stuck")) {
		stuck();
	} else if (!strcmp(mode, "nolaunch")) {
		CHECK(open_sm(&cp, 2, WAIT_NS) == -1, "open succeeded though the launch fails");
	} else {
		sizes_and_offsets();
		park_resume();
		idle_wake();
		many_doorbells(1, 300);
		many_doorbells(GDR_COPIER_LANES, 2000);
	}
	bounce.ops->free(&bounce);
	gdr_mem_fini(&dev);
	printf("t_copier_sm: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
