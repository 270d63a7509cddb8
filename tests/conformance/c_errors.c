/* SPDX-License-Identifier: MIT */
/*
 * Conformance: the error codes gdrperf handles by name, provoked one by one.
 * A GPU index past the count (cuDeviceGet, cuDevicePrimaryCtxRetain: the
 * context error's message names CUDA_ERROR_INVALID_DEVICE apart), an
 * allocation larger than any GPU (CUDA_ERROR_OUT_OF_MEMORY: "use smaller
 * sizes"), an empty one, a bus id no GPU has (--use_cuda=BUS-ID). Busy
 * streams (CUDA_ERROR_NOT_READY) are c_stream_order's, a forked child's
 * CUDA_ERROR_NOT_INITIALIZED c_fork's, a thread without a context c_ctx_thread's.
 */
#include "config.h"
#include "conf.h"

int main(void)
{
	const struct gdr_cuda_api *cu = conf_load("c_errors");
	CUdeviceptr p = 0;
	CUcontext c = NULL;
	CUdevice d;
	CUresult past, retain, huge, empty, bus;
	int count = 0;

	conf_context(cu);
	if (cu->cuDeviceGetCount(&count) || count < 1)
		return 1;
	past = cu->cuDeviceGet(&d, count);
	retain = cu->cuDevicePrimaryCtxRetain(&c, count);
	huge = cu->cuMemAlloc(&p, 1ULL << 41); /* 2 TiB */
	if (!huge)
		cu->cuMemFree(p);
	empty = cu->cuMemAlloc(&p, 0);
	if (!empty)
		cu->cuMemFree(p);
	bus = cu->cuDeviceGetByPCIBusId(&d, "00ff:fe:1f.7");
	printf("RULE errors device_past_count=%s ctx_past_count=%s alloc_2TiB=%s alloc_0=%s "
	       "unknown_bus_id=%s\n",
	       conf_name(past), conf_name(retain), conf_name(huge), conf_name(empty),
	       conf_name(bus));
	return 0;
}
