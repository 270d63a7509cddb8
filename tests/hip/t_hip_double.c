/* SPDX-License-Identifier: MIT */
/*
 * The HIP loader driving the HIP double (tests/hip/t_hip_double.sh sets GDR_LIBHIP):
 * "copy": device memory on GPU 0 and on the last GPU, host->device->host on two
 * streams, checked byte for byte; "export": the dma-buf of a device buffer holds
 * what was copied there (mmap of the fd at the export's offset). One line of result;
 * exit 0, or 1 with the failing call and its error by name.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "hip_api.h"

#define LEN (1 << 20)

static int fail(const char *call, gdr_hip_err r)
{
	printf("%s failed: %s\n", call, gdr_hip_strerror(r));
	return 1;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 131 + seed);
}

static int copy(const struct gdr_hip_api *api)
{
	gdr_hip_stream s[2] = {NULL, NULL};
	unsigned char *h = malloc(LEN), *back = malloc(LEN);
	void *d[2] = {NULL, NULL};
	int devs[2] = {0, api->ndev - 1}, rc = 1;
	gdr_hip_err r;

	if (!h || !back)
		goto out;
	for (int i = 0; i < 2; i++) {
		if ((r = api->hipSetDevice(devs[i])) || (r = api->hipMalloc(&d[i], LEN))) {
			rc = fail("hipMalloc", r);
			goto out;
		}
		if ((r = api->hipStreamCreate(&s[i]))) {
			rc = fail("hipStreamCreate", r);
			goto out;
		}
	}
	fill(h, LEN, 7);
	/* half a buffer per copy, both streams at once, then back through the other GPU */
	for (int i = 0; i < 2; i++)
		if ((r = api->hipMemcpyAsync((char *)d[i] + i * (LEN / 2), h + i * (LEN / 2),
					     LEN / 2, GDR_HIP_H2D, s[i]))) {
			rc = fail("hipMemcpyAsync", r);
			goto out;
		}
	for (int i = 0; i < 2; i++)
		if ((r = api->hipStreamSynchronize(s[i]))) {
			rc = fail("hipStreamSynchronize", r);
			goto out;
		}
	for (int i = 0; i < 2; i++)
		if ((r = api->hipMemcpyAsync(back + i * (LEN / 2), (char *)d[i] + i * (LEN / 2),
					     LEN / 2, GDR_HIP_D2H, s[1 - i]))) {
			rc = fail("hipMemcpyAsync", r);
			goto out;
		}
	if ((r = api->hipDeviceSynchronize())) {
		rc = fail("hipDeviceSynchronize", r);
		goto out;
	}
	if (memcmp(h, back, LEN)) {
		printf("copy: data differs after the round trip\n");
		goto out;
	}
	/* a device->host copy of host memory is the caller's mistake: refused */
	r = api->hipMemcpy(back, h, 64, GDR_HIP_D2H);
	if (!r) {
		printf("copy: a D2H copy from host memory was accepted\n");
		goto out;
	}
	printf("copy ok: %d bytes through GPUs %d and %d on two streams\n", LEN, devs[0], devs[1]);
	rc = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (s[i])
			api->hipStreamDestroy(s[i]);
		if (d[i])
			api->hipFree(d[i]);
	}
	free(h);
	free(back);
	return rc;
}

static int export(const struct gdr_hip_api *api)
{
	const struct gdr_hsa_dmabuf *hsa;
	unsigned char *h = malloc(LEN);
	char why[512];
	uint64_t off = 0;
	void *d = NULL, *m;
	int fd = -1, r = 0, rc = 1;

	if (gdr_hsa_dmabuf_load(&hsa, why, sizeof(why))) {
		printf("%s\n", why);
		free(h);
		return 1;
	}
	if (!h || (r = api->hipMalloc(&d, LEN))) {
		rc = fail("hipMalloc", r);
		goto out;
	}
	fill(h, LEN, 3);
	if ((r = api->hipMemcpy(d, h, LEN, GDR_HIP_H2D))) {
		rc = fail("hipMemcpy", r);
		goto out;
	}
	r = hsa->export_dmabuf((char *)d + 4096, LEN - 4096, &fd, &off);
	if (r) {
		printf("hsa_amd_portable_export_dmabuf failed: HSA status 0x%x\n", r);
		goto out;
	}
	m = mmap(NULL, LEN, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED || off != 4096 || memcmp((char *)m + off, h + 4096, LEN - 4096)) {
		printf("export: the dma-buf does not hold the buffer (offset %llu)\n",
		       (unsigned long long)off);
		if (m != MAP_FAILED)
			munmap(m, LEN);
		goto out;
	}
	munmap(m, LEN);
	printf("export ok: fd at offset %llu holds the device buffer\n", (unsigned long long)off);
	rc = 0;
out:
	if (fd >= 0)
		hsa->close_dmabuf(fd);
	if (d)
		api->hipFree(d);
	free(h);
	return rc;
}

int main(int argc, char **argv)
{
	const struct gdr_hip_api *api;
	char why[512];

	if (argc != 2 || (strcmp(argv[1], "copy") && strcmp(argv[1], "export"))) {
		fprintf(stderr, "usage: t_hip_double copy|export\n");
		return 2;
	}
	if (gdr_hip_load(&api, why, sizeof(why))) {
		printf("%s\n", why);
		return 1;
	}
	return !strcmp(argv[1], "copy") ? copy(api) : export(api);
}
