/* SPDX-License-Identifier: MIT */
/*
 * Conformance: device memory's alignment and the dma-buf export rules.
 * cuMemAlloc gives 2 MiB-aligned memory (gdrperf's GPU buffers and gdrcopy's
 * pinning rely on it); cuMemGetHandleForAddressRange exports a page-aligned
 * range, whole or a part of an allocation, and refuses a start or a length
 * off the host page (gdrperf rounds down and passes the offset to
 * ibv_reg_dmabuf_mr); the PCIe (BAR1) mapping flag is refused where the
 * platform lacks it (x86 hosts such as the GPU machine; GB200 has it).
 */
#include "config.h"
#include <unistd.h>
#include "conf.h"

#define MiB (1UL << 20)

static const struct gdr_cuda_api *cu;

static const char *export(CUdeviceptr p, size_t len, unsigned long long flags)
{
	int fd = -1;
	CUresult r = cu->cuMemGetHandleForAddressRange(&fd, p, len,
						       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, flags);

	if (!r && fd >= 0) {
		close(fd);
		return "fd";
	}
	return r ? conf_name(r) : "no-fd";
}

int main(void)
{
	CUdeviceptr a = 0, b = 0;
	long page = sysconf(_SC_PAGESIZE);

	cu = conf_load("c_dmabuf");
	conf_context(cu);
	if (cu->cuMemAlloc(&a, MiB + 1) || cu->cuMemAlloc(&b, 2 * MiB))
		return 1;
	printf("RULE alloc_alignment one_mib_plus_one=%s two_mib=%s\n",
	       a % (2 * MiB) ? "below-2MiB" : "2MiB", b % (2 * MiB) ? "below-2MiB" : "2MiB");
	if (!cu->cuMemGetHandleForAddressRange) {
		printf("RULE dmabuf_export entry=absent\n");
		return 0;
	}
	printf("RULE dmabuf_export whole=%s page_inside=%s start_off_page=%s length_off_page=%s\n",
	       export(b, 2 * MiB, 0), export(b + (size_t)page, (size_t)page, 0),
	       export(b + 1, (size_t)page, 0), export(b, (size_t)page + 1, 0));
	printf("RULE dmabuf_pcie_mapping flag=%s\n", export(b, 2 * MiB, GDR_DMABUF_MAPPING_PCIE));
	printf("# info host page %ld bytes\n", page);
	cu->cuMemFree(a);
	cu->cuMemFree(b);
	return 0;
}
