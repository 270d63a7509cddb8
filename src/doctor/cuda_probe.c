/* SPDX-License-Identifier: MIT */
/* The CUDA driver's view of the GPUs: names, PCI addresses, GPUDirect attributes. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifdef HAVE_CUDA
#include "cuda_api.h"

static struct doc_gpu *by_bdf(struct doctor *d, const char *busid)
{
	char bdf[TOPO_BDF_LEN];
	size_t i;

	/* CUDA writes "00000000:05:00.0" (8-digit domain, upper case). */
	for (i = 0; i < sizeof(bdf) - 1 && busid[i]; i++)
		bdf[i] = (char)tolower((unsigned char)busid[i]);
	bdf[i] = '\0';
	for (int k = 0; k < d->ngpu; k++) {
		const char *a = d->gpu[k].bdf, *b = bdf;

		/* Compare "dddd:bb:dd.f" ignoring leading zeros of the domain. */
		while (*a == '0' && a[1] != ':')
			a++;
		while (*b == '0' && b[1] != ':')
			b++;
		if (!strcmp(a, b))
			return &d->gpu[k];
	}
	return NULL;
}

/* Peer access and NVLink between every pair of GPUs CUDA sees (native atomics: NVLink). */
static void probe_links(struct doctor *d, const struct gdr_cuda_api *api)
{
	if (!api->cuDeviceCanAccessPeer || !api->cuDeviceGetP2PAttribute)
		return;
	for (int a = 0; a < d->ngpu; a++) {
		for (int b = 0; b < d->ngpu; b++) {
			CUdevice da, db;
			int can = 0, atomics = 0;

			if (a == b || d->gpu[a].cuda_index < 0 || d->gpu[b].cuda_index < 0 ||
			    api->cuDeviceGet(&da, d->gpu[a].cuda_index) != CUDA_SUCCESS ||
			    api->cuDeviceGet(&db, d->gpu[b].cuda_index) != CUDA_SUCCESS ||
			    api->cuDeviceCanAccessPeer(&can, da, db) != CUDA_SUCCESS)
				continue;
			if (can && api->cuDeviceGetP2PAttribute(
				       &atomics, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
				       da, db) != CUDA_SUCCESS)
				continue;
			d->link[a][b] = !can	  ? DOC_LINK_NONE
					: atomics ? DOC_LINK_NVLINK
						  : DOC_LINK_PCIE;
		}
	}
}

int cuda_probe(struct doctor *d, char *why, size_t n)
{
	const struct gdr_cuda_api *api;
	int count = 0;
	CUresult r;

	if (gdr_cuda_load(&api, why, n))
		return -1;
	r = api->cuDeviceGetCount(&count);
	if (r != CUDA_SUCCESS) {
		snprintf(why, n, "cuDeviceGetCount failed: %s", gdr_cuda_strerror(r));
		return -1;
	}
	for (int i = 0; i < count; i++) {
		char busid[64], name[128];
		struct doc_gpu *g;
		CUdevice dev;
		int v;

		if (api->cuDeviceGet(&dev, i) != CUDA_SUCCESS ||
		    api->cuDeviceGetPCIBusId(busid, sizeof(busid), dev) != CUDA_SUCCESS)
			continue;
		g = by_bdf(d, busid);
		if (!g)
			continue;
		g->cuda_index = i;
		if (api->cuDeviceGetName(name, sizeof(name), dev) == CUDA_SUCCESS)
			snprintf(g->name, sizeof(g->name), "%s", name);
		if (api->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED,
					      dev) == CUDA_SUCCESS)
			g->gdr = v != 0;
		if (api->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev) ==
		    CUDA_SUCCESS)
			g->dmabuf = v != 0;
	}
	probe_links(d, api);
	if (api->driver_version > 0)
		out_add(&d->out, OUT_INFO, "gpu.cuda", NULL,
			"CUDA driver API %d.%d, %d device(s) visible", api->driver_version / 1000,
			api->driver_version % 1000 / 10, count);
	return 0;
}

#else

int cuda_probe(struct doctor *d, char *why, size_t n)
{
	(void)d;
	snprintf(why, n, "gdr_doctor was built without cuda.h (configure CUDA_H_PATH=...)");
	return -1;
}

#endif
