/* SPDX-License-Identifier: MIT */
/*
 * Conformance: one stream runs its work in order and asynchronously; an event
 * recorded after the work completes only when the work has. gdrperf's staged
 * path queues copies up and down on one stream and trusts an event (or the
 * stream) to say they are done before the NIC or the check reads the bytes.
 *
 * 64 MiB go up and come back in 4 MiB chunks on one stream (each read behind
 * its write), then an event; queried at once the event and the stream are
 * busy; once the event completes, without synchronising the stream, every
 * byte is back, in order, and the stream has nothing left.
 */
#include "config.h"
#include <stdint.h>
#include <string.h>
#include "conf.h"

#define MiB   (1UL << 20)
#define LEN   (64 * MiB)
#define CHUNK (4 * MiB)

int main(void)
{
	const struct gdr_cuda_api *cu = conf_load("c_stream_order");
	CUresult (*event_query)(CUevent) = (CUresult(*)(CUevent))conf_sym("cuEventQuery", 2000);
	CUresult ev_now, st_now, ev_sync, st_after, ev_after;
	uint8_t *h = NULL, *g = NULL;
	CUdeviceptr d = 0;
	CUstream s = NULL;
	CUevent e = NULL;
	size_t off, bad = LEN;

	conf_context(cu);
	if (cu->cuMemAlloc(&d, LEN) || cu->cuMemAllocHost((void **)&h, LEN) ||
	    cu->cuMemAllocHost((void **)&g, LEN) ||
	    cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cu->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING)) {
		printf("error: cannot set up 64 MiB, a stream and an event\n");
		return 1;
	}
	for (off = 0; off < LEN; off++)
		h[off] = (uint8_t)(off * 7 + off / 4099);
	memset(g, 0, LEN);
	for (off = 0; off < LEN; off += CHUNK) {
		if (cu->cuMemcpyHtoDAsync(d + off, h + off, CHUNK, s) ||
		    cu->cuMemcpyDtoHAsync(g + off, d + off, CHUNK, s)) {
			printf("error: cannot queue a copy\n");
			return 1;
		}
	}
	if (cu->cuEventRecord(e, s)) {
		printf("error: cannot record the event\n");
		return 1;
	}
	ev_now = event_query ? event_query(e) : CUDA_ERROR_NOT_FOUND;
	st_now = cu->cuStreamQuery(s);
	ev_sync = cu->cuEventSynchronize(e);
	for (off = 0; off < LEN; off++)
		if (g[off] != h[off]) {
			bad = off;
			break;
		}
	ev_after = event_query ? event_query(e) : CUDA_ERROR_NOT_FOUND;
	st_after = cu->cuStreamQuery(s);
	printf("RULE stream_async queued_event=%s queued_stream=%s\n", conf_name(ev_now),
	       conf_name(st_now));
	printf("RULE stream_order event_sync=%s bytes_after_event=%s event_after=%s "
	       "stream_after_event=%s\n",
	       conf_name(ev_sync), bad == LEN ? "in-order" : "wrong", conf_name(ev_after),
	       conf_name(st_after));
	if (bad != LEN)
		printf("# info first wrong byte at %zu of %zu\n", bad, (size_t)LEN);
	cu->cuEventDestroy(e);
	cu->cuStreamDestroy(s);
	cu->cuMemFreeHost(h);
	cu->cuMemFreeHost(g);
	cu->cuMemFree(d);
	return 0;
}
