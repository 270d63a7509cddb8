/* SPDX-License-Identifier: MIT */
/*
 * The gdrcopy double (a test tool, never installed): a libgdrapi.so.2 over
 * host memory, for use with the CUDA driver double, whose device pointers are
 * host addresses of its own memfd mappings ("gdr-cuda-double" in
 * /proc/self/maps). A "BAR1 mapping" here is that same memory, so data
 * written through the double is what the CUDA double's copies read back.
 *
 * It keeps the library's rules, and is stricter where the library would
 * silently corrupt or crash:
 *   - gdr_pin_buffer rounds out to 64 KiB GPU pages and refuses (EINVAL) a
 *     range that is not CUDA double device memory; gdr_map refuses (EINVAL)
 *     a range pinned at an address that is not GPU page aligned, as gdrdrv
 *     does, a size over what was pinned, and (EAGAIN) a second mapping;
 *   - gdr_unmap wants the address and size gdr_map gave; gdr_unpin_buffer
 *     refuses (EBUSY) a range still mapped; copies outside the mapping abort
 *     with one line (the library would fault or write elsewhere).
 * Environment, read at every call:
 *   GDR_GDRCOPY_DOUBLE_FAIL  open | pin | map (comma-separated): gdr_open
 *                            returns NULL, gdr_pin_buffer EINVAL, gdr_map
 *                            EINVAL, as the library does when gdrdrv is
 *                            absent, the GPU driver refuses the pin, the
 *                            mmap is refused. An unknown name: gdr_open
 *                            fails after one line naming it.
 *   GDR_GDRCOPY_DOUBLE_RATE  write=GBPS,read=GBPS (either may be left out): a
 *                            copy to the mapping (a CPU write through BAR1)
 *                            takes at least size / write GB/s, a copy from
 *                            it (a BAR1 read) size / read GB/s, spinning, as
 *                            a real BAR1 mapping's write and read rates set
 *                            them (gdrcopy's copybw: writes near the link,
 *                            reads a fraction of a GB/s); unset: memcpy's.
 * gdr_double_counts() lets tests see what ran through it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXPORT	     __attribute__((visibility("default")))
#define GPU_PAGE     ((uint64_t)1 << 16)
#define MAX_PINS     64
#define DBL_MAGIC    0x67647262u
#define CUDA_DBL_TAG "gdr-cuda-double"

/* The library's handle and info layouts (see src/memory/gdrapi.h). */
struct mh {
	unsigned long h;
};
struct info {
	uint64_t va, mapped_size;
	uint32_t page_size;
	uint64_t tm_cycles;
	uint32_t cycles_per_ms;
	unsigned mapped : 1;
	unsigned wc_mapping : 1;
	int mapping_type;
};
struct info_v1 {
	uint64_t va, mapped_size;
	uint32_t page_size;
	uint64_t tm_cycles;
	uint32_t cycles_per_ms;
	unsigned mapped : 1;
	unsigned wc_mapping : 1;
};

struct pin {
	struct dbl *g; /* NULL: slot free */
	uint64_t va, size, offset;
	int mapped;
	size_t map_len;
};

struct dbl {
	unsigned magic;
};

static struct pin pins[MAX_PINS];
static unsigned long n_to, n_from, n_open, n_leaked;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static int fault(const char *what)
{
	const char *e = getenv("GDR_GDRCOPY_DOUBLE_FAIL");
	size_t n = strlen(what);

	while (e && *e) {
		if (!strncmp(e, what, n) && (e[n] == ',' || !e[n]))
			return 1;
		e = strchr(e, ',');
		if (e)
			e++;
	}
	return 0;
}

/* Every fault named is one the double knows; else one line, and 0. */
static int faults_valid(void)
{
	static const char *const known[] = {"open", "pin", "map"};
	const char *e = getenv("GDR_GDRCOPY_DOUBLE_FAIL");

	while (e && *e) {
		size_t n = strcspn(e, ","), i;

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (n == strlen(known[i]) && !strncmp(e, known[i], n))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			fprintf(stderr,
				"gdrcopy double: GDR_GDRCOPY_DOUBLE_FAIL: unknown fault '%.*s' "
				"(open, pin, map)\n",
				(int)n, e);
			return 0;
		}
		e += n;
		if (*e)
			e++;
	}
	return 1;
}

/* Is [a, a+len) inside one of the CUDA double's device allocations? */
static int cuda_double_memory(uint64_t a, uint64_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int ok = 0;

	if (!f)
		return 0;
	while (!ok && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && strstr(line, CUDA_DBL_TAG) &&
		    a >= lo && a + len <= hi && a + len >= a)
			ok = 1;
	}
	fclose(f);
	return ok;
}

/* The pin behind handle h of g, or NULL. Call with mu held. */
static struct pin *lookup(struct dbl *g, struct mh h)
{
	if (h.h < 1 || h.h > MAX_PINS || !pins[h.h - 1].g || (g && pins[h.h - 1].g != g))
		return NULL;
	return &pins[h.h - 1];
}

EXPORT void *gdr_open(void)
{
	struct dbl *g;

	if (!faults_valid() || fault("open"))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->magic = DBL_MAGIC;
	pthread_mutex_lock(&mu);
	n_open++;
	pthread_mutex_unlock(&mu);
	return g;
}

EXPORT int gdr_close(struct dbl *g)
{
	int i, left = 0;

	if (!g || g->magic != DBL_MAGIC)
		return EINVAL;
	pthread_mutex_lock(&mu);
	for (i = 0; i < MAX_PINS; i++)
		if (pins[i].g == g) {
			left++;
			pins[i].g = NULL;
		}
	n_open--;
	n_leaked += (unsigned long)left;
	pthread_mutex_unlock(&mu);
	g->magic = 0;
	free(g);
	if (left)
		fprintf(stderr, "gdrcopy double: gdr_close with %d range(s) still pinned\n", left);
	return 0;
}

EXPORT int gdr_pin_buffer(struct dbl *g, unsigned long addr, size_t size, uint64_t p2p_token,
			  uint32_t va_space, struct mh *handle)
{
	uint64_t start = addr & ~(GPU_PAGE - 1),
		 end = ((uint64_t)addr + size + GPU_PAGE - 1) & ~(GPU_PAGE - 1);
	int i;

	if (!g || g->magic != DBL_MAGIC || !handle || !size)
		return EINVAL;
	/* Tokens are refused where mappings persist (the default of current gdrdrv). */
	if (p2p_token || va_space || fault("pin"))
		return EINVAL;
	/* nvidia_p2p_get_pages pins GPU memory only */
	if (!cuda_double_memory(start, end - start))
		return EINVAL;
	pthread_mutex_lock(&mu);
	for (i = 0; i < MAX_PINS && pins[i].g; i++)
		;
	if (i < MAX_PINS)
		pins[i] = (struct pin){g, start, end - start, addr - start, 0, 0};
	pthread_mutex_unlock(&mu);
	if (i == MAX_PINS)
		return ENOMEM;
	handle->h = (unsigned long)i + 1;
	return 0;
}

EXPORT int gdr_unpin_buffer(struct dbl *g, struct mh h)
{
	struct pin *p;
	int rc = 0;

	pthread_mutex_lock(&mu);
	p = lookup(g, h);
	if (!p)
		rc = EINVAL;
	else if (p->mapped)
		rc = EBUSY;
	else
		p->g = NULL;
	pthread_mutex_unlock(&mu);
	if (rc == EBUSY)
		fprintf(stderr, "gdrcopy double: gdr_unpin_buffer of a mapped range (gdr_unmap "
				"first)\n");
	return rc;
}

EXPORT int gdr_get_info_v2(struct dbl *g, struct mh h, struct info *out)
{
	struct pin *p;
	int rc = 0;

	pthread_mutex_lock(&mu);
	p = lookup(g, h);
	if (!p || !out)
		rc = EINVAL;
	else
		*out = (struct info){.va = p->va,
				     .mapped_size = p->size,
				     .page_size = GPU_PAGE,
				     .mapped = p->mapped,
				     .wc_mapping = p->mapped,
				     .mapping_type = p->mapped ? 1 : 0};
	pthread_mutex_unlock(&mu);
	return rc;
}

/* The older call of the same name, kept by the library for old binaries. */
EXPORT int gdr_get_info(struct dbl *g, struct mh h, struct info_v1 *out)
{
	struct info i;
	int rc = out ? gdr_get_info_v2(g, h, &i) : EINVAL;

	if (!rc)
		*out = (struct info_v1){.va = i.va,
					.mapped_size = i.mapped_size,
					.page_size = i.page_size,
					.mapped = i.mapped,
					.wc_mapping = i.wc_mapping};
	return rc;
}

EXPORT int gdr_map(struct dbl *g, struct mh h, void **va, size_t size)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct pin *p;
	int rc = 0;

	pthread_mutex_lock(&mu);
	p = lookup(g, h);
	if (!p || !va || !size)
		rc = EINVAL;
	else if (p->mapped)
		rc = EAGAIN;
	else if (fault("map") || p->offset || size > p->size)
		rc = EINVAL; /* gdrdrv maps whole pins from a GPU page boundary only */
	if (!rc) {
		p->mapped = 1;
		p->map_len = (size + (size_t)pg - 1) & ~((size_t)pg - 1);
		*va = (void *)(uintptr_t)p->va;
	}
	pthread_mutex_unlock(&mu);
	return rc;
}

EXPORT int gdr_unmap(struct dbl *g, struct mh h, void *va, size_t size)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct pin *p;
	int rc = 0;

	pthread_mutex_lock(&mu);
	p = lookup(g, h);
	if (!p || !p->mapped || (uintptr_t)va != p->va ||
	    ((size + (size_t)pg - 1) & ~((size_t)pg - 1)) != p->map_len)
		rc = EINVAL;
	else
		p->mapped = 0;
	pthread_mutex_unlock(&mu);
	return rc;
}

/* The mapping holding [m, m+len) through handle h; aborts when a copy would leave it. */
static int check_copy(struct mh h, const void *m, size_t len, unsigned long *count)
{
	uintptr_t a = (uintptr_t)m;
	struct pin *p;
	int rc = 0;

	pthread_mutex_lock(&mu);
	p = lookup(NULL, h);
	if (!p || !p->mapped) {
		rc = EINVAL; /* the library: "mh is not mapped yet" */
	} else if (a < p->va || a - p->va > p->map_len || len > p->map_len - (a - p->va)) {
		fprintf(stderr,
			"gdrcopy double: copy of %zu bytes at %p outside the mapping "
			"[0x%llx, +%zu)\n",
			len, m, (unsigned long long)p->va, p->map_len);
		abort();
	} else {
		(*count)++;
	}
	pthread_mutex_unlock(&mu);
	return rc;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* GDR_GDRCOPY_DOUBLE_RATE's "key=GBPS" in bytes per second; 0 when not given. */
static double rate_of(const char *key)
{
	const char *e = getenv("GDR_GDRCOPY_DOUBLE_RATE");
	size_t n = strlen(key);

	while (e && *e) {
		if (!strncmp(e, key, n) && e[n] == '=') {
			double v = strtod(e + n + 1, NULL);

			return v > 0 ? v * 1e9 : 0;
		}
		e = strchr(e, ',');
		if (e)
			e++;
	}
	return 0;
}

/* Spin until a copy of size bytes that began at t0 has taken size / rate. */
static void pace(const char *key, double t0, size_t size)
{
	double r = rate_of(key);

	if (r > 0)
		while (now_s() - t0 < (double)size / r)
			;
}

EXPORT int gdr_copy_to_mapping(struct mh h, void *map_d_ptr, const void *h_ptr, size_t size)
{
	double t0 = now_s();
	int rc = check_copy(h, map_d_ptr, size, &n_to);

	if (!rc && size) {
		memcpy(map_d_ptr, h_ptr, size);
		pace("write", t0, size);
	}
	return rc;
}

EXPORT int gdr_copy_from_mapping(struct mh h, void *h_ptr, const void *map_d_ptr, size_t size)
{
	double t0 = now_s();
	int rc = check_copy(h, map_d_ptr, size, &n_from);

	if (!rc && size) {
		memcpy(h_ptr, map_d_ptr, size);
		pace("read", t0, size);
	}
	return rc;
}

EXPORT void gdr_runtime_get_version(int *major, int *minor)
{
	*major = 2;
	*minor = 4;
}

EXPORT int gdr_driver_get_version(struct dbl *g, int *major, int *minor)
{
	if (!g || g->magic != DBL_MAGIC)
		return EINVAL;
	*major = 2;
	*minor = 4;
	return 0;
}

/*
 * Test hook, not in the library: copies to and from mappings so far, the
 * handles still open, pinned and mapped, and the pins gdr_close found left
 * behind so far (counted as pinned: the library would release them, a
 * careful caller never leaves any).
 */
EXPORT void gdr_double_counts(unsigned long *to, unsigned long *from, int *open, int *pinned,
			      int *mapped)
{
	int i;

	pthread_mutex_lock(&mu);
	*to = n_to;
	*from = n_from;
	*open = (int)n_open;
	*pinned = (int)n_leaked;
	*mapped = 0;
	for (i = 0; i < MAX_PINS; i++)
		if (pins[i].g) {
			(*pinned)++;
			*mapped += pins[i].mapped;
		}
	pthread_mutex_unlock(&mu);
}
