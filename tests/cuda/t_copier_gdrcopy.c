/* SPDX-License-Identifier: MIT */
/*
 * The gdrcopy copier on CUDA memory, through whatever libgdrapi.so.2 and
 * libcuda.so.1 GDR_LIBGDRAPI and GDR_LIBCUDA name: the doubles in `make
 * check` (t_copier_gdrcopy_double.sh), the real ones on a GPU host with
 * gdrdrv. Patterns both ways at 1 B..4 MiB at odd offsets of a buffer that
 * does not start on a GPU page, checked byte for byte through the CUDA
 * backend's own copies; one reason line and -1 for each failure the double
 * injects, for an absent or foreign library and for host test memory.
 * Skips (77) where no CUDA driver or no gdrcopy is usable.
 */
#include "config.h"
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "copier_gdrcopy.h"
#include "cuda_api.h"
#include "gdrapi.h"
#include "log.h"
#include "mem.h"

#include "../unit/capture.h"
#include "../unit/check.h"
#include "pattern.h"

#define MiB (1UL << 20)

/* The double's test hook; NULL with the real library. */
typedef void (*counts_fn)(unsigned long *to, unsigned long *from, int *open, int *pinned,
			  int *mapped);
static counts_fn counts;
/* The CUDA allocation behind the copier's buffer, which starts head bytes into it. */
static struct gdr_mem *whole;
static size_t head;

static void live(int *open, int *pinned, int *mapped, unsigned long *to, unsigned long *from)
{
	unsigned long t, f;

	counts(to ? to : &t, from ? from : &f, open, pinned, mapped);
}

static int cuda_mem(struct gdr_mem *m, size_t len)
{
	struct gdr_mem_cfg mc = {.gpu = 0};

	if (gdr_mem_cuda_init(m, &mc, NULL) || m->ops->alloc(m, len))
		return -1;
	return 0;
}

/* Open cp on data with stderr captured into err; returns open's result. */
static int open_captured(struct gdr_copier *cp, char *why, size_t n, char *err, size_t en)
{
	struct capture c;
	int rc;

	capture_on(&c, 2);
	why[0] = 0;
	rc = cp->ops->open(cp, why, n);
	capture_off(&c, err, en);
	return rc;
}

/* open must fail with -1, one line naming want in why, nothing printed. */
static void expect_refusal(struct gdr_copier *cp, const char *want, const char *alt)
{
	char why[256], err[512];
	int rc = open_captured(cp, why, sizeof(why), err, sizeof(err));

	CHECK(rc == -1, "open succeeded where '%s' was expected", want);
	CHECK(why[0] && !strchr(why, '\n'), "why: '%s'", why);
	CHECK(strstr(why, want) || (alt && strstr(why, alt)), "why '%s' lacks '%s'", why, want);
	CHECK(!err[0], "open printed: %s", err);
	CHECK(cp->priv == NULL);
	printf("  refused: %s\n", why);
}

/*
 * Both directions at one size and offset. The GPU side is written and read
 * back through the CUDA backend (cuMemcpy), so the bytes must really land in
 * the GPU buffer at off, and nowhere else.
 */
static void round_trip(struct gdr_copier *cp, uint8_t *scratch, size_t off, size_t len, size_t hoff,
		       uint32_t seed)
{
	struct gdr_mem *m = whole;
	uint8_t *h = cp->host + hoff;
	size_t lo = off ? off - 1 : 0,
	       hi = off + len < cp->data->len ? off + len + 1 : cp->data->len;

	/* host -> GPU */
	CHECK(m->ops->from_host(m, head + lo, memset(scratch, 0x3c, hi - lo), hi - lo) == 0);
	pattern_fill(h, len, 0, seed);
	CHECK(cp->ops->submit(cp, GDR_FROM_HOST, off, h, len) == 0);
	CHECK(cp->ops->reap(cp, GDR_FROM_HOST) == 1);
	CHECK(m->ops->to_host(m, scratch, head + lo, hi - lo) == 0);
	CHECK(pattern_first_bad(scratch + (off - lo), len, 0, seed) == len, "to GPU: %zu B at %zu",
	      len, off);
	CHECK(scratch[0] == 0x3c || lo == off, "byte before %zu written", off);
	CHECK(scratch[hi - lo - 1] == 0x3c || hi == off + len, "byte after %zu+%zu written", off,
	      len);

	/* GPU -> host */
	pattern_fill(scratch, len, 0, seed + 1);
	CHECK(m->ops->from_host(m, head + off, scratch, len) == 0);
	memset(h - 1, 0xc3, len + 2);
	CHECK(cp->ops->submit(cp, GDR_TO_HOST, off, h, len) == 0);
	{ /* above GDR_GDRCOPY_D2H_MAX the copy engine copies: reaped once it is done */
		int got = 0;

		for (int t = 0; t < 1000000 && !got; t++)
			got = cp->ops->reap(cp, GDR_TO_HOST);
		CHECK(got == 1, "device->host of %zu B reaped %d", len, got);
	}
	CHECK(pattern_first_bad(h, len, 0, seed + 1) == len, "to host: %zu B at %zu", len, off);
	CHECK(h[-1] == 0xc3 && h[len] == 0xc3, "host neighbours of %zu+%zu written", hoff, len);
}

static void copies(struct gdr_copier *cp)
{
	static const size_t lens[] = {1,    2,	  3,	 7,	63,    64,	65,
				      4095, 4097, 65535, 65536, 65537, MiB + 3, 4 * MiB};
	static const size_t offs[] = {0, 1, 4093, 65535, 65537, 3 * MiB / 2 + 5};
	uint8_t *scratch = malloc(cp->data->len);
	unsigned long to0, from0, to1, from1;
	int o, p, mp, k = 0, small = 0;
	size_t i, j;

	CHECK(scratch != NULL);
	if (!scratch)
		return;
	if (counts)
		live(&o, &p, &mp, &to0, &from0);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (j = 0; j < sizeof(offs) / sizeof(offs[0]); j++) {
			size_t hoff = 1 + 2 * j; /* odd host offsets too */

			if (offs[j] + lens[i] > cp->data->len || hoff + lens[i] + 1 > cp->host_len)
				continue;
			round_trip(cp, scratch, offs[j], lens[i], hoff, (uint32_t)(i * 16 + j));
			k++;
			small += lens[i] <= GDR_GDRCOPY_D2H_MAX;
		}
	/* the last byte and the whole buffer */
	round_trip(cp, scratch, cp->data->len - 1, 1, 1, 77);
	round_trip(cp, scratch, 0, cp->data->len, 1, 78);
	k += 2;
	small += 1;
	printf("  %d round trips, 1 B..%zu B, byte for byte\n", k, cp->data->len);
	if (counts) {
		live(&o, &p, &mp, &to1, &from1);
		/* host->device through the mapping always; device->host only up to
		 * GDR_GDRCOPY_D2H_MAX (BAR1 reads are slow), the copy engine above */
		CHECK(to1 - to0 == (unsigned long)k && from1 - from0 == (unsigned long)small,
		      "double saw %lu/%lu copies for %d (%d device->host up to %d B)", to1 - to0,
		      from1 - from0, k, small, GDR_GDRCOPY_D2H_MAX);
		CHECK(small > 0 && small < k, "both kinds of device->host copy ran");
	}
	free(scratch);
}

/* The double's rate model: a copy through the mapping takes size / rate at least. */
static void rates(struct gdr_copier *cp)
{
	struct timespec t0, t1;
	double s;

	setenv("GDR_GDRCOPY_DOUBLE_RATE", "write=0.002,read=0.001", 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(cp->ops->submit(cp, GDR_FROM_HOST, 0, cp->host, 4096) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	CHECK(s >= 4096 / 2e6, "4 KiB written at 2 MB/s in %g s", s);
	CHECK(cp->ops->submit(cp, GDR_TO_HOST, 0, cp->host, 4096) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	s = (double)(t0.tv_sec - t1.tv_sec) + (double)(t0.tv_nsec - t1.tv_nsec) * 1e-9;
	CHECK(s >= 4096 / 1e6, "4 KiB read at 1 MB/s in %g s", s);
	unsetenv("GDR_GDRCOPY_DOUBLE_RATE");
	CHECK(cp->ops->reap(cp, GDR_FROM_HOST) == 1 && cp->ops->reap(cp, GDR_TO_HOST) == 1);
}

/* Several copies before one reap; reap is per direction; bad input refused. */
static void reaping(struct gdr_copier *cp)
{
	CHECK(cp->ops->submit(cp, GDR_FROM_HOST, 0, cp->host, 16) == 0);
	CHECK(cp->ops->submit(cp, GDR_FROM_HOST, 16, cp->host, 16) == 0);
	CHECK(cp->ops->submit(cp, GDR_TO_HOST, 0, cp->host + 32, 16) == 0);
	CHECK(cp->ops->reap(cp, GDR_TO_HOST) == 1);
	CHECK(cp->ops->reap(cp, GDR_FROM_HOST) == 2);
	CHECK(cp->ops->reap(cp, GDR_FROM_HOST) == 0);
	fprintf(stderr, "  (two refusals expected next)\n");
	CHECK(cp->ops->submit(cp, GDR_TO_HOST, cp->data->len - 3, cp->host, 4) == -1);
	CHECK(cp->ops->submit(cp, GDR_TO_HOST, 0, cp->host + cp->host_len - 3, 4) == -1);
	CHECK(cp->ops->reap(cp, GDR_TO_HOST) == 0);
}

/*
 * The double keeps the library's alignment rule: a pin at an address off
 * the GPU page cannot be mapped; host memory cannot be pinned.
 */
static void double_rules(struct gdr_mem *m)
{
	const struct gdr_gdrapi *api;
	struct gdr_gdrapi_mh mh;
	char why[256];
	void *g, *va = NULL;
	uint8_t *hostbuf = malloc(GDR_GPU_PAGE_SIZE);

	CHECK(gdr_gdrapi_load(&api, why, sizeof(why)) == 0);
	g = api->gdr_open();
	CHECK(g != NULL);
	CHECK(api->gdr_pin_buffer(g, (unsigned long)(uintptr_t)m->addr + 4096, 4096, 0, 0, &mh) ==
	      0);
	CHECK(api->gdr_map(g, mh, &va, GDR_GPU_PAGE_SIZE) != 0, "unaligned pin was mapped");
	CHECK(api->gdr_unpin_buffer(g, mh) == 0);
	CHECK(api->gdr_pin_buffer(g, (unsigned long)(uintptr_t)hostbuf, 4096, 0, 0, &mh) != 0,
	      "host memory was pinned");
	CHECK(api->gdr_close(g) == 0);
	free(hostbuf);
}

/*
 * In a child (the loader caches its result): GDR_LIBGDRAPI names lib, and the
 * copier must refuse to open with one line saying want.
 */
static int bad_library(const char *lib, const char *want)
{
	struct gdr_mem m = {0};
	struct gdr_copier cp = {.ops = &gdr_copier_gdrcopy_ops};
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("GDR_LIBGDRAPI", lib, 1);
		if (cuda_mem(&m, MiB))
			_exit(77);
		cp.data = &m;
		cp.host = m.ops->host_alloc(&m, 4096);
		cp.host_len = 4096;
		expect_refusal(&cp, want, NULL);
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
	const struct gdr_cuda_api *cu;
	const struct gdr_gdrapi *api;
	struct gdr_mem m = {0}, view, hostm = {0};
	struct gdr_copier cp = {.ops = &gdr_copier_gdrcopy_ops, .lanes = 1};
	size_t len = 4 * MiB + 3 * GDR_GPU_PAGE_SIZE + 13, hlen = len + 4096;
	const char *lib = getenv("GDR_LIBGDRAPI");
	char why[256];
	int o, p, mp, rc;

	gdr_set_prog("t_copier_gdrcopy");
	/*
	 * The forked cases first: a real CUDA driver does not work in a child
	 * forked after the parent initialised it (the double does), so the
	 * parent loads the driver only after them. 77 from a child: no GPU.
	 */
	rc = bad_library("/nonexistent/libgdrapi.so.2", "libgdrapi.so.2 not found");
	CHECK(rc == 0 || rc == 77, "absent library case: child exit %d", rc);
	/* a library that is not gdrcopy's: the first missing call is named */
	rc = bad_library("libc.so.6", "libc.so.6 lacks gdr_open: not a gdrcopy 2.x library");
	CHECK(rc == 0 || rc == 77, "foreign library case: child exit %d", rc);
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		printf("skip: %s\n", why);
		return failures ? 1 : 77;
	}
	CHECK(rc == 0, "the forked cases found no GPU where the parent finds one");
	CHECK(gdr_copier_gdrcopy_ops.kind == GDR_COPIER_GDRCOPY &&
	      !strcmp(gdr_copier_gdrcopy_ops.name, "gdrcopy"));

	/* host test memory: nothing to map */
	hostm.ops = &gdr_mem_host_ops;
	CHECK(hostm.ops->alloc(&hostm, MiB) == 0);
	cp.data = &hostm;
	expect_refusal(&cp, "CUDA GPU memory through BAR1 only", NULL);
	hostm.ops->free(&hostm);

	if (gdr_gdrapi_load(&api, why, sizeof(why))) {
		printf("skip: %s\n", why);
		return failures ? 1 : 77;
	}
	if (lib) {
		void *h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);

		counts = h ? (counts_fn)(uintptr_t)dlsym(h, "gdr_double_counts") : NULL;
	}
	printf("libgdrapi: %s%s\n", lib ? lib : "libgdrapi.so.2",
	       counts ? " (the gdrcopy double)" : "");

	head = 4096 + 1;
	whole = &m;
	CHECK(cuda_mem(&m, len + head) == 0);
	if (failures)
		return 1;
	/* a buffer that starts 4097 bytes into a GPU page, as a view of m (address, length) */
	view = m;
	view.addr = (uint8_t *)m.addr + head;
	view.len = len;
	cp.data = &view;
	cp.host = m.ops->host_alloc(&m, hlen);
	cp.host_len = hlen;
	CHECK(cp.host != NULL);

	rc = cp.ops->open(&cp, why, sizeof(why));
	CHECK(rc == 0, "open: %s", why);
	if (rc) {
		if (!counts && strstr(why, "gdrdrv")) {
			printf("skip: %s\n", why);
			return 77;
		}
		return 1;
	}
	if (counts) {
		live(&o, &p, &mp, NULL, NULL);
		CHECK(o == 1 && p == 1 && mp == 1, "open/pinned/mapped %d/%d/%d", o, p, mp);
	}
	copies(&cp);
	reaping(&cp);
	if (counts)
		rates(&cp);
	cp.ops->close(&cp);
	CHECK(cp.priv == NULL);
	if (counts) {
		live(&o, &p, &mp, NULL, NULL);
		CHECK(o == 0 && p == 0 && mp == 0, "after close: open/pinned/mapped %d/%d/%d", o, p,
		      mp);
	}

	if (counts) {
		double_rules(&m);
		/* each injected fault: -1, one line naming it, nothing left open */
		setenv("GDR_GDRCOPY_DOUBLE_FAIL", "open", 1);
		expect_refusal(&cp, "gdrdrv module not loaded (no /dev/gdrdrv)", "gdr_open failed");
		setenv("GDR_GDRCOPY_DOUBLE_FAIL", "pin", 1);
		expect_refusal(&cp, "gdr_pin_buffer", NULL);
		setenv("GDR_GDRCOPY_DOUBLE_FAIL", "map", 1);
		expect_refusal(&cp, "gdr_map", NULL);
		/* a misspelt fault is named by the double, not taken for none */
		{
			char err[512];

			setenv("GDR_GDRCOPY_DOUBLE_FAIL", "pin,opne", 1);
			CHECK(open_captured(&cp, why, sizeof(why), err, sizeof(err)) == -1);
			CHECK(strstr(err, "unknown fault 'opne'"), "stderr: %s", err);
		}
		unsetenv("GDR_GDRCOPY_DOUBLE_FAIL");
		live(&o, &p, &mp, NULL, NULL);
		CHECK(o == 0 && p == 0 && mp == 0, "after faults: open/pinned/mapped %d/%d/%d", o,
		      p, mp);
		/* and the copier opens again once the fault is gone */
		CHECK(cp.ops->open(&cp, why, sizeof(why)) == 0, "reopen: %s", why);
		if (cp.priv) {
			round_trip(&cp, cp.host + hlen / 2, 65537, 4097, 3, 5);
			cp.ops->close(&cp);
		}
	}
	m.ops->host_free(&m, cp.host, hlen);
	gdr_mem_fini(&m);
	return CHECK_DONE();
}
