/* SPDX-License-Identifier: MIT */
/*
 * An NVML double (a test tool, never installed): libnvidia-ml.so.1 with the
 * few entry points gdr_doctor asks for BAR1. Environment:
 *   GDR_NVML_BAR1   "BUS-ID=MIB[,BUS-ID=MIB...]": the BAR1 size of each GPU it knows
 *                   (bus ids as sysfs writes them, "0000:03:00.0"); other bus ids
 *                   are not found
 *   GDR_NVML_FAIL   init: nvmlInit_v2 fails as with no driver loaded
 * Return codes are NVML's: 0 success, 1 uninitialized, 2 invalid argument,
 * 6 not found, 9 driver not loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

struct bar1 {
	unsigned long long total, free, used;
};

static int inited;
static char bus[8][32]; /* a device handle points at its bus id */

EXPORT int nvmlInit_v2(void)
{
	const char *f = getenv("GDR_NVML_FAIL");

	if (f && !strcmp(f, "init"))
		return 9;
	inited++;
	return 0;
}

EXPORT int nvmlShutdown(void)
{
	if (!inited)
		return 1;
	inited--;
	return 0;
}

EXPORT const char *nvmlErrorString(int r)
{
	switch (r) {
	case 0:
		return "Success";
	case 1:
		return "Uninitialized";
	case 2:
		return "Invalid Argument";
	case 6:
		return "Not Found";
	case 9:
		return "Driver Not Loaded";
	default:
		return "Unknown Error";
	}
}

/* MiB of bus id b in GDR_NVML_BAR1, or 0 */
static unsigned long long lookup(const char *b)
{
	const char *p = getenv("GDR_NVML_BAR1");
	size_t n = strlen(b);

	while (p && *p) {
		if (!strncmp(p, b, n) && p[n] == '=')
			return strtoull(p + n + 1, NULL, 10);
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

EXPORT int nvmlDeviceGetHandleByPciBusId_v2(const char *b, void **dev)
{
	if (!inited)
		return 1;
	if (!b || !dev || strlen(b) >= sizeof(bus[0]))
		return 2;
	if (!lookup(b))
		return 6;
	for (int i = 0; i < 8; i++) {
		if (!bus[i][0] || !strcmp(bus[i], b)) {
			snprintf(bus[i], sizeof(bus[i]), "%s", b);
			*dev = bus[i];
			return 0;
		}
	}
	return 6;
}

EXPORT int nvmlDeviceGetBAR1MemoryInfo(void *dev, struct bar1 *m)
{
	unsigned long long mib;

	if (!inited)
		return 1;
	if (!dev || !m)
		return 2;
	mib = lookup(dev);
	*m = (struct bar1){mib << 20, (mib << 20) - (16ULL << 20), 16ULL << 20};
	return 0;
}
