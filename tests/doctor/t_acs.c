/* SPDX-License-Identifier: MIT */
/* acs.c: finding the ACS control register in config space images built here. */
#include <stdio.h>
#include <string.h>
#include "../../src/sysinfo/acs.h"

static int fails;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fails++;                                                                   \
			printf("FAIL line %d: ", __LINE__);                                        \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
		}                                                                                  \
	} while (0)

/* Put an extended capability header (id, version 1, next) at off. */
static void ecap(uint8_t *cfg, unsigned off, unsigned id, unsigned next)
{
	unsigned hdr = id | 1u << 16 | next << 20;

	for (int i = 0; i < 4; i++)
		cfg[off + (unsigned)i] = (uint8_t)(hdr >> (8 * i));
}

int main(void)
{
	static uint8_t cfg[4096];
	char buf[64];

	/* Non-root readers get 64 bytes. */
	CHECK(acs_control(cfg, 64) == ACS_UNREADABLE, "short image");
	/* Empty extended space. */
	CHECK(acs_control(cfg, sizeof(cfg)) == ACS_ABSENT, "empty list");

	/* AER at 0x100 -> ACS at 0x148, control 0x001d. */
	ecap(cfg, 0x100, 0x0001, 0x148);
	ecap(cfg, 0x148, 0x000d, 0);
	cfg[0x148 + 6] = 0x1d;
	CHECK(acs_control(cfg, sizeof(cfg)) == 0x1d, "got 0x%x", acs_control(cfg, sizeof(cfg)));
	CHECK(!strcmp(acs_flags_str(0x1d, buf, sizeof(buf)), "SrcValid ReqRedir CmpltRedir"),
	      "flags '%s'", buf);
	CHECK(!strcmp(acs_flags_str(0x02, buf, sizeof(buf)), "none"), "TB alone '%s'", buf);
	CHECK(!strcmp(acs_flags_str(ACS_RR, buf, sizeof(buf)), "ReqRedir"), "RR '%s'", buf);

	/* ACS first, with the upper control byte used. */
	ecap(cfg, 0x100, 0x000d, 0);
	cfg[0x106] = 0x04;
	cfg[0x107] = 0x01;
	CHECK(acs_control(cfg, sizeof(cfg)) == 0x0104, "got 0x%x", acs_control(cfg, sizeof(cfg)));

	/* A list without ACS that loops back on itself ends. */
	ecap(cfg, 0x100, 0x0001, 0x148);
	ecap(cfg, 0x148, 0x0002, 0x100);
	CHECK(acs_control(cfg, sizeof(cfg)) == ACS_ABSENT, "loop");

	/* A next pointer pointing into the header area ends the walk. */
	ecap(cfg, 0x148, 0x0002, 0x040);
	CHECK(acs_control(cfg, sizeof(cfg)) == ACS_ABSENT, "next below 0x100");

	/* The ACS capability cut off by a short image is not read past the end. */
	ecap(cfg, 0x148, 0x000d, 0);
	CHECK(acs_control(cfg, 0x14c) == ACS_ABSENT, "truncated capability");

	if (fails) {
		printf("t_acs: %d check(s) failed\n", fails);
		return 1;
	}
	printf("t_acs: all checks passed\n");
	return 0;
}
