/* SPDX-License-Identifier: MIT */
/*
 * Conformance, HIP: the runtime rules gdrperf's ROCm backend relies on, on
 * whatever libamdhip64 GDR_LIBHIP names (the HIP double in `make check`; the
 * real runtime on an AMD GPU host, which this project has not had). One
 * stream runs its copies in order and asynchronously (a query right after
 * queueing says hipErrorNotReady; after hipStreamSynchronize every byte is
 * back); a device index past the count is hipErrorInvalidDevice; an
 * allocation larger than any GPU is hipErrorOutOfMemory, an empty one
 * hipErrorInvalidValue. Prints `RULE` lines as the CUDA cases do (conf.h);
 * 77 when no runtime or GPU is present.
 */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hip_api.h"
#include "log.h"

#define MiB   (1UL << 20)
#define LEN   (64 * MiB)
#define CHUNK (4 * MiB)

static const struct gdr_hip_api *hip;

static const char *name(gdr_hip_err e)
{
	static char buf[4][48];
	static int k;
	char *b = buf[k++ % 4];

	switch (e) {
	case 0:
		return "hipSuccess";
	case 1:
		return "hipErrorInvalidValue";
	case 2:
		return "hipErrorOutOfMemory";
	case 3:
		return "hipErrorNotInitialized";
	case 100:
		return "hipErrorNoDevice";
	case 101:
		return "hipErrorInvalidDevice";
	case 600:
		return "hipErrorNotReady";
	default:
		snprintf(b, 48, "hipError_%d", e);
		return b;
	}
}

int main(void)
{
	gdr_hip_err queued, synced, past, huge, empty;
	uint8_t *h = NULL, *g = NULL;
	gdr_hip_stream s = NULL;
	void *d = NULL, *p = NULL;
	size_t off, bad = LEN;
	char why[256];

	gdr_set_prog("h_rules");
	if (gdr_hip_load(&hip, why, sizeof(why))) {
		printf("skip: %s\n", why);
		return 77;
	}
	h = malloc(LEN);
	g = malloc(LEN);
	if (!h || !g || hip->hipSetDevice(0) || hip->hipMalloc(&d, LEN) ||
	    hip->hipStreamCreate(&s)) {
		printf("error: cannot set up 64 MiB and a stream\n");
		return 1;
	}
	for (off = 0; off < LEN; off++)
		h[off] = (uint8_t)(off * 7 + off / 4099);
	memset(g, 0, LEN);
	for (off = 0; off < LEN; off += CHUNK)
		if (hip->hipMemcpyAsync((uint8_t *)d + off, h + off, CHUNK, GDR_HIP_H2D, s) ||
		    hip->hipMemcpyAsync(g + off, (uint8_t *)d + off, CHUNK, GDR_HIP_D2H, s)) {
			printf("error: cannot queue a copy\n");
			return 1;
		}
	queued = hip->hipStreamQuery(s);
	synced = hip->hipStreamSynchronize(s);
	for (off = 0; off < LEN; off++)
		if (g[off] != h[off]) {
			bad = off;
			break;
		}
	printf("RULE hip_stream_order queued_stream=%s sync=%s bytes_after_sync=%s\n", name(queued),
	       name(synced), bad == LEN ? "in-order" : "wrong");
	past = hip->hipSetDevice(hip->ndev);
	huge = hip->hipMalloc(&p, 1ULL << 41); /* 2 TiB */
	if (!huge)
		hip->hipFree(p);
	empty = hip->hipMalloc(&p, 0);
	if (!empty && p)
		hip->hipFree(p);
	printf("RULE hip_errors device_past_count=%s alloc_2TiB=%s alloc_0=%s\n", name(past),
	       name(huge), name(empty));
	hip->hipStreamDestroy(s);
	hip->hipFree(d);
	free(h);
	free(g);
	return 0;
}
