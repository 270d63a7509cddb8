/* SPDX-License-Identifier: MIT */
/*
 * Conformance: the device attributes gdrperf reads, and the bus id it matches
 * against sysfs. GPUDirect RDMA and dma-buf support (registration path),
 * GPUDirect RDMA write ordering and flush options (whether to flush after the
 * NIC writes), the host NUMA node (placement), the PCI bus id's form and its
 * way back (cuDeviceGetByPCIBusId, lower case as sysfs spells it); an unknown
 * attribute is refused. Values are device 0's: the .expect is the GPU
 * machine's (an H200), the double plays that machine (its #env line).
 */
#include "config.h"
#include <ctype.h>
#include <string.h>
#include "conf.h"

static const struct gdr_cuda_api *cu;

static const char *attr(CUdevice dev, CUdevice_attribute a)
{
	static char buf[8][40];
	static int k;
	char *b = buf[k++ % 8];
	int v = -7;
	CUresult r = cu->cuDeviceGetAttribute(&v, a, dev);

	if (r)
		return conf_name(r);
	snprintf(b, 40, "%d", v);
	return b;
}

/* "dddd:bb:dd.f" in hex, upper case letters, or what it is not. */
static const char *bus_form(const char *s)
{
	static const char pat[] = "hhhh:hh:hh.h";
	int lower = 0;
	size_t i;

	if (strlen(s) != strlen(pat))
		return "other-length";
	for (i = 0; pat[i]; i++) {
		if (pat[i] != 'h' ? s[i] != pat[i] : !isxdigit((unsigned char)s[i]))
			return "other-form";
		lower |= islower((unsigned char)s[i]);
	}
	return lower ? "dddd:bb:dd.f case=lower" : "dddd:bb:dd.f case=no-lower";
}

int main(void)
{
	char bus[32] = "", low[32];
	CUdevice dev, back = -1, back2 = -1;
	CUresult r, rl;
	const char *numa;
	int v, i;

	cu = conf_load("c_attrs");
	conf_context(cu);
	if (cu->cuDeviceGet(&dev, 0) || cu->cuDeviceGetPCIBusId(bus, sizeof(bus), dev))
		return 1;
	for (i = 0; bus[i] && i < 31; i++)
		low[i] = (char)tolower((unsigned char)bus[i]);
	low[i] = 0;
	r = cu->cuDeviceGetByPCIBusId(&back, bus);
	rl = cu->cuDeviceGetByPCIBusId(&back2, low);
	numa = attr(dev, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID);
	printf("RULE attrs gpu_direct_rdma_supported=%s dma_buf_supported=%s "
	       "gpu_direct_rdma_writes_ordering=%s gpu_direct_rdma_flush_writes_options=%s\n",
	       attr(dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED),
	       attr(dev, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED),
	       attr(dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING),
	       attr(dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS));
	printf("RULE attrs_numa host_numa_id=%s\n", !strncmp(numa, "CUDA_", 5) ? numa
						    : atoi(numa) >= 0	       ? "a-node"
									       : "none");
	printf("RULE attrs_unknown attribute_max=%s\n",
	       cu->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, dev) ? "refused" : "answered");
	printf("RULE pci_bus_id form=%s by_bus_id=%s by_lower_case=%s\n", bus_form(bus),
	       r	     ? conf_name(r)
	       : back == dev ? "same-device"
			     : "other-device",
	       rl	      ? conf_name(rl)
	       : back2 == dev ? "same-device"
			      : "other-device");
	printf("# info device 0 at %s, host NUMA node %s\n", bus, numa);
	return 0;
}
