/* SPDX-License-Identifier: MIT */
/* CUDA double: devices from the fixture, their attributes, primary contexts. */
#include "dbl.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static struct dbl_ctx ctxs[DBL_MAX_DEV];
static pthread_mutex_t ctx_mu = PTHREAD_MUTEX_INITIALIZER;
static __thread struct dbl_ctx *current;

#define DBL_MEM_TOTAL (16ULL << 30) /* what each device claims to hold */

struct dbl_ctx *dbl_current(void)
{
	return current;
}

struct dbl_ctx *dbl_primary(int dev)
{
	return &ctxs[dev];
}

static CUresult dev_ok(CUdevice d)
{
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	return d >= 0 && d < dbl_conf.ndev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

static CUresult device_get_count(int *n)
{
	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	*n = dbl_conf.ndev;
	return CUDA_SUCCESS;
}

static CUresult device_get(CUdevice *d, int ordinal)
{
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (ordinal < 0 || ordinal >= dbl_conf.ndev)
		return CUDA_ERROR_INVALID_DEVICE;
	*d = ordinal;
	return CUDA_SUCCESS;
}

static CUresult device_get_name(char *name, int len, CUdevice d)
{
	CUresult r = dev_ok(d);

	if (r)
		return r;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(name, (size_t)len, "%s", DBL_NAME);
	return CUDA_SUCCESS;
}

static unsigned bus_field(CUdevice d, int which)
{
	unsigned dom = 0, bus = 0, dev = 0, fn = 0;

	sscanf(dbl_conf.bus[d], "%x:%x:%x.%x", &dom, &bus, &dev, &fn);
	return which == 0 ? dom : which == 1 ? bus : dev;
}

static CUresult device_get_attribute(int *v, CUdevice_attribute a, CUdevice d)
{
	CUresult r = dev_ok(d);

	if (r)
		return r;
	if (!v || a <= 0 || a >= CU_DEVICE_ATTRIBUTE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
	case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
		*v = 1;
		break;
	case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS:
		*v = dbl_conf.flush_options;
		break;
	case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING:
		*v = dbl_conf.ordering;
		break;
	case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID:
		*v = dbl_conf.numa[d];
		break;
	case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
		*v = (int)bus_field(d, 0);
		break;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
		*v = (int)bus_field(d, 1);
		break;
	case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
		*v = (int)bus_field(d, 2);
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		*v = 9;
		break;
	case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
		*v = 2;
		break;
	case CU_DEVICE_ATTRIBUTE_MPS_ENABLED:
		*v = dbl_conf.mps;
		break;
	default:
		*v = 0;
	}
	return CUDA_SUCCESS;
}

static CUresult device_get_pci_bus_id(char *out, int len, CUdevice d)
{
	CUresult r = dev_ok(d);
	int i;

	if (r)
		return r;
	if (!out || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* The driver spells the hex digits in upper case: callers must normalise. */
	for (i = 0; i < len - 1 && dbl_conf.bus[d][i]; i++)
		out[i] = (char)toupper((unsigned char)dbl_conf.bus[d][i]);
	out[i] = 0;
	return CUDA_SUCCESS;
}

static int same_bdf(const char *a, const char *b)
{
	unsigned x[4] = {0}, y[4] = {0};

	if (sscanf(a, "%x:%x:%x.%x", &x[0], &x[1], &x[2], &x[3]) != 4 &&
	    sscanf(a, "%x:%x.%x", &x[1], &x[2], &x[3]) != 3)
		return 0;
	sscanf(b, "%x:%x:%x.%x", &y[0], &y[1], &y[2], &y[3]);
	return !memcmp(x, y, sizeof(x));
}

static CUresult device_get_by_pci_bus_id(CUdevice *d, const char *bus)
{
	int i;

	if (!d || !bus)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	for (i = 0; i < dbl_conf.ndev; i++)
		if (same_bdf(bus, dbl_conf.bus[i])) {
			*d = i;
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_DEVICE;
}

static CUresult device_total_mem(size_t *bytes, CUdevice d)
{
	CUresult r = dev_ok(d);

	if (!r && !bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (!r)
		*bytes = DBL_MEM_TOTAL;
	return r;
}

static CUresult primary_ctx_retain(CUcontext *c, CUdevice d)
{
	CUresult r = dev_ok(d);

	if (r)
		return r;
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	if (dbl_lost)
		return DBL_LOST_ERR;
	pthread_mutex_lock(&ctx_mu);
	ctxs[d].dev = d;
	ctxs[d].refs++;
	pthread_mutex_unlock(&ctx_mu);
	*c = (CUcontext)&ctxs[d];
	return CUDA_SUCCESS;
}

static CUresult primary_ctx_release(CUdevice d)
{
	CUresult r = dev_ok(d);
	int gone = 0;

	if (r)
		return r;
	pthread_mutex_lock(&ctx_mu);
	if (ctxs[d].refs > 0)
		gone = !--ctxs[d].refs;
	else
		r = CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_unlock(&ctx_mu);
	if (gone)
		dbl_modules_drop(d);
	return r;
}

static CUresult ctx_set_current(CUcontext c)
{
	struct dbl_ctx *x = (struct dbl_ctx *)c;

	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (x && (x < ctxs || x >= ctxs + dbl_conf.ndev || !x->refs))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (dbl_lost)
		return DBL_LOST_ERR;
	current = x;
	return CUDA_SUCCESS;
}

static CUresult ctx_get_current(CUcontext *c)
{
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dbl_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	*c = (CUcontext)current;
	return CUDA_SUCCESS;
}

static CUresult ctx_get_device(CUdevice *d)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);

	if (!r && !d)
		return CUDA_ERROR_INVALID_VALUE;
	if (!r)
		*d = c->dev;
	return r;
}

/* Peers: every pair over PCIe; NVLink (native atomics, rank 0) within a fixture's group. */
static int nvlinked(CUdevice a, CUdevice b)
{
	return dbl_conf.nvlink[a] >= 0 && dbl_conf.nvlink[a] == dbl_conf.nvlink[b];
}

/* Both devices valid and somewhere to answer. */
static CUresult pair_ok(CUdevice a, CUdevice b, const int *out)
{
	CUresult r = dev_ok(a);

	if (!r)
		r = dev_ok(b);
	if (!r && !out)
		r = CUDA_ERROR_INVALID_VALUE;
	return r;
}

static CUresult can_access_peer(int *can, CUdevice d, CUdevice peer)
{
	CUresult r = pair_ok(d, peer, can);

	if (r)
		return r;
	*can = d != peer;
	return CUDA_SUCCESS;
}

static CUresult p2p_attribute(int *v, CUdevice_P2PAttribute a, CUdevice src, CUdevice dst)
{
	CUresult r = pair_ok(src, dst, v);

	if (r)
		return r;
	/* as the driver: no peer attribute of a device to itself */
	if (src == dst)
		return CUDA_ERROR_INVALID_DEVICE;
	switch (a) {
	case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
		*v = 1;
		break;
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
		*v = nvlinked(src, dst) ? 0 : 1;
		break;
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
		*v = nvlinked(src, dst);
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

/* No caches to flush here: the NIC's writes are in host memory already. */
static CUresult flush_gdr_writes(CUflushGPUDirectRDMAWritesTarget target,
				 CUflushGPUDirectRDMAWritesScope scope)
{
	struct dbl_ctx *c;
	CUresult r = dbl_enter(&c);

	if (r)
		return r;
	if (target != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX ||
	    (scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER &&
	     scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES))
		return CUDA_ERROR_INVALID_VALUE;
	/* as the driver: a platform without the HOST option cannot flush this way */
	if (!(dbl_conf.flush_options & CU_FLUSH_GPU_DIRECT_RDMA_WRITES_OPTION_HOST))
		return CUDA_ERROR_NOT_SUPPORTED;
	r = dbl_fault_flush();
	if (r)
		return r;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return CUDA_SUCCESS;
}

const struct dbl_fn dbl_dev_fns[] = {
    {"cuDeviceGetCount", (void *)device_get_count, 2000},
    {"cuDeviceGet", (void *)device_get, 2000},
    {"cuDeviceGetName", (void *)device_get_name, 2000},
    {"cuDeviceGetAttribute", (void *)device_get_attribute, 2000},
    {"cuDeviceGetPCIBusId", (void *)device_get_pci_bus_id, 4010},
    {"cuDeviceGetByPCIBusId", (void *)device_get_by_pci_bus_id, 4010},
    {"cuDeviceTotalMem", (void *)device_total_mem, 3020},
    {"cuDevicePrimaryCtxRetain", (void *)primary_ctx_retain, 7000},
    {"cuDevicePrimaryCtxRelease", (void *)primary_ctx_release, 11000},
    {"cuCtxSetCurrent", (void *)ctx_set_current, 4000},
    {"cuCtxGetCurrent", (void *)ctx_get_current, 4000},
    {"cuCtxGetDevice", (void *)ctx_get_device, 2000},
    {"cuFlushGPUDirectRDMAWrites", (void *)flush_gdr_writes, 11030},
    {"cuDeviceCanAccessPeer", (void *)can_access_peer, 4000},
    {"cuDeviceGetP2PAttribute", (void *)p2p_attribute, 8000},
    {NULL, NULL, 0},
};
