/* SPDX-License-Identifier: MIT */
/* Unit test: gdr_parse_size and gdr_opts_sizes (-s, -a, --sizes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "opts.h"

#include "check.h"

static void good(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int rc = gdr_parse_size(s, &v);

	CHECK(rc == 0 && v == want, "'%s': rc %d value %llu, want %llu", s, rc,
	      (unsigned long long)v, (unsigned long long)want);
}

static void bad(const char *s)
{
	uint64_t v = 12345;

	CHECK(gdr_parse_size(s, &v) == -1, "'%s' accepted as %llu", s, (unsigned long long)v);
	CHECK(v == 12345, "'%s': output written on failure", s);
}

static void parse_tests(void)
{
	static const char *const rejects[] = {
	    "",
	    "0",
	    "00",
	    "0K",
	    "-1",
	    "+1",
	    " 1",
	    "1 ",
	    "1\t",
	    "1KB",
	    "1kb",
	    "1Kib",
	    "1T",
	    "1.5K",
	    "1e3",
	    "abc",
	    "K",
	    "KiB",
	    "1KK",
	    "1Ki",
	    "1iB",
	    "0x10",
	    "1,024",
	    "18446744073709551616",
	    "99999999999999999999999",
	};
	char buf[64];

	good("1", 1);
	good("4096", 4096);
	good("0004", 4);
	good("64K", 65536);
	good("64k", 65536);
	good("2KiB", 2048);
	good("3M", 3ULL << 20);
	good("3m", 3ULL << 20);
	good("5MiB", 5ULL << 20);
	good("1G", 1ULL << 30);
	good("1g", 1ULL << 30);
	good("7GiB", 7ULL << 30);
	good("18446744073709551615", UINT64_MAX);
	good("17179869183G", ((1ULL << 34) - 1) << 30); /* largest G value that fits */
	bad("17179869184G");				/* 2^64: one past */
	for (size_t i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++)
		bad(rejects[i]);
	bad(NULL);

	/* Against an independent computation: printf a value, scale by hand. */
	srand(7);
	for (int i = 0; i < 2000; i++) {
		uint64_t v = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % 5000000 + 1;
		static const char *const suf[] = {"", "K", "M", "G", "KiB", "MiB", "GiB"};
		static const double mult[] = {1,    1024,    1048576,	1073741824,
					      1024, 1048576, 1073741824};
		int k = i % 7;
		uint64_t got = 0;

		snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)v, suf[k]);
		CHECK(gdr_parse_size(buf, &got) == 0 && (double)got == (double)v * mult[k],
		      "'%s' -> %llu", buf, (unsigned long long)got);
	}
}

static size_t sizes_of(struct gdr_opts *o, uint64_t **s)
{
	size_t n = 0;

	*s = NULL;
	if (gdr_opts_sizes(o, s, &n))
		return 0;
	return n;
}

/* --sizes list properties, checked without re-running the algorithm. */
static void check_range(uint64_t mn, uint64_t mx, uint32_t f)
{
	struct gdr_opts o = {.sizes_set = true, .size_min = mn, .size_max = mx, .size_factor = f};
	uint64_t *s;
	size_t n = sizes_of(&o, &s);
	/* steps of f that fit: largest k with mn * f^k <= mx, by floating point */
	long double k = floorl(logl((long double)mx / mn) / logl(f));
	int exact;

	/* logl is close; settle the boundary exactly (long double holds these integers) */
	while (mn * powl(f, k + 1) <= mx)
		k++;
	while (k > 0 && mn * powl(f, k) > mx)
		k--;
	exact = mn * powl(f, k) == (long double)mx;
	size_t want = (size_t)k + 1 + !exact;

	CHECK(n == want, "%llu:%llu:%u: %zu sizes, want %zu", (unsigned long long)mn,
	      (unsigned long long)mx, f, n, want);
	if (n == 0 || !s)
		return;
	CHECK(s[0] == mn && s[n - 1] == mx, "%llu:%llu:%u: ends %llu..%llu", (unsigned long long)mn,
	      (unsigned long long)mx, f, (unsigned long long)s[0], (unsigned long long)s[n - 1]);
	for (size_t i = 1; i < n; i++) {
		CHECK(s[i] > s[i - 1], "not ascending at %zu", i);
		if (i < n - 1 || exact)
			CHECK(s[i] == s[i - 1] * f, "step %zu: %llu after %llu", i,
			      (unsigned long long)s[i], (unsigned long long)s[i - 1]);
	}
	free(s);
}

static void list_tests(void)
{
	struct gdr_opts o;
	uint64_t *s;
	size_t n;

	memset(&o, 0, sizeof(o));
	o.size = 4096;
	n = sizes_of(&o, &s);
	CHECK(n == 1 && s[0] == 4096, "-s 4096: %zu sizes", n);
	free(s);

	memset(&o, 0, sizeof(o));
	o.all_sizes = true;
	o.size = 65536; /* -a wins over the default -s */
	n = sizes_of(&o, &s);
	CHECK(n == 23, "-a: %zu sizes, want 23 (2 B .. 8 MiB)", n);
	for (size_t i = 0; i < n; i++)
		CHECK(s[i] == 1ULL << (i + 1), "-a size %zu = %llu", i, (unsigned long long)s[i]);
	free(s);

	memset(&o, 0, sizeof(o));
	o.sizes_set = true;
	o.size_min = 1024;
	o.size_max = 1 << 20;
	o.size_factor = 3;
	n = sizes_of(&o, &s);
	{
		static const uint64_t want[] = {1024,  3072,   9216,   27648,
						82944, 248832, 746496, 1048576};

		CHECK(n == 8, "1K:1M:3: %zu sizes", n);
		for (size_t i = 0; i < n && i < 8; i++)
			CHECK(s[i] == want[i], "1K:1M:3 [%zu] = %llu", i, (unsigned long long)s[i]);
	}
	free(s);

	check_range(1024, 1 << 20, 4);
	check_range(1024, 1 << 20, 2);
	check_range(1, 1 << 30, 2);
	check_range(3, 1000, 7);
	check_range(100, 100, 2);
	check_range(100, 199, 2);
	check_range(100, 200, 2);
	check_range(100, 201, 2);
	check_range(1, (1ULL << 30) - 1, 1024);
	for (uint32_t f = 2; f < 40; f++)
		check_range(f + 1, 5000000, f);

	/* errors: too many sizes, bad ranges */
	fprintf(stderr, "(expected error lines follow)\n");
	memset(&o, 0, sizeof(o));
	o.sizes_set = true;
	o.size_min = 1;
	o.size_max = UINT64_MAX; /* 2^0 .. 2^63 then MAX: 65 sizes */
	o.size_factor = 2;
	CHECK(sizes_of(&o, &s) == 0, "1:2^64-1:2 accepted (65 sizes > %d)", GDR_MAX_SIZES);
	o.size_max = 1ULL << 63; /* exactly 64 sizes: allowed */
	n = sizes_of(&o, &s);
	CHECK(n == 64, "1:2^63:2: %zu sizes, want 64", n);
	free(s);
	o.size_factor = 1;
	CHECK(sizes_of(&o, &s) == 0, "factor 1 accepted");
	o.size_factor = 2;
	o.size_min = 10;
	o.size_max = 5;
	CHECK(sizes_of(&o, &s) == 0, "MIN > MAX accepted");
	memset(&o, 0, sizeof(o));
	CHECK(sizes_of(&o, &s) == 0, "-s 0 accepted");
}

/* -c UD: the default size becomes the MTU, -a stops there, a size given above it is refused. */
static void ud_tests(void)
{
	uint64_t one[1] = {65536}, all[23], given[2] = {512, 4096};
	size_t n = 1;

	CHECK(gdr_ud_fit_sizes(one, &n, 1024, false, false) == 0 && n == 1 && one[0] == 1024,
	      "default 64 KiB -> the MTU: %zu %llu", n, (unsigned long long)one[0]);
	one[0] = 2;
	CHECK(gdr_ud_fit_sizes(one, &n, 1024, false, false) == 0 && n == 1 && one[0] == 2,
	      "a default that fits is kept (latency's 2 bytes)");
	for (n = 0; n < 23; n++)
		all[n] = 2ULL << n;
	CHECK(gdr_ud_fit_sizes(all, &n, 4096, true, false) == 0 && n == 12 && all[11] == 4096,
	      "-a: 2 .. 4096, %zu sizes", n);
	n = 2;
	fprintf(stderr, "(an expected error line follows)\n");
	CHECK(gdr_ud_fit_sizes(given, &n, 1024, false, true) == -1,
	      "--sizes above the MTU refused");
	n = 1;
	one[0] = 65536;
	CHECK(gdr_ud_fit_sizes(one, &n, 1024, false, true) == -1, "-s 64K refused");
}

int main(void)
{
	gdr_set_prog("t_size");
	parse_tests();
	list_tests();
	ud_tests();
	return CHECK_DONE();
}
