/* SPDX-License-Identifier: MIT */
/* HIP double: configuration from the environment, the fault plan, devices. */
#include "hdbl.h"
#include "dbl_env.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hdbl_conf hdbl_conf;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_rc;
/*
 * ROCm, like CUDA, forbids GPU use in a child forked after the runtime initialised (not
 * verified on AMD hardware here, docs/rocm.md): the runtime initialises at the first call, and
 * a child forked after it gets hipErrorNotInitialized from every call.
 */
static int inited, forked_after_init;

static void forked_child(void)
{
	if (inited)
		forked_after_init = 1;
}

__attribute__((constructor)) static void fork_rule(void)
{
	pthread_atfork(NULL, NULL, forked_child);
}
static atomic_long n_alloc, n_copy;
static __thread int cur_dev;

static int env_long(const char *name, long lo, long hi, long dflt, long *out)
{
	return dbl_env_long("HIP double", name, lo, hi, dflt, out);
}

static int parse_fail(const char *spec)
{
	const struct dbl_fault faults[] = {
	    {"nodevice", DBL_BARE, &hdbl_conf.fail_nodevice},
	    {"alloc", DBL_EITHER, &hdbl_conf.fail_alloc},
	    {"copy", DBL_COUNT, &hdbl_conf.fail_copy},
	    {"export", DBL_BARE, &hdbl_conf.fail_export},
	    {NULL, DBL_BARE, NULL},
	};

	return dbl_parse_faults("HIP double", "GDR_HIP_DOUBLE_FAIL", spec, faults,
				"nodevice, alloc, alloc:N, copy:N or export");
}

static void load(void)
{
	const char *fix = getenv("GDR_HIP_DOUBLE_FIXTURE"), *fail = getenv("GDR_HIP_DOUBLE_FAIL");
	long v;

	hdbl_conf.fail_alloc = hdbl_conf.fail_copy = -1;
	init_rc = -1;
	if (env_long("GDR_HIP_DOUBLE_DEVICES", 0, HDBL_MAX_DEV, 2, &v))
		return;
	hdbl_conf.ndev = (int)v;
	if (env_long("GDR_HIP_DOUBLE_DELAY_US", 0, 1000000, 100, &v))
		return;
	hdbl_conf.delay_us = (unsigned)v;
	for (int i = 0; i < hdbl_conf.ndev; i++) {
		snprintf(hdbl_conf.bus[i], sizeof(hdbl_conf.bus[i]), "0000:%02x:00.0",
			 0x0c + 0x16 * i);
		hdbl_conf.numa[i] = i * 2 / (hdbl_conf.ndev ? hdbl_conf.ndev : 1);
		hdbl_conf.xgmi[i] = 0;
	}
	if (fix && *fix &&
	    dbl_load_fixture("HIP double", "GDR_HIP_DOUBLE_FIXTURE", "GDR_HIP_DOUBLE_DEVICES",
			     "XGMI-GROUP", fix, hdbl_conf.ndev, hdbl_conf.bus, hdbl_conf.numa,
			     hdbl_conf.xgmi))
		return;
	if (fail && *fail && parse_fail(fail))
		return;
	init_rc = 0;
	inited = 1;
}

int hdbl_init(void)
{
	pthread_once(&once, load);
	return init_rc;
}

int hdbl_enter(void)
{
	if (forked_after_init)
		return HDBL_NOT_INITIALIZED;
	if (hdbl_init())
		return HDBL_INVALID_VALUE;
	if (hdbl_conf.fail_nodevice || !hdbl_conf.ndev)
		return HDBL_NO_DEVICE;
	return HDBL_SUCCESS;
}

int hdbl_device(void)
{
	return cur_dev;
}

int hdbl_fault_alloc(void)
{
	long n = atomic_fetch_add(&n_alloc, 1);

	return hdbl_conf.fail_alloc >= 0 && n >= hdbl_conf.fail_alloc ? HDBL_OUT_OF_MEMORY : 0;
}

int hdbl_fault_copy(void)
{
	long n = atomic_fetch_add(&n_copy, 1);

	return hdbl_conf.fail_copy >= 0 && n == hdbl_conf.fail_copy ? HDBL_ILLEGAL_ADDRESS : 0;
}

/* The device calls. */
static int ready(void)
{
	return hdbl_enter();
}

HDBL_EXPORT int hipGetDeviceCount(int *count)
{
	int r = ready();

	if (!count)
		return HDBL_INVALID_VALUE;
	*count = r ? 0 : hdbl_conf.ndev;
	return r;
}

HDBL_EXPORT int hipSetDevice(int dev)
{
	int r = ready();

	if (r)
		return r;
	if (dev < 0 || dev >= hdbl_conf.ndev)
		return HDBL_INVALID_DEVICE;
	cur_dev = dev;
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipDeviceGetName(char *name, int len, int dev)
{
	int r = ready();

	if (r)
		return r;
	if (dev < 0 || dev >= hdbl_conf.ndev || !name || len < 1)
		return HDBL_INVALID_DEVICE;
	snprintf(name, (size_t)len, "%s", HDBL_NAME);
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipDeviceGetPCIBusId(char *bus, int len, int dev)
{
	int r = ready();

	if (r)
		return r;
	if (dev < 0 || dev >= hdbl_conf.ndev || !bus || len < 13)
		return HDBL_INVALID_VALUE;
	snprintf(bus, (size_t)len, "%s", hdbl_conf.bus[dev]);
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipDeviceGetByPCIBusId(int *dev, const char *bus)
{
	int r = ready();

	if (r)
		return r;
	for (int i = 0; i < hdbl_conf.ndev && bus && dev; i++)
		if (!strcasecmp(bus, hdbl_conf.bus[i])) {
			*dev = i;
			return HDBL_SUCCESS;
		}
	return HDBL_INVALID_DEVICE;
}

HDBL_EXPORT int hipDeviceCanAccessPeer(int *can, int dev, int peer)
{
	int r = ready();

	if (r)
		return r;
	if (!can || dev < 0 || peer < 0 || dev >= hdbl_conf.ndev || peer >= hdbl_conf.ndev)
		return HDBL_INVALID_DEVICE;
	*can =
	    dev != peer && hdbl_conf.xgmi[dev] >= 0 && hdbl_conf.xgmi[dev] == hdbl_conf.xgmi[peer];
	return HDBL_SUCCESS;
}

HDBL_EXPORT int hipRuntimeGetVersion(int *v)
{
	if (!v)
		return HDBL_INVALID_VALUE;
	*v = HDBL_RUNTIME_VERSION;
	return HDBL_SUCCESS;
}

HDBL_EXPORT const char *hipGetErrorName(int e)
{
	switch (e) {
	case HDBL_SUCCESS:
		return "hipSuccess";
	case HDBL_INVALID_VALUE:
		return "hipErrorInvalidValue";
	case HDBL_NOT_INITIALIZED:
		return "hipErrorNotInitialized";
	case HDBL_OUT_OF_MEMORY:
		return "hipErrorOutOfMemory";
	case HDBL_NO_DEVICE:
		return "hipErrorNoDevice";
	case HDBL_INVALID_DEVICE:
		return "hipErrorInvalidDevice";
	case HDBL_INVALID_HANDLE:
		return "hipErrorInvalidHandle";
	case HDBL_NOT_READY:
		return "hipErrorNotReady";
	case HDBL_ILLEGAL_ADDRESS:
		return "hipErrorIllegalAddress";
	default:
		return "hipErrorUnknown";
	}
}

HDBL_EXPORT const char *hipGetErrorString(int e)
{
	switch (e) {
	case HDBL_NO_DEVICE:
		return "no ROCm-capable device is detected (HIP double)";
	case HDBL_OUT_OF_MEMORY:
		return "out of memory (HIP double: injected)";
	case HDBL_ILLEGAL_ADDRESS:
		return "an illegal memory access was encountered (HIP double: injected or a bad "
		       "pointer)";
	default:
		return hipGetErrorName(e);
	}
}
