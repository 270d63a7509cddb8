/* SPDX-License-Identifier: MIT */
/*
 * Whether the peer's test memory is on this side's GPU (staging.h), and the
 * GPU's identity the gpu-proxy path's exchange sends too (path_setup.c): two
 * processes on one GPU (loopback, --rails with --use_cuda=auto) time-slice
 * persistent kernels, so --stage_copy=auto leaves sm out there, the header
 * says so, and the two sides' copy-rate probes take turns.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "session.h"
#include "staging.h"

/* FNV-1a, 64 bits */
static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

uint64_t gdr_staging_gpu_id(const struct gdr_conn *c)
{
	char boot[64] = "";
	FILE *f;

	if (!c->data.gpu_pci[0])
		return 0;
	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!f || !fgets(boot, sizeof(boot), f) || !boot[0])
		gdr_hostname(boot, sizeof(boot));
	if (f)
		fclose(f);
	return (fnv(fnv(14695981039346656037ULL, boot), c->data.gpu_pci) & ~(uint64_t)3) | 1;
}

/* The GPU_ID word: the GPU's id (bit 0 set: a GPU), bit 1 when this side will probe. */
#define PROBES 2u

int gdr_staging_peer_gpu(struct gdr_conn *c, bool probes, bool *same, bool *peer_probes)
{
	uint64_t id = gdr_staging_gpu_id(c), mine = id | (probes ? PROBES : 0), peer = 0;

	if (c->is_server ? gdr_sync_send(c, GDR_STEP_GPU_ID, mine) ||
			       gdr_sync_expect(c, GDR_STEP_GPU_ID, &peer)
			 : gdr_sync_expect(c, GDR_STEP_GPU_ID, &peer) ||
			       gdr_sync_send(c, GDR_STEP_GPU_ID, mine))
		return -1;
	*same = id && id == (peer & ~(uint64_t)PROBES);
	/* only when both probe do they take turns: one that does not never waits or signals */
	*peer_probes = (peer & PROBES) != 0;
	return 0;
}

int gdr_staging_turn(struct gdr_conn *c, bool before)
{
	uint64_t v = 0;

	/* the server probes first: the client waits for it before, the server signals after */
	if (c->is_server)
		return before ? 0 : gdr_sync_send(c, GDR_STEP_PROBED, 1);
	return before ? gdr_sync_expect(c, GDR_STEP_PROBED, &v) : 0;
}
