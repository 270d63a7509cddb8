/* SPDX-License-Identifier: MIT */
/* gdr_doctor: what was found on the host, shared by the checks. */
#ifndef GDR_DOCTOR_H
#define GDR_DOCTOR_H

#include <stddef.h>
#include "out.h"
#include "topo.h"

#define DOC_MAX_DEV 64

struct doc_gpu {
	char bdf[TOPO_BDF_LEN];
	char name[128];	 /* from CUDA, else "NVIDIA device 0x2330" */
	char driver[64]; /* bound kernel driver, "" if none */
	int cuda_index;	 /* CUDA ordinal (HIP's on an AMD GPU), -1 if not seen by the runtime */
	int dmabuf;	 /* CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, -1 unknown */
	int gdr;	 /* CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED, -1 unknown */
	int amd;	 /* an AMD GPU (check_amd.c), not an NVIDIA one */
	int have_loc;
	struct topo_loc loc;
};

struct doc_nic {
	char name[64];		/* "mlx5_0" */
	char bdf[TOPO_BDF_LEN]; /* "" for software devices (rxe, siw) */
	char driver[64];
	int active_ports;
	int have_loc;
	struct topo_loc loc;
};

/* How two GPUs reach each other, per the CUDA driver. */
enum doc_link { DOC_LINK_UNKNOWN = 0, DOC_LINK_NONE, DOC_LINK_PCIE, DOC_LINK_NVLINK };

enum doc_iommu { IOMMU_UNKNOWN, IOMMU_OFF, IOMMU_PT, IOMMU_DMA };

struct doctor {
	const char *sysroot;  /* "/" or a fixture */
	const char *procroot; /* "/" or a fixture */
	int live;	      /* both roots are "/": verbs and CUDA may be asked */
	const char *ignore;   /* ports declared unused (ignore.h); NULL none */
	struct doc_gpu gpu[DOC_MAX_DEV];
	int ngpu;
	struct doc_nic nic[DOC_MAX_DEV];
	int nnic;
	int cuda_checked; /* the CUDA attributes were read */
	int amd;	  /* AMD GPUs found (an AMD node: no NVIDIA GPU on the bus) */
	/* peer links between d->gpu[i] and d->gpu[j] (cuda_probe) */
	unsigned char link[DOC_MAX_DEV][DOC_MAX_DEV];
	struct out out;
};

void check_rdma(struct doctor *d);
void check_gpu(struct doctor *d);
void check_peermem(struct doctor *d);
void check_topo(struct doctor *d);
/* In the Topology group: the GPU-GPU matrix in nvidia-smi topo -m words. */
void check_gpu_links(struct doctor *d);
/*
 * Why GPU-NIC pairs cannot be checked (no GPU, no hardware NIC), in words that
 * say what was looked at; NULL when there is at least one pair.
 */
const char *doc_no_pairs(const struct doctor *d, char *buf, size_t n);
void check_acs(struct doctor *d);
void check_iommu(struct doctor *d);
void check_limits(struct doctor *d);
void check_pcie(struct doctor *d);
void check_kmsg(struct doctor *d);
/* libfabric's version and providers (check_ofi.c): live, or $GDR_LIBFABRIC set. */
void check_ofi(struct doctor *d);
/*
 * AMD nodes (check_amd.c, check_amd_peer.c): when no NVIDIA GPU is on the bus,
 * amd_find_gpus() fills d->gpu with AMD GPUs (returns how many, sets d->amd), and
 * check_gpu, check_peermem and check_pcie hand over to these.
 */
int amd_find_gpus(struct doctor *d);
void check_amd_gpu(struct doctor *d);
void check_amd_peermem(struct doctor *d);
void check_amd_bar(struct doctor *d, const struct doc_gpu *g, const char *who);
/*
 * HIP's index of each AMD GPU into cuda_index (rocm_probe.c); *seen: how many of
 * d->gpu the runtime shows. 0 with the runtime's version in why, or -1 and why.
 */
int rocm_probe(struct doctor *d, int *seen, char *why, size_t n);

/* After check_rdma: NIC PCI functions without an RDMA device, in its group. */
void check_nicpci(struct doctor *d);

/* Fill name/cuda_index/dmabuf/gdr of d->gpu from the CUDA driver. 0, or -1 and why. */
int cuda_probe(struct doctor *d, char *why, size_t n);

/* Verbs view (live host only): device names seen by libibverbs; -1 on error. */
int verbs_device_names(char names[][64], int max);
/* Active MTU in bytes of a port through ibv_query_port; -1 if unknown. */
int verbs_active_mtu(const char *dev, int port);

/* Numeric string of a device's NUMA node ("0", "?"). */
const char *doc_numa_str(int numa, char *buf, size_t n);
/* The next GPU entry for the PCI function bdf, its facts unknown; *device: its PCI device id
 * (0 unknown). The caller checks there is room (gpu_str.c). */
struct doc_gpu *doc_gpu_new(struct doctor *d, const char *bdf, long *device);
/* "root 0000:00 > 0000:00:01.0 > ...": a GPU's bridges from its root complex (gpu_str.c) */
const char *doc_pcie_path(const struct doc_gpu *g, char *buf, size_t n);

#endif
