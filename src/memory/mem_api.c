/* SPDX-License-Identifier: MIT */
/*
 * Which memory a run gets: host memory, or a GPU of one of the runtimes (CUDA,
 * ROCm), peers behind one table; callers name the runtime (gdr_mem_cfg.api),
 * never test for one.
 */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "affinity.h"
#include "log.h"
#include "mem.h"
#include "mem_rocm.h"

#ifndef HAVE_CUDA
static int no_cuda(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev)
{
	(void)m;
	(void)cfg;
	(void)rdma_dev;
	gdr_err("--use_cuda: this gdrperf was built without CUDA support; rebuild with "
		"./configure CUDA_H_PATH=/usr/local/cuda/include/cuda.h");
	return -1;
}

static int gdr_mem_cuda_count(char *why, size_t n)
{
	snprintf(why, n, "this gdrperf was built without CUDA support");
	return -1;
}

static int gdr_mem_cuda_bdf(int index, char *out, size_t n, char *why, size_t wn)
{
	(void)index;
	(void)out;
	(void)n;
	return gdr_mem_cuda_count(why, wn);
}
static const char *gdr_mem_cuda_loaded(void)
{
	return NULL;
}
#define gdr_mem_cuda_init no_cuda
#endif

/* The GPU runtimes, peers: each sets up its memory and counts its GPUs. */
static const struct {
	const char *name, *option;
	int (*init)(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev);
	int (*count)(char *why, size_t n);
	int (*bdf)(int index, char *out, size_t n, char *why, size_t wn);
	const char *(*loaded)(void); /* its library's path when this process loaded it */
} apis[GDR_MEM_NAPIS] = {
    [GDR_MEM_API_CUDA] = {"cuda", "--use_cuda", gdr_mem_cuda_init, gdr_mem_cuda_count,
			  gdr_mem_cuda_bdf, gdr_mem_cuda_loaded},
    [GDR_MEM_API_ROCM] = {"rocm", "--use_rocm", gdr_mem_rocm_init, gdr_mem_rocm_count,
			  gdr_mem_rocm_bdf, gdr_mem_rocm_loaded},
};

const char *gdr_mem_runtime_loaded(void)
{
	for (int i = 0; i < GDR_MEM_NAPIS; i++)
		if (apis[i].loaded())
			return apis[i].loaded();
	return NULL;
}

const char *gdr_mem_api_option(enum gdr_mem_api api)
{
	return api < GDR_MEM_NAPIS ? apis[api].option : "--use_cuda";
}

const char *gdr_mem_api_name(enum gdr_mem_api api)
{
	return api < GDR_MEM_NAPIS ? apis[api].name : "cuda";
}

int gdr_mem_gpu_bdf(enum gdr_mem_api api, int index, char *out, size_t n, char *why, size_t wn)
{
	if (api >= GDR_MEM_NAPIS) {
		snprintf(why, wn, "internal error: GPU runtime %d", (int)api);
		return -1;
	}
	return apis[api].bdf(index, out, n, why, wn);
}

int gdr_mem_gpu_count(enum gdr_mem_api api, char *why, size_t n)
{
	if (api >= GDR_MEM_NAPIS) {
		snprintf(why, n, "internal error: GPU runtime %d", (int)api);
		return -1;
	}
	return apis[api].count(why, n);
}

int gdr_mem_init(struct gdr_mem *m, const struct gdr_mem_cfg *cfg, const char *rdma_dev)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->hugepages = cfg->hugepages;
	if (cfg->gpu != GDR_MEM_GPU_NONE || cfg->gpu_bus_id) {
		if (cfg->api >= GDR_MEM_NAPIS) {
			gdr_err("internal error: GPU runtime %d", (int)cfg->api);
			return -1;
		}
		return apis[cfg->api].init(m, cfg, rdma_dev);
	}
	m->ops = &gdr_mem_host_ops;
	snprintf(m->desc, sizeof(m->desc), "host memory%s",
		 m->hugepages ? " (2 MiB hugepages)" : "");
	return 0;
}

int gdr_mem_gpu_numa(const struct gdr_mem *m)
{
	char path[PATH_MAX];
	FILE *f;
	int v = -1;

	if (!gdr_mem_on_device(m))
		return -1;
	if (m->ops->numa && (v = m->ops->numa(m)) >= 0)
		return v;
	v = -1;
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/numa_node", gdr_sysfs_root(),
		 m->gpu_pci);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v < 0 ? -1 : v;
}
